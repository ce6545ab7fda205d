"""Reliability: ten ways a long command or hostile input could fail a user, each a test.

The commands run as a user runs them (a ``qubic`` subprocess), so that
signals, exit statuses and left-over processes are the real ones.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from qubic_logic.bench.interrupts import qubic
from qubic_logic.engines import ENGINE_NAMES, get_engine
from qubic_logic.errors import GameOverError, NotationError, QubicError
from qubic_logic.players import make_player
from qubic_logic.notation import parse_mcdaniel, parse_patashnik, parse_position
from qubic_logic.position import Position
from qubic_logic.strategy.certificate import parse_certificate
from qubic_logic.strategy.verify import Witness
from qubic_logic.strategy.witness_check import CHECKERS, check_witnesses

FINISHED = "moves:0,16,1,17,2,18,3"  # X has four in a row at 0 1 2 3
RUNAWAY_LP = "p(0). p(X+1) :- p(X).\n"
QUBIC = [sys.executable, "-m", "qubic_logic.cli"]


# ---------------------------------------------------------------- 1. Prolog stops


def test_1_prolog_time_limit_covers_loading_rules(tmp_path):
    loop = tmp_path / "loop.pl"
    loop.write_text(":- repeat, fail.\n")
    run = qubic("query", "--engine", "prolog", "--rules", str(loop), "empty", "true", "--time-limit", "2")
    assert run.code == 2 and "time limit of 2 s" in run.err


def test_1_win_with_prolog_has_a_default_time_limit():
    from qubic_logic.cli import build_parser
    from qubic_logic.cli._common import DECLARATIVE_TIME_LIMIT, declarative_time_limit

    args = build_parser().parse_args(["win", "1-2", "--engine", "prolog"])
    assert declarative_time_limit(args) == DECLARATIVE_TIME_LIMIT
    args = build_parser().parse_args(["win", "1-2", "--engine", "prolog", "--time-limit", "inf"])
    assert declarative_time_limit(args) is None


# ---------------------------------------------------------------- 2. ASP grounding stops


def test_2_runaway_grounding_ends_with_a_time_out_message(tmp_path):
    rules = tmp_path / "r.lp"
    rules.write_text(RUNAWAY_LP)
    run = qubic("query", "--engine", "asp", "--rules", str(rules), "empty", "#show p/1.", "--time-limit", "3")
    assert run.code == 2 and "time limit of 3 s" in run.err and len(run.err.strip().splitlines()) == 1


def test_2_runaway_grounding_stops_at_the_memory_limit_with_one_line(tmp_path):
    rules = tmp_path / "r.lp"
    rules.write_text(RUNAWAY_LP)
    run = qubic("query", "--engine", "asp", "--rules", str(rules), "empty", "#show p/1.",
                "--time-limit", "120", "--memory-limit", "400")
    assert run.code == 2 and "memory limit of 400 MB" in run.err and len(run.err.strip().splitlines()) == 1


def test_2_check_with_a_runaway_rule_stops_at_its_limit(tmp_path):
    rules = tmp_path / "r.lp"
    rules.write_text("domain(position(\"1-2\")).\n" + RUNAWAY_LP + "violated :- p(1000000000).\n")
    run = qubic("check", str(rules), "--time-limit", "2")
    assert run.code == 2 and "time limit of 2 s" in run.err


# ---------------------------------------------------------------- 4. verify stops (Ctrl-C: test_interrupts.py)

def test_4_verify_certificate_stops_at_its_time_limit_with_an_incomplete_verdict(certificate):
    run = qubic("verify", "certificate", str(certificate), "--check-with", "asp", "--jobs", "2",
                "--time-limit", "1")
    assert run.code == 1 and "INCOMPLETE (time limit)" in run.out and not run.err.startswith("\n")


def test_4_match_refuses_more_games_than_it_can_hold():
    run = qubic("match", "random", "greedy", "--games", "100000000", "--time-limit", "1")
    assert run.code == 2 and "at most 1,000,000" in run.err


# ---------------------------------------------------------------- 5. --time-limit inf


def test_5_an_infinite_time_limit_is_no_limit():
    run = qubic("win", "1-2,22-52,27-4", "--time-limit", "inf")
    assert run.code == 0 and "X wins in 6 moves" in run.out
    from qubic_logic.core import shortest_forced_win

    assert shortest_forced_win(parse_position("1-2,22-52,27-4"), time_limit=1e19).length == 6


# ---------------------------------------------------------------- 6. a finished game


def test_6_win_on_a_finished_game_is_one_line_exit_2():
    run = qubic("win", FINISHED)
    assert run.code == 2 and run.out == ""
    assert run.err.strip() == ("qubic win: error: the game is over: X has four in a row at cells 0 1 2 3; "
                               "nothing to analyse")


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_6_every_engine_refuses_a_finished_game(name):
    engine = get_engine(name)
    position = parse_position(FINISHED)
    for ask in (engine.shortest_forced_win, engine.threats, engine.related_pairs):
        with pytest.raises(GameOverError, match="X has four in a row at cells 0 1 2 3"):
            ask(position)


def test_6_threats_tree_solve_refuse_a_finished_game():
    for command in ("threats", "tree", "solve"):
        run = qubic(command, FINISHED)
        assert run.code == 2 and "the game is over" in run.err


@pytest.mark.parametrize("checker", CHECKERS)
def test_6_a_certificate_line_with_four_in_a_row_is_rejected(checker):
    over = Witness(Position.from_cells([0, 16, 1, 17, 2, 18, 3]), (19,))
    live = Witness(Position.from_cells([0, 16, 1, 17, 2, 18]), (3,))
    rejected = check_witnesses([live, over], checker)
    assert [(i, reason) for i, _, reason in rejected] == [(1, "the game is over: X already has four in a row")]


# ---------------------------------------------------------------- 7. output paths before work


@pytest.mark.parametrize("args", [
    ["solve", "1-2,22-52,27-4", "-o", "/nonexistent/x"],
    ["verify", "dictionary", "--certificate", "/nonexistent/x", "/dev/null"],
    ["match", "random", "greedy", "--save", "/nonexistent/x"],
    ["tree", "1-2,22-52,27-4", "-o", "/proc/x.svg"],
    ["match", "--round-robin", "random", "greedy", "--table", "/nonexistent/t.md"],
])
def test_7_a_bad_output_path_is_refused_before_the_work(args):
    run = qubic(*args)
    assert run.code == 2 and "cannot write" in run.err and "internal error" not in run.err
    assert len(run.err.strip().splitlines()) == 1


def test_7_a_bad_player_option_is_refused_before_any_game():
    run = qubic("match", "--round-robin", "random:seed=é", "greedy", "--table", "t.md")
    assert run.code == 2 and "seed=é of random: expected a whole number" in run.err


def test_7_tables_are_utf8(tmp_path):
    run = qubic("match", "--round-robin", "random", "greedy", "--games", "1", "--table", "t.md", cwd=tmp_path)
    assert run.code == 0
    assert run.out.startswith((tmp_path / "t.md").read_text(encoding="utf-8"))  # then the ratings


# ---------------------------------------------------------------- 8. play keeps the game


def test_8_play_keeps_the_game_after_a_bad_load(tmp_path):
    (tmp_path / "bin.dat").write_bytes(bytes(range(256)) * 8)
    (tmp_path / "big.txt").write_text("1-" + "9" * 5000 + "\n")
    proc = subprocess.run([*QUBIC, "play", "--o", "random"], input="1\nload bin.dat\nload big.txt\nquit\n",
                          capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert proc.returncode == 0 and "internal error" not in proc.stdout + proc.stderr
    assert "bin.dat is not text" in proc.stdout and "is out of range" in proc.stdout
    assert "game left after 2 moves" in proc.stdout


# ---------------------------------------------------------------- 9. Prolog halt


def test_9_halt_in_a_checked_rule_is_an_error(tmp_path):
    rules = tmp_path / "halt.pl"
    rules.write_text("domain(plane(1, 3, 0)).\nviolated :- halt.\n")
    run = qubic("check", str(rules))
    assert run.code == 2 and "halt" in run.err and "holds" not in run.out


def test_9_halt_as_a_query_is_an_error():
    run = qubic("query", "--engine", "prolog", "empty", "halt")
    assert run.code == 2 and "halt" in run.err


# ---------------------------------------------------------------- 10. real messages


@pytest.mark.parametrize("parse, text", [
    (parse_patashnik, "x" + "9" * 5000 + "o"),
    (parse_mcdaniel, "1-" + "9" * 5000),
    (parse_position, "9" * 5000 + "-1"),
])
def test_10_huge_numbers_are_notation_errors_cut_short(parse, text):
    with pytest.raises(NotationError) as info:
        parse(text)
    assert len(str(info.value)) < 400


def test_10_huge_numeric_options_are_usage_errors():
    run = qubic("query", "--engine", "asp", "empty", "#show a/0.", "--max-length", "99999999999999999999999")
    assert run.code == 2 and "whole number from 0 to" in run.err and "internal error" not in run.err


@pytest.mark.parametrize("spec, message", [
    ("mccarthy:depth=0", "from 1 to 6"), ("mccarthy:depth=-1", "depth=-1"),
    ("mccarthy:depth=abc", "expected a whole number"), ("mccarthy:deep=2", "has no option 'deep'"),
])
def test_10_player_options_are_checked(spec, message):
    with pytest.raises(QubicError, match=message):
        make_player(spec)


# ---------------------------------------------------------------- smaller items


def test_mcdaniel_pairs_must_line_up():
    with pytest.raises(NotationError, match="do not line up"):
        parse_mcdaniel("1,22-52")
    assert parse_mcdaniel("1-2,22") == [0, 1, 21]


def test_a_long_input_is_echoed_cut():
    run = qubic("win", "1-2," * 25_000 + "x")
    assert run.code == 2 and len(run.err) < 600 and "(100001 characters)" in run.err


def test_saved_files_get_the_umask_mode(tmp_path):
    from qubic_logic.saving import write_atomically

    old = os.umask(0o022)
    try:
        write_atomically(tmp_path / "a.txt", "é")
    finally:
        os.umask(old)
    assert (tmp_path / "a.txt").stat().st_mode & 0o777 == 0o644
    assert (tmp_path / "a.txt").read_bytes() == "é".encode()
    assert [p.name for p in tmp_path.iterdir()] == ["a.txt"]


def test_native_verifier_refuses_negative_masks_and_odd_entries():
    from qubic_logic.strategy.verify import VERIFY_NATIVE

    if VERIFY_NATIVE is None:
        pytest.skip("native core not built")
    with pytest.raises(OverflowError):
        VERIFY_NATIVE.traverse([], -1, 0)
    with pytest.raises(ValueError, match="entry 0 is not a tuple"):
        VERIFY_NATIVE.traverse([[0, 0, 1]], 0, 0)
    with pytest.raises(OverflowError):
        VERIFY_NATIVE.witness_holds(-1, 0, b"")


def test_a_certificate_parses_and_json_of_a_stopped_check_says_so(certificate):
    witnesses = parse_certificate(certificate.read_text())
    assert 6000 <= len(witnesses) <= 20000
    run = qubic("verify", "certificate", str(certificate), "--check-with", "referee", "--json")
    check = json.loads(run.out)
    assert run.code == 0 and check["stopped"] is None and check["checked"] == len(witnesses)
