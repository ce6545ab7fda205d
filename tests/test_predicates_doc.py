"""docs/predicates.md: every example runs as written and prints what the page shows.

The key answers are also checked against an independent computation with the
Python core.
"""

import re
import shlex
from pathlib import Path

import pytest

from qubic_logic.bitboard import threat_cells
from qubic_logic.cli import main
from qubic_logic.core import shortest_forced_win, threats
from qubic_logic.geometry import PLANES, cells_of
from qubic_logic.notation import parse_position

from .docpages import console_examples

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "predicates.md"


EXAMPLES = console_examples(DOC.read_text())


def _run(command: str, capsys) -> str:
    argv = shlex.split(command)
    assert argv[0] == "qubic"
    assert main(argv[1:]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_example_runs_as_written(name, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    runs = EXAMPLES[name]
    assert {"asp", "prolog"} == {re.search(r"--engine (\w+)", c).group(1) for c, _ in runs}
    for command, shown in runs:
        assert _run(command, capsys) == shown, command


def _position(name: str):
    return parse_position(re.search(r" (\d[\d,-]+) '", EXAMPLES[name][0][0]).group(1))


def _answers(name: str, capsys, monkeypatch) -> tuple[set[str], list[dict]]:
    """The ASP atoms and the Prolog bindings of an example, as JSON."""
    import json

    monkeypatch.chdir(ROOT)
    asp, prolog = sorted(EXAMPLES[name], key=lambda run: "prolog" in run[0])
    atoms = {a for m in json.loads(_run(asp[0] + " --json", capsys))["models"] for a in m}
    solutions = json.loads(_run(prolog[0] + " --json", capsys))["solutions"]
    return atoms, solutions


def test_major_cells_for_o_match_the_core(capsys, monkeypatch):
    expected = cells_of(threats(_position("major-cells-o")).major_o)
    atoms, solutions = _answers("major-cells-o", capsys, monkeypatch)
    assert expected and atoms == {f"major({c})" for c in expected}
    assert [s["C"] for s in solutions] == expected


def test_plane_17_first_moves_match_the_core(capsys, monkeypatch):
    p = _position("plane-17")
    a, d = p.mask("x"), p.mask("o")
    firsts = set()
    for move in p.legal_moves():
        new = threat_cells(a | 1 << move, d)
        if move in PLANES[16] and new and (
            new & (new - 1) or shortest_forced_win(p.play(move).play(cells_of(new)[0]), max_length=5).found
        ):
            firsts.add(move)
    atoms, solutions = _answers("plane-17", capsys, monkeypatch)
    assert firsts and {a for a in atoms if a.startswith("first")} == {f"first({m})" for m in firsts}
    assert {s["M"] for s in solutions} == firsts


def test_shortest_and_counter_threat_match_the_core(capsys, monkeypatch):
    length = shortest_forced_win(_position("shortest")).length
    atoms, solutions = _answers("shortest", capsys, monkeypatch)
    assert atoms == {f"win_length({length})"} and solutions == [{"N": length}]
    p = _position("counter-threat")
    (block,) = cells_of(threat_cells(p.mask("o"), p.mask("x")))
    win = shortest_forced_win(p)
    atoms, solutions = _answers("counter-threat", capsys, monkeypatch)
    assert atoms == {f"must({block})"}
    assert solutions == [{"C": block, "N": win.length, "First": block}]


def _engines_page_runs() -> list[tuple[str, str]]:
    section = (ROOT / "docs" / "engines.md").read_text()
    runs: list[tuple[str, str]] = []
    for block in re.findall(r"```console\n(.*?)```", section, re.DOTALL):
        for line in block.splitlines():
            if line.startswith("$ "):
                runs.append((line[2:], ""))
            else:
                runs[-1] = (runs[-1][0], runs[-1][1] + line + "\n")
    return runs


def test_engines_page_queries_run_as_written(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    runs = _engines_page_runs()
    engines = {re.search(r"--engine (\w+)", c).group(1) for c, _ in runs if c.startswith("qubic query")}
    assert engines == {"asp", "prolog"}
    for command, shown in runs:
        out = _run(command, capsys)
        if command.startswith("qubic win"):  # timings differ from run to run; witnesses may too
            assert out.split(":")[0] == shown.split(":")[0], command
        elif shown:
            assert out == shown, command
        else:
            assert out.strip(), command
