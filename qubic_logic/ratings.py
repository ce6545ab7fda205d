"""Ratings of players from their games: Bradley-Terry strengths, on the Elo scale, with intervals.

:func:`rate` fits a Bradley-Terry model to the results of a round robin
(``choix``'s maximum-likelihood fit with a small regularisation, so that a
player who won every game still gets a finite rating); a draw counts as half a
win for each side. Strengths are put on the Elo scale (400 points: 10 to 1
odds) with ``greedy``, the baseline, at 1000 (a player who never wins, as
``random``, has a rating set by the regularisation alone, so it is no anchor).
The 95% intervals come from a bootstrap: the games
of every pair are resampled with replacement, ``bootstrap`` times, from a seeded
generator, and each rating's 2.5th and 97.5th percentiles are reported.

Each player is then put in a strength group (:data:`GROUPS`, beginner ...
unbeatable) by its rating: the menus of the browser list opponents by group.
The shipped table is ``qubic_logic/data/ratings.json``, written by ``qubic
match --round-robin ... --ratings FILE`` (the command is stored in the file).

>>> from qubic_logic.match import GameRecord
>>> games = [GameRecord('a', 'b', [], 'x', {}), GameRecord('b', 'a', [], 'o', {}),
...          GameRecord('a', 'b', [], 'draw', {}), GameRecord('b', 'a', [], 'x', {})]
>>> table = rate(games, bootstrap=20, seed=1, anchor=('b', 0.0))
>>> [(r.name, r.games, r.score) for r in table]
[('a', 4, 2.5), ('b', 4, 1.5)]
>>> table[0].elo > table[1].elo == 0
True
"""

from __future__ import annotations

import json
import math
import random
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from importlib.resources import files

import choix
import numpy as np

from .errors import QubicError
from .match import GameRecord
from .saving import write_atomically

ELO = 400 / math.log(10)  # Elo points per unit of Bradley-Terry strength
REGULARISATION = 0.01
ANCHOR = ("greedy", 1000.0)  # the baseline player and its rating: every other rating is relative to it
GROUPS = (("beginner", -1e9), ("casual", 900.0), ("intermediate", 1100.0), ("advanced", 1300.0),
          ("expert", 1450.0), ("unbeatable", 1900.0))  # (name, lowest rating of the group)


@dataclass(frozen=True)
class Rating:
    """One player's rating (Elo scale), its 95% interval, group, and games played and scored."""

    name: str
    elo: float
    low: float
    high: float
    games: int
    score: float  # wins + draws / 2
    group: str

    def to_json(self) -> dict:
        """The rating as stored in ``ratings.json``."""
        return {k: round(v, 1) if isinstance(v, float) else v for k, v in asdict(self).items()}


def group_of(elo: float) -> str:
    """The strength group of a rating.

    >>> group_of(-50), group_of(1150), group_of(2400)
    ('beginner', 'intermediate', 'unbeatable')
    """
    return [name for name, low in GROUPS if elo >= low or name == GROUPS[0][0]][-1]


def _pairs(records: Iterable[GameRecord], index: dict[str, int]) -> dict[tuple[int, int], list[str]]:
    """The results of each unordered pair of players, as 'a' (first won), 'b' or 'draw'."""
    pairs: dict[tuple[int, int], list[str]] = defaultdict(list)
    for g in records:
        i, j = index[g.x], index[g.o]
        if i == j:
            continue
        winner = "draw" if g.result == "draw" else (i if g.result == "x" else j)
        a, b = min(i, j), max(i, j)
        pairs[a, b].append("draw" if winner == "draw" else "a" if winner == a else "b")
    return pairs


def _fit(n: int, pairs: dict[tuple[int, int], list[str]]) -> np.ndarray:
    """Bradley-Terry strengths (mean 0): each win counted twice, a draw once for each side."""
    wins = np.zeros((n, n))  # wins[i, j]: how often i beat j
    for (a, b), results in pairs.items():
        wins[a, b] += 2 * results.count("a") + results.count("draw")
        wins[b, a] += 2 * results.count("b") + results.count("draw")
    return choix.ilsr_pairwise_dense(wins, alpha=REGULARISATION)


