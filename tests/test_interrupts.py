"""Ctrl-C at a random moment into every long command: it exits within about a second, says what it
had, and leaves no process behind.

The moment is drawn from a seeded generator (``QUBIC_INTERRUPT_SEED`` changes it), so a failure
can be replayed. The times are measured by ``python -m qubic_logic.bench interrupts``.
"""

from __future__ import annotations

import os
import random
import signal

import pytest

from qubic_logic.bench.interrupts import qubic
from qubic_logic.strategy.dictionary import patashnik_path

RNG = random.Random(int(os.environ.get("QUBIC_INTERRUPT_SEED", "17")))
EXIT_SECONDS = 5.0  # "stops at once", not "finishes its work": 2.16 s was seen on 2 loaded cores at nice 19


def moment(low: float, high: float) -> float:
    """A random moment, in seconds from the start, to send Ctrl-C."""
    return round(RNG.uniform(low, high), 2)


def interrupted(*args: str, low: float = 2.0, high: float = 5.0, signum: int = signal.SIGINT):
    run = qubic(*args, interrupt_after=moment(low, high), signum=signum)
    assert "Traceback" not in run.err and "internal error" not in run.err
    assert run.seconds < EXIT_SECONDS, f"exit {run.seconds:.2f} s after Ctrl-C"
    assert not run.leftovers()
    return run


def test_solve_split():
    run = interrupted("solve", "empty", "--split", "--move", "0", "--jobs", "2", low=3, high=6)
    assert run.code == 130 and "not solved (interrupted)" in run.out and "of 12 reply classes" in run.out


def test_verify_dictionary():
    run = interrupted("verify", "dictionary", str(patashnik_path()), low=1.5, high=8)
    assert ": INCOMPLETE" in run.out and "positions up to symmetry" in run.out


def test_verify_certificate(certificate):
    # one worker: the ASP re-check then takes about 6 s, so the Ctrl-C at 2-4 s always lands in it
    # (with two workers it took 3.5 s and the Ctrl-C sometimes came as it finished)
    run = interrupted("verify", "certificate", str(certificate), "--check-with", "asp", "--jobs", "1",
                      low=2, high=4)
    assert run.code == 130 and "INCOMPLETE (interrupted)" in run.out


@pytest.mark.parametrize("language, rules, goal", [
    ("asp", "p(0). p(X+1) :- p(X).\n", "#show p/1."),
    ("prolog", ":- repeat, fail.\n", "true"),
    ("prolog", "loop :- repeat, fail.\n", "loop"),
])
def test_query_with_looping_rules(tmp_path, language, rules, goal):
    path = tmp_path / ("r.lp" if language == "asp" else "r.pl")
    path.write_text(rules)
    run = interrupted("query", "--engine", language, "--rules", str(path), "empty", goal)
    assert run.code == 130 and "query was interrupted" in run.err


@pytest.mark.parametrize("suffix, rules", [
    (".lp", "domain(marks(2, 1)).\np(0). p(X+1) :- p(X).\nviolated :- p(-1).\n"),
    (".pl", "domain(marks(2, 1)).\nviolated :- repeat, fail.\n"),
])
def test_check_with_looping_rules(tmp_path, suffix, rules):
    path = tmp_path / f"rule{suffix}"
    path.write_text(rules)
    run = interrupted("check", str(path))
    assert run.code == 130 and "the check was interrupted" in run.err


def test_tree_with_asp():
    run = interrupted("tree", "x2o8x5o14x8o5o11x", "--engine", "asp", "--max-nodes", "100000", low=4, high=7)
    assert run.code == 130 and "interrupted: the tree is incomplete" in run.err and "nodes" in run.out


def test_win_with_asp():
    run = interrupted("win", "x2o8x5o14x8o5o11x", "--engine", "asp", low=0.8, high=1.8)  # done in ~2 s
    assert run.code == 130 and "interrupted" in run.err


@pytest.mark.slow
def test_claims():
    run = interrupted("claims", low=2, high=10)
    assert run.code == 130 and "interrupted after" in run.err


def test_match():
    run = interrupted("match", "mccarthy:depth=3", "greedy", "--games", "1000", "--jobs", "2", low=3, high=5)
    assert run.code == 130 and "stopped early by Ctrl-C" in run.err and "games, mean length" in run.out


def test_sigterm_stops_a_book_build_as_ctrl_c_does(tmp_path):
    """A build started in the background (where the shell ignores SIGINT) is stopped by ``kill``."""
    book = tmp_path / "b.sqlite"
    run = interrupted("book", "build", str(book), "--stones", "2", "--jobs", "2", low=3, high=5,
                      signum=signal.SIGTERM)
    assert run.code == 130 and "interrupted (Ctrl-C or kill): every settled position is kept" in run.out
