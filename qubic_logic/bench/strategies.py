"""Strategies: the latency of one strategy call (position in, move out), by source.

The strategy is Citrenbaum's PDP-4 rule set, shipped as rules/strategies/citrenbaum-pdp4.lp
and .pl and as the player ``citrenbaum-pdp4:preset=seven-file``; the positions are every
position of seeded greedy-v-greedy games (``bench.players.positions``). Rows: the ASP session
(the project rules the strategy uses ground once, the position as externals solved under
assumptions), the Prolog session (rules consulted once, the position asserted, the call made
through the foreign interface), the Python player, and the one-off paths
(a fresh clingo Control ground for each position; a Prolog query that reloads the file). Every
source must give the player's move. Targets: ASP <= 2 ms, Prolog <= 0.5 ms median.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.table import Table

from ..engines import asp, prolog
from ..engines.rulefiles import rule_path
from ..players import get_player
from ..strategy.sources import load_strategy
from .players import positions


def _median_ms(call: Callable[[object], int | None], games: list, expected: list[int]) -> tuple[float, float]:
    """Median wall-clock and CPU milliseconds per call (CPU time is what a loaded machine cannot steal)."""
    call(games[0])  # start-up is not timed
    wall, cpu = [], []
    for game, move in zip(games, expected):
        start, start_cpu = time.perf_counter(), time.process_time()
        got = call(game)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        if got != move:
            raise AssertionError(f"a strategy source gives {got} where the player gives {move}: {game.moves}")
    return statistics.median(wall) * 1000, statistics.median(cpu) * 1000


def run(console: Console, quick: bool = False) -> None:
    games = positions(1 if quick else 4)
    player = get_player("citrenbaum-pdp4", preset="seven-file")
    expected = [player.choose(g).cell for g in games]
    lp, pl = rule_path("strategies/citrenbaum-pdp4", "lp"), rule_path("strategies/citrenbaum-pdp4", "pl")
    session_asp, session_pl = load_strategy(str(lp)), load_strategy(str(pl))

    def fresh_asp(game) -> int | None:
        r = asp.solve(files=[lp], rules=("geometry", "threats"), position=game.position)
        return next((s.arguments[0].number for s in r.models[0] if s.name == "play"), None)

    copy = Path(tempfile.mkdtemp()) / "pdp4.pl"  # SWI-Prolog loads one file into one module only
    copy.write_text(pl.read_text())

    def fresh_prolog(game) -> int | None:
        found = prolog.query("play(C)", [copy], position=game.position, max_solutions=1)
        return found[0]["C"] if found else None

    rows = [
        ("ASP session (externals, assumptions)", lambda g: session_asp.move(g.position)),
        ("Prolog session (position asserted)", lambda g: session_pl.move(g.position)),
        ("Python player", lambda g: player.choose(g).cell),
        ("ASP, fresh Control per call", fresh_asp),
        ("Prolog, file reloaded per call", fresh_prolog),
    ]
    medians = {name: _median_ms(call, games, expected) for name, call in rows}
    python = medians["Python player"][1]
    table = Table(title=f"citrenbaum-pdp4: one strategy call, median ms over {len(games)} positions")
    table.add_column("source")
    table.add_column("wall ms", justify="right")
    table.add_column("CPU ms", justify="right")
    table.add_column("CPU ratio to the Python player", justify="right")
    for name, (wall, cpu) in medians.items():
        table.add_row(name, f"{wall:.3f}", f"{cpu:.3f}", f"{cpu / python:.1f}x")
    console.print(table)
    asp_ratio = medians[rows[3][0]][1] / medians[rows[0][0]][1]
    prolog_ratio = medians[rows[4][0]][1] / medians[rows[1][0]][1]
    console.print(f"CPU per call: ASP session {asp_ratio:.1f}x faster than a fresh Control; "
                  f"Prolog session {prolog_ratio:.1f}x faster than reloading")
