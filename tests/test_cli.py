"""The ``qubic`` command's foundation subcommands: output, JSON and one-line errors."""

import json
import subprocess
import sys

import pytest

from qubic_logic.notation import parse_position
from qubic_logic.referee import replay_forced_win


def qubic(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "qubic_logic.cli", *args], capture_output=True, text=True, timeout=120
    )


def test_version_names_the_core():
    out = qubic("--version")
    assert out.returncode == 0 and "qubic-logic" in out.stdout and "core" in out.stdout


def test_win_json_is_one_object_with_a_valid_witness():
    out = qubic("win", "1-2,22-52,27-4", "--json")
    assert out.returncode == 0
    data = json.loads(out.stdout)
    assert data["length"] == 6 and data["engine"] in ("native", "python")
    assert replay_forced_win(parse_position("1-2,22-52,27-4"), data["sequence"]) == 6


def test_win_with_a_bound_reports_none():
    data = json.loads(qubic("win", "1-2,22-52,27-4", "--max-length", "5", "--json").stdout)
    assert data["length"] is None and data["sequence"] == []


def test_show_marks_threats():
    out = qubic("show", "moves:0,16,1,17,2")
    assert out.returncode == 0
    # X holds 0, 1, 2 and threatens cell 3: level 1, row 1, fourth column
    assert out.stdout.splitlines()[2].split()[:5] == ["0│", "x", "x", "x", "+"]
    assert "O to move" in out.stdout


def test_threats_json():
    data = json.loads(qubic("threats", "moves:0,16,1,17,2", "--json").stdout)
    assert data["o"]["threats"] == [] and data["x"]["threats"] == [3]
    assert data["to_move"] == "o"


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["win", "1-2,22-2"], "already taken"),
        (["show", "hello"], "cannot read 'hello' as a position"),
        (["win", "1-65"], "1..64"),
        (["threats", "moves:0,16,1,17,2,18,3,19"], "game is over"),
    ],
)
def test_errors_are_one_line_exit_2(args, fragment):
    out = qubic(*args)
    assert out.returncode == 2
    assert fragment in out.stderr and len(out.stderr.strip().splitlines()) == 1
    assert "Traceback" not in out.stderr


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["win", "1-2", "--max-length", "-3"], "positive whole number"),
        (["win", "1-2", "--time-limit", "-1"], "seconds greater than 0"),
        (["match", "random", "greedy", "--games", "0"], "positive whole number"),
        (["tree", "1-2", "--max-nodes", "x"], "positive whole number"),
    ],
)
def test_bad_numbers_are_one_line_errors(args, fragment):
    out = qubic(*args)
    assert out.returncode == 2 and fragment in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


LONG_WIN = "x2o8x5o14x8o5o11x"  # a forced win deeper than the tree's default node cap reaches


def test_a_tree_cut_by_its_node_cap_says_so_and_what_to_change():
    from qubic_logic.core import shortest_forced_win

    length = shortest_forced_win(parse_position(LONG_WIN)).length
    out = qubic("tree", LONG_WIN)
    assert out.returncode == 0 and "no forced win found" in out.stdout
    assert out.stderr.startswith("the node cap of 5,000 nodes was reached")
    assert f"but X wins in {length} by the engine" in out.stderr
    assert "add --only-winning to follow only the moves that win, or raise --max-nodes" in out.stderr
    out = qubic("tree", LONG_WIN, "--only-winning")
    assert out.returncode == 0 and f"wins in {length}" in out.stdout
    assert f"it shows a win in {length}, not every winning line; raise --max-nodes" in out.stderr
    assert "--only-winning" not in out.stderr  # never suggested when given
    out = qubic("tree", LONG_WIN, "--only-winning", "--max-length", str(length))
    assert "--max-length" not in out.stderr


def test_every_shipped_strategy_has_a_description():
    from qubic_logic.shipped import strategy_rule_files

    listed = json.loads(qubic("list", "strategies", "--json").stdout)["strategies"]
    assert {s["name"] for s in listed} >= set(strategy_rule_files())
    assert all(len(s["description"]) > 20 for s in listed), listed
    compact = {s["name"]: s["description"] for s in listed}["patashnik-compact.lp"]
    assert "patashnik-qubic.dictionary as 671 patterns" in compact and "ASP" in compact


def test_a_converted_strategy_names_itself_on_its_first_line(tmp_path):
    out = tmp_path / "mine.pl"
    assert qubic("strategy", "convert", "patashnik", str(out), "--to", "prolog").returncode == 0
    first = out.read_text().split("\n", 1)[0]
    assert first.startswith("% mine.pl -- ") and "in Prolog" in first