class Ratings(list):
    """The ratings, strongest first; ``samples`` is how many bootstrap samples the intervals are from and
    ``stopped`` why there are fewer than asked (``'time limit'``, ``'interrupted'``; None: all of them)."""

    samples: int = 0
    stopped: str | None = None


def rate(records: Iterable[GameRecord], bootstrap: int = 200, seed: int = 0,
         anchor: tuple[str, float] = ANCHOR, *, deadline: float | None = None) -> Ratings:
    """The ratings of every player of ``records``, strongest first (``anchor`` at its rating, if it played;
    else the mean at 0). The bootstrap stops early at ``deadline`` (a ``time.monotonic()``) or on Ctrl-C,
    and the intervals are from the samples drawn by then (none: each interval is its rating alone)."""
    records = list(records)
    names = sorted({g.x for g in records} | {g.o for g in records})
    if len(names) < 2:
        raise QubicError(f"ratings need games between at least two players; got {len(names)}")
    index = {name: i for i, name in enumerate(names)}
    pairs = _pairs(records, index)
    rng = random.Random(seed)
    drawn, stopped = [], None
    try:
        while len(drawn) < bootstrap:
            if deadline is not None and time.monotonic() > deadline:
                stopped = "time limit"
                break
            drawn.append(_fit(len(names), {k: rng.choices(v, k=len(v)) for k, v in pairs.items()}))
    except KeyboardInterrupt:  # the samples drawn so far are kept
        stopped = "interrupted"
    samples = np.array(drawn) if drawn else None
    base = _fit(len(names), pairs)
    zero = index.get(anchor[0])

    def scale(strengths: np.ndarray) -> np.ndarray:
        if zero is None:
            return ELO * strengths
        return ELO * (strengths - strengths[..., [zero]]) + anchor[1]

    elo = scale(base)
    low, high = (np.percentile(scale(samples), [2.5, 97.5], axis=0) if samples is not None
                 else (elo, elo))
    table = Ratings()
    table.samples, table.stopped = len(drawn), stopped
    for name, i in index.items():
        mine = [g for g in records if name in (g.x, g.o) and g.x != g.o]
        score = sum(1.0 if g.result != "draw" and getattr(g, g.result) == name else
                    0.5 if g.result == "draw" else 0.0 for g in mine)
        table.append(Rating(name, float(elo[i]), float(low[i]), float(high[i]), len(mine), score,
                            group_of(float(elo[i]))))
    table.sort(key=lambda r: -r.elo)
    return table


def ratings_markdown(table: list[Rating]) -> str:
    """The ratings as a markdown table.

    >>> print(ratings_markdown([Rating('a', 10.0, 0.0, 20.0, 4, 2.5, 'beginner')]))
    | player | rating | 95% interval | group | games | score |
    |---|---|---|---|---|---|
    | a | 10 | 0 .. 20 | beginner | 4 | 2.5 |
    """
    lines = ["| player | rating | 95% interval | group | games | score |", "|---|---|---|---|---|---|"]
    lines += [f"| {r.name} | {r.elo:.0f} | {r.low:.0f} .. {r.high:.0f} | {r.group} | {r.games} | {r.score:g} |"
              for r in table]
    return "\n".join(lines)


def save_ratings(path: str, table: list[Rating], command: str, games_per_pair: int) -> None:
    """Write the ratings as JSON (with the command that produced them), atomically."""
    data = {"command": command,
            "model": f"Bradley-Terry (choix), draws half a win, Elo scale, {ANCHOR[0]} = {ANCHOR[1]:g}",
            "interval": "95% bootstrap over games within each pair", "games_per_pair": games_per_pair,
            "groups": [{"name": n, "from": low} for n, low in GROUPS],
            "ratings": [r.to_json() for r in table]}
    write_atomically(path, json.dumps(data, indent=1) + "\n")


def shipped_ratings() -> dict:
    """The shipped ratings table (``qubic_logic/data/ratings.json``)."""
    return json.loads((files("qubic_logic") / "data" / "ratings.json").read_text())
