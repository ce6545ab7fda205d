"""The learning curve of a brain: results over training games, rolling win rate, patterns known.

``.csv`` writes one row per training game (number, opponent, side, result,
rolling win rate, patterns known); ``.png`` and ``.svg`` draw it with
matplotlib: the rolling win rate (left axis) with each game's result as a
tick, the number of learned patterns (right axis), and the evaluation series
as points with their 95% intervals.

>>> rolling(['win', 'loss', 'win', 'win'], 2)
[1.0, 0.5, 0.5, 1.0]
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from ...errors import QubicError
from ...saving import write_atomically
from .store import Brain
from .train import wilson

FORMATS = (".png", ".svg", ".csv")
PLURAL = {"win": "wins", "draw": "draws", "loss": "losses"}


def rolling(results: list[str], window: int) -> list[float]:
    """The share of wins over the last ``window`` games (fewer at the start), after each game."""
    out, wins = [], 0
    for i, r in enumerate(results):
        wins += r == "win"
        if i >= window:
            wins -= results[i - window] == "win"
        out.append(wins / min(i + 1, window))
    return out


def write_curve(brain: Brain, path: str, window: int = 50) -> None:
    """Write the learning curve to ``path`` (.png, .svg or .csv), atomically."""
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise QubicError(f"cannot draw a curve to {path!r}; expected a file name ending in .png, .svg or .csv")
    games = brain.games()
    if not games:
        raise QubicError(f"{brain.path} has no training games yet; train it first with --against NAME --games N")
    rates = rolling([g.result for g in games], window)
    if suffix == ".csv":
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(["game", "opponent", "side", "result", f"win_rate_last_{window}", "patterns_known"])
        for g, rate in zip(games, rates):
            w.writerow([g.number, g.opponent, g.side, g.result, f"{rate:.4f}", g.patterns])
        write_atomically(path, out.getvalue())
        return
    _plot(brain, games, rates, window, path, suffix[1:])


def _plot(brain: Brain, games, rates, window: int, path: str, fmt: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    numbers = [g.number for g in games]
    fig = Figure(figsize=(9, 4.8), layout="constrained")
    ax = fig.add_subplot()
    ax.plot(numbers, rates, color="tab:blue", label=f"win rate, last {window} training games")
    colours = {"win": "tab:green", "draw": "tab:gray", "loss": "tab:red"}
    for row, (result, colour) in enumerate(colours.items()):  # one row of ticks per result
        xs = [g.number for g in games if g.result == result]
        ax.scatter(xs, [-0.03 * (row + 1)] * len(xs), marker="|", s=20, color=colour, label=PLURAL[result])
    for e in brain.evaluations():
        if e.games:
            low, high = wilson(e.wins, e.games)
            rate = e.wins / e.games
            ax.errorbar([e.after_games], [rate], yerr=[[rate - low], [high - rate]], fmt="o", capsize=4,
                        label=f"v {e.opponent} after {e.after_games} ({e.games} games)")
    ax.set_ylim(-0.11, 1.02)
    ax.set_xlabel("training game")
    ax.set_ylabel("win rate")
    twin = ax.twinx()
    twin.step(numbers, [g.patterns for g in games], where="post", color="tab:orange", label="patterns known")
    twin.set_ylabel("learned TEST + SUTEST patterns")
    handles = ax.get_legend_handles_labels()
    more = twin.get_legend_handles_labels()
    ax.legend(handles[0] + more[0], handles[1] + more[1], loc="center right", fontsize="small")
    ax.set_title(f"Doake's Score 4 learning: {brain.path.name}")
    picture = io.BytesIO()
    fig.savefig(picture, format=fmt)
    write_atomically(path, picture.getvalue())
