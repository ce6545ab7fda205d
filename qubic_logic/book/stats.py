"""What a book holds: counts by stones and value, proof sizes, the largest proofs, a position's replies.

>>> from qubic_logic.book.store import OpeningBook
>>> import tempfile, os
>>> with OpeningBook.open(os.path.join(tempfile.mkdtemp(), 'b.sqlite'), create=True) as book:
...     _ = book.add_positions([Position(), Position.from_cells([0])])
...     book_stats(book)['by_stones']
{'0': {'open': 1}, '1': {'open': 1}}
"""

from __future__ import annotations

from statistics import median

from ..position import Position
from .classes import children
from .store import VALUES, BookEntry, OpeningBook, canonical_key, position_name
from ..symmetry import INVERSES, TRANSFORMS
from ..wording import counted


def book_stats(book: OpeningBook) -> dict:
    """Counts by stones and value; proof sizes (min / median / max) of each settled group; searches run."""
    by_stones: dict[str, dict[str, int]] = {}
    for (stones, value), n in sorted(book.counts().items()):
        by_stones.setdefault(str(stones), {})[value] = n
    sizes: dict[str, dict[str, list[int]]] = {}
    for e in book.entries():
        if e.proof_size is not None and e.value in ("win", "loss"):
            sizes.setdefault(str(e.stones), {}).setdefault(e.value, []).append(e.proof_size)
    proof_sizes = {s: {v: {"min": min(x), "median": median(x), "max": max(x)} for v, x in d.items()}
                   for s, d in sizes.items()}
    tables, table_bytes = book.saved_tables()
    return {"root": book.meta("root") or "empty", "stones": book.stones, "positions": len(book),
            "by_stones": by_stones, "proof_sizes": proof_sizes, "searches": book.solves(),
            "saved_tables": {"count": tables, "bytes": table_bytes}}


def largest_proofs(book: OpeningBook, top: int = 5) -> list[dict]:
    """The ``top`` entries with the largest proofs (the positions that hold out longest)."""
    entries = sorted((e for e in book.entries() if e.proof_size), key=lambda e: -e.proof_size)[:top]
    return [{"position": position_name(e.position), "value": e.value, "proof_size": e.proof_size,
             "nodes": e.nodes, "seconds": round(e.seconds, 1)} for e in entries]


def reply_table(book: OpeningBook, position: Position) -> list[tuple[int, BookEntry | None]]:
    """Each class of moves from ``position`` (the move in ``position``'s orientation) and its entry, if any."""
    _, _, t = canonical_key(position)
    canonical = Position(*canonical_key(position)[:2])
    back = TRANSFORMS[INVERSES[t]]
    return [(back[move], book.get(Position(*key))) for key, move in children(canonical).items()]


def format_stats(path: str, stats: dict) -> str:
    """The text ``qubic book stats`` prints."""
    lines = [f"{path}: {counted(stats['positions'], 'position')} up to symmetry from {stats['root']} "
             f"({'not built yet' if stats['stones'] is None else 'to ' + counted(stats['stones'], 'stone')}), {counted(stats['searches'], 'search', 'searches')} run"]
    lines.append(f"  {'stones':>6}  " + "  ".join(f"{v:>7}" for v in VALUES) + "   proof sizes (min / median / max)")
    for stones, counts in stats["by_stones"].items():
        sizes = "; ".join(f"{v} {d['min']:,} / {d['median']:,g} / {d['max']:,}"
                          for v, d in stats["proof_sizes"].get(stones, {}).items())
        lines.append(f"  {stones:>6}  " + "  ".join(f"{counts.get(v, 0):>7,}" for v in VALUES) + f"   {sizes}")
    saved = stats["saved_tables"]
    if saved["count"]:
        lines.append(f"  saved search tables of open positions: {saved['count']:,} ({saved['bytes'] / 1e6:,.1f} MB); "
                     "a build with a larger --budget goes on from them")
    if stats.get("largest"):
        lines.append("  largest proofs:")
        lines += [f"    {e['position']:<16} {e['value']:<5} {e['proof_size']:>7,} strategic positions "
                  f"({e['nodes']:,} nodes, {e['seconds']:g} s)" for e in stats["largest"]]
    return "\n".join(lines)
