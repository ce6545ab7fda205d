"""Fuzzing: every parser and every command's arguments take hostile text with a clear
error or a right answer, never a traceback; every engine refuses a finished game.

Each test runs a bounded number of examples in the default suite and many more under the
``slow`` marker (``make test-all``).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qubic_logic.claims.rulecheck import domains_of
from qubic_logic.cli import build_parser, main
from qubic_logic.cli._common import megabytes, non_negative_int, positive_int, seconds
from qubic_logic.notation import parse_game
from qubic_logic.engines import ENGINE_NAMES, get_engine
from qubic_logic.errors import GameOverError, QubicError
from qubic_logic.players import make_player
from qubic_logic.notation import (
    CELL_FORMS, format_mcdaniel, format_patashnik, format_position, parse_cell, parse_mcdaniel, parse_moves,
    parse_patashnik, parse_position, parse_qubic,
)
from qubic_logic.position import Position
from qubic_logic.strategy.certificate import parse_certificate
from qubic_logic.strategy.dictionary import StrategyDictionary

EXAMPLES = [pytest.param(40, id="bounded"), pytest.param(1500, id="many", marks=pytest.mark.slow)]
LONGEST_MESSAGE = 800  # characters: inputs are echoed cut, never whole

NOTATION_CHARS = "0123456789-,xo.:/ empty\n\tXOé\x00"
texts = st.one_of(
    st.text(max_size=80),
    st.text(alphabet=NOTATION_CHARS, max_size=80),
    st.builds(lambda n, k: "-".join(["9" * n] * k), st.integers(1, 6000), st.integers(1, 3)),
    st.builds(lambda a, b: f"{a}-{b}", st.integers(-10**30, 10**30), st.integers(-5, 70)),
)


def _run(examples: int, strategy, check) -> None:
    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(strategy)
    def inner(value):
        check(value)

    inner()


def _clear(call, *args) -> object:
    """``call(*args)``: a value, or a QubicError with a short message; anything else fails the test."""
    try:
        return call(*args)
    except QubicError as exc:
        assert len(str(exc)) < LONGEST_MESSAGE, f"message of {len(str(exc))} characters"
        return exc


PARSERS = {
    "position": parse_position, "mcdaniel": parse_mcdaniel, "patashnik": parse_patashnik,
    "qubic": parse_qubic, "moves": parse_moves, "game": parse_game, "player": make_player,
    "domains": domains_of, "certificate": parse_certificate, "dictionary": StrategyDictionary.parse,
    **{f"cell-{form}": (lambda text, form=form: parse_cell(text, form)) for form in CELL_FORMS},
    "cell-any": parse_cell,
}


@pytest.mark.parametrize("examples", EXAMPLES)
@pytest.mark.parametrize("name", sorted(PARSERS))
def test_parsers_take_any_text(name, examples):
    _run(examples, texts, lambda text: _clear(PARSERS[name], text))


@pytest.mark.parametrize("examples", EXAMPLES)
def test_certificates_and_dictionaries_with_hostile_lines(examples):
    lines = st.lists(texts, max_size=5).map(lambda rows: "header\n---\n" + "\n".join(rows) + "\n")
    _run(examples, lines, lambda text: (_clear(parse_certificate, text), _clear(StrategyDictionary.parse, text)))


def _random_game(seed: int, *, finished: bool) -> Position:
    rng = random.Random(seed)
    while True:
        p = Position()
        while not p.is_over:
            p = p.play(rng.choice(p.legal_moves()))
            if not finished and rng.random() < 0.1:
                return p
        if finished and p.winner:
            return p


@pytest.mark.parametrize("examples", EXAMPLES)
def test_positions_round_trip_through_every_notation(examples):
    def check(seed: int) -> None:
        p = _random_game(seed, finished=False)
        assert parse_patashnik(format_patashnik(p)) == p
        assert parse_position(format_position(p, "qubic")) == p

    _run(examples, st.integers(0, 10**9), check)


@pytest.mark.parametrize("examples", EXAMPLES)
def test_games_round_trip_through_mcdaniel(examples):
    def check(seed: int) -> None:
        rng = random.Random(seed)
        moves = rng.sample(range(64), rng.randint(1, 9))
        assert parse_mcdaniel(format_mcdaniel(moves)) == [m for m in moves]

    _run(examples, st.integers(0, 10**9), check)


@pytest.mark.parametrize("examples", EXAMPLES)
@pytest.mark.parametrize("kind", [positive_int, non_negative_int, seconds, megabytes])
def test_numeric_options_take_any_text(kind, examples):
    def check(text: str) -> None:
        try:
            kind(text)
        except argparse.ArgumentTypeError as exc:
            assert len(str(exc)) < LONGEST_MESSAGE

    numbers = st.one_of(texts, st.integers().map(str), st.floats().map(str), st.just("inf"), st.just("nan"))
    _run(examples, numbers, check)


# ------------------------------------------------------------------ every command's arguments

COMMANDS = build_parser()._subparsers._group_actions[0].choices  # name -> its parser
VALUES = ["1-2,22-52,27-4", "empty", "moves:0,16,1,17,2,18,3", "x2o8x5o14x8o5o11x", "0", "-1", "3", "inf",
          "nan", "9" * 50, "1e400", "é", "", "/nonexistent/x", "random", "mccarthy:depth=0", "asp", "python",
          "--json", "-o", "--"]


def _arguments(command: str) -> st.SearchStrategy[list[str]]:
    options = [o for action in COMMANDS[command]._actions for o in action.option_strings if o not in ("-h", "--help")]
    token = st.one_of(st.sampled_from(VALUES), st.sampled_from(options or ["--json"]), texts)
    return st.lists(token, max_size=6)


@pytest.mark.parametrize("examples", EXAMPLES)
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_parses_any_arguments_or_says_why(command, examples):
    parser = build_parser()

    def check(args: list[str]) -> None:
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            try:
                parser.parse_args([command, *args])
            except SystemExit as exc:
                assert exc.code in (0, 2)
                if exc.code == 2:
                    assert len(err.getvalue().strip().splitlines()) == 1

    _run(examples, _arguments(command), check)


QUICK = {  # commands that finish fast, run for real on fuzzed positions and options
    "show": [], "threats": [], "win": ["--engine", "python", "--time-limit", "2"],
    "tree": ["--engine", "python", "--max-nodes", "40"], "reply": [],
}


@pytest.mark.parametrize("examples", EXAMPLES)
@pytest.mark.parametrize("command", sorted(QUICK))
def test_quick_commands_run_on_fuzzed_input_without_internal_errors(command, examples):
    positions = st.one_of(st.sampled_from(VALUES), texts,
                          st.integers(0, 10**9).map(lambda s: format_patashnik(_random_game(s, finished=s % 3 == 0))))

    def check(position: str) -> None:
        args = [command, "random", position] if command == "reply" else [command, position]
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            try:
                code = main([*args, *QUICK[command]])
            except SystemExit as exc:
                code = exc.code
        assert code in (0, 1, 2) and "internal error" not in err.getvalue() and "Traceback" not in err.getvalue()

    _run(examples, positions, check)


# ------------------------------------------------------------------ finished games


@pytest.mark.parametrize("examples", EXAMPLES)
@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_every_engine_refuses_every_finished_game(name, examples):
    engine = get_engine(name)
    slow = name in ("asp", "prolog")

    def check(seed: int) -> None:
        p = _random_game(seed, finished=True)
        for ask in (engine.shortest_forced_win, engine.threats, engine.related_pairs):
            with pytest.raises(GameOverError, match=f"{p.winner.upper()} has four in a row at cells"):
                ask(p)

    _run(max(examples // 8, 3) if slow else examples, st.integers(0, 10**9), check)
