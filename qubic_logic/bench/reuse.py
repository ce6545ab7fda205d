"""Proofs reused across the defender's replies, and weak proof numbers: the native search's nodes, per reply.

The positions are the opening book's settled replies: O's 12 reply classes to
X's corner opening and the replies to X's weak opening (cell 1) that the book
settles (``--quick``: the corner's 12 alone). Each is solved twice in one run,
one after the other, by :func:`~qubic_logic.proof.solve.solve`: with the
reuse switched off (``pass_nodes=0``) and on (the default), and both
strategies are verified. A reply's ratio is its nodes without the reuse over
its nodes with it (extraction included); the summary is the median ratio per
reply and the ratio of the totals. A third search, without the reuse, sums
the proof numbers at the defender's turns weakly (``weak_pns=1``: against
the over-counting of positions that many move orders reach); its ratio is
the plain search's nodes over its own.
"""

from __future__ import annotations

import statistics

from rich.console import Console
from rich.table import Table

from ..notation import parse_position
from ..proof.solve import solve
from ..strategy.verify import verify

CORNER_REPLIES = (1, 3, 5, 6, 7, 15, 21, 22, 23, 27, 31, 63)
# one df-pn search settles each of these replies to the weak opening (not 12, 22 and 26)
WEAK_REPLIES = (2, 4, 5, 6, 7, 13, 14, 20, 23, 24, 28, 29, 30, 31, 61, 62, 0, 21, 25, 60)
MEMORY_MB = 3000


def positions(quick: bool = False) -> list[str]:
    """The replies measured, as ``moves:`` texts.

    >>> len(positions(quick=True)), len(positions())
    (12, 32)
    """
    corner = [f"moves:0,{r}" for r in CORNER_REPLIES]
    return corner if quick else corner + [f"moves:1,{r}" for r in WEAK_REPLIES]


def measure(text: str, pass_nodes: int | None, weak_pns: int = 0) -> dict:
    """One solve of ``text`` (``pass_nodes=0``: no reuse), its nodes with the extraction's, and its verdict."""
    position = parse_position(text)
    r = solve(position, memory_limit=MEMORY_MB, pass_nodes=pass_nodes, weak_pns=weak_pns)
    verdict = verify(r.strategy, position, jobs=1).verdict if r.strategy is not None else "none"
    return {"status": r.status, "nodes": r.nodes + r.extra.get("extraction_nodes", 0), "seconds": r.seconds,
            "size": r.strategy_size, "verdict": verdict, "zone_proofs": r.extra.get("zone_proofs", 0),
            "pass_searches": r.extra.get("pass_searches", 0)}


def run(console: Console, quick: bool = False) -> None:
    table = Table(title="nodes: plain, with proof reuse, with weak proof numbers (ratio: plain / other)")
    for column in ("reply", "plain", "reuse", "ratio", "weak", "ratio"):
        table.add_column(column, justify="right")
    ratios, weak_ratios, totals, unverified = [], [], [0, 0, 0], []
    for text in positions(quick):
        off, on, weak = measure(text, 0), measure(text, None), measure(text, 0, weak_pns=1)
        ratios.append(off["nodes"] / on["nodes"])
        weak_ratios.append(off["nodes"] / weak["nodes"])
        for i, m in enumerate((off, on, weak)):
            totals[i] += m["nodes"]
        unverified += [f"{text} ({name})" for name, m in (("plain", off), ("reuse", on), ("weak", weak))
                       if m["verdict"] != "verified"]
        table.add_row(text.removeprefix("moves:"), f"{off['nodes']:,}", f"{on['nodes']:,}", f"{ratios[-1]:.3f}",
                      f"{weak['nodes']:,}", f"{weak_ratios[-1]:.3f}")
        console.print(f"{text}: {off['nodes']:,} plain, {on['nodes']:,} with reuse ({on['pass_searches']:,} pass "
                      f"searches, {on['zone_proofs']:,} replies proven by a zone), {weak['nodes']:,} weak",
                      highlight=False)
    console.print(table)
    console.print(f"proof reuse: median ratio per reply {statistics.median(ratios):.3f} (above 1: fewer nodes with "
                  f"it); totals {totals[0]:,} without, {totals[1]:,} with: {totals[0] / totals[1]:.3f}")
    console.print("every strategy verified" if not unverified else f"NOT VERIFIED: {', '.join(unverified)}")
    console.print(f"weak proof numbers: median ratio per reply {statistics.median(weak_ratios):.3f}; totals "
                  f"{totals[2]:,}: {totals[0] / totals[2]:.3f}")
