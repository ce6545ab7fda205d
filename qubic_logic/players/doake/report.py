"""Rows of ``qubic learn --report``: the learned patterns and the evaluations.

>>> pattern_rows(Tables())[0]
['TEST', '1', '20', 'computer', '0', 'rule book', '-']
"""

from __future__ import annotations

from .store import Evaluation
from .tables import Tables, describe, is_computer


def pattern_rows(tables: Tables) -> list[list[str]]:
    """One row per TEST and SUTEST column: table, column, sums, colour, AJUST, teaching game, times fired."""
    rows = []
    for i, (e, ajust) in enumerate(zip(tables.tests, tables.ajust), 1):
        rows.append(["TEST", str(i), describe(e.pattern), "computer" if is_computer(e.pattern) else "opponent",
                     str(ajust), "rule book" if e.game is None else str(e.game), str(e.fired) if i > 4 else "-"])
    for i, e in enumerate(tables.sutests, 1):
        rows.append(["SUTEST", str(i), describe(e.pattern), "computer", "-", str(e.game), "-"])
    return rows


def evaluation_rows(evaluations: list[Evaluation]) -> list[list[str]]:
    """One row per evaluation series, with the win rate's 95% Wilson interval."""
    from .train import wilson

    rows = []
    for e in evaluations:
        low, high = wilson(e.wins, e.games)
        rate = e.wins / e.games if e.games else 0.0
        rows.append([str(e.after_games), e.opponent, str(e.games), str(e.wins), str(e.draws), str(e.losses),
                     f"{rate:.1%} ({low:.1%}-{high:.1%})"])
    return rows
