"""Doake's claim (L2223), checked: does a recognised pattern start a genuine forcing sequence?

"A recognised pattern always starts a genuine forcing sequence once M1 is
played, unless in defending, the opponent accidentally makes up a three."

The positions: every position of a fixed, seeded training run (the learner
from the rule book against ``greedy``; the tables as they stood during each
game) where no three is on the board and a learned TEST pattern in the
colours of the side to move matches. The check: the side to move plays the
key square M1; then it must have a forced win by threat sequence that
starts there (docs/design.md §3): two threats at once, or one threat whose
forced block leaves a forced win. The forced-win engines decide: the Prolog
rules of ``rules/claims/doake-patterns-force.pl`` over these facts, and the
native core (:func:`verdict`) as the cross-check. A failure where the
defender's forced block makes a three is the claim's own exception.

>>> cases = pattern_cases(games=6)
>>> all(c.key_cell in range(64) for c in cases)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ...core import shortest_forced_win, threats
from ...geometry import cells_of
from ...position import Game, Position, other
from .board import Board
from .search import match, search
from .tables import RULE_BOOK, Tables, describe, is_computer
from .train import play_and_learn

GAMES, SEED, OPPONENT = 60, 1, "greedy"


@dataclass(frozen=True)
class Case:
    """A position where a pattern of the side to move matched, and its key square."""

    game: int
    ply: int  # moves played before this position
    pattern: tuple[int, ...]
    key_cell: int  # M1 as a cell 0..63
    attacker: int  # mask of the side to move, before M1
    defender: int

    def label(self) -> str:
        """``game G move N: pattern P, key square S`` (Doake's squares)."""
        return f"game {self.game} move {self.ply + 1}: pattern {describe(self.pattern)}, key square {self.key_cell + 1}"


def _cases_in(game: Game, number: int, tables: Tables, seen: set) -> list[Case]:
    out = []
    for ply in range(len(game.moves)):
        position = Position.from_cells(game.moves[:ply])
        side = position.to_move
        board = Board.from_position(position, side)
        if search(board, list(RULE_BOOK)).m3:
            continue  # a three (or four) on the board: the rule book acts first
        for pattern in tables.test[len(RULE_BOOK):]:
            if not is_computer(pattern):
                continue
            key = match(board, pattern)
            if not key:
                continue
            a, d = position.mask(side), position.mask(other(side))
            if (a, d, key) not in seen:
                seen.add((a, d, key))
                out.append(Case(number, ply, pattern, key - 1, a, d))
    return out


@lru_cache(maxsize=4)
def pattern_cases(games: int = GAMES, seed: int = SEED, opponent: str = OPPONENT) -> tuple[Case, ...]:
    """Every distinct (position, key square) of the training run where a pattern of the side to move matched."""
    tables = Tables()
    cases: list[Case] = []
    seen: set = set()
    for number in range(1, games + 1):
        play_and_learn(tables, opponent, number, seed,
                       observe=lambda game, side: cases.extend(_cases_in(game, number, tables, seen)))
    return tuple(cases)


def after_key(case: Case) -> tuple[int, int]:
    """Attacker and defender masks once M1 is played."""
    return case.attacker | 1 << case.key_cell, case.defender


def verdict(case: Case) -> str:
    """``holds``, ``excepted`` (fails, but the defender's forced block makes a three: the claim's
    own exception) or ``fails``, decided by the native (or Python) core."""
    a, d = after_key(case)
    side = "x" if case.attacker.bit_count() == case.defender.bit_count() else "o"
    x, o = (a, d) if side == "x" else (d, a)
    position = Position(x, o)
    mine = threats(position).of(side)
    if mine.bit_count() >= 2:
        return "holds"
    if not mine:
        return "fails"
    blocked = position.play(cells_of(mine)[0])
    if shortest_forced_win(blocked).found:
        return "holds"
    return "excepted" if threats(blocked).of(other(side)) else "fails"


def figures(cases: tuple[Case, ...]) -> dict:
    """The claim's figures: cases, holds, fails, and the failures outside the seed's exception."""
    verdicts = [verdict(c) for c in cases]
    return {"cases": len(cases), "holds": verdicts.count("holds"),
            "fails": len(cases) - verdicts.count("holds"), "fails_excepted": verdicts.count("excepted"),
            "fails_other": verdicts.count("fails"),
            "failures": [c.label() for c, v in zip(cases, verdicts) if v == "fails"]}


def facts(cases: tuple[Case, ...]) -> list[str]:
    """Prolog facts: ``case(Id, A, D)`` with A the attacker's mask once M1 is played, and labels."""
    out = []
    for i, c in enumerate(cases, 1):
        a, d = after_key(c)
        out.append(f"case({i}, {a}, {d}).")
        out.append(f"case_label({i}, '{c.label()}').")
    return out
