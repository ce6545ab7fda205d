"""Counts and lists in words: ``1 position``, ``2 positions``, ``1,000 tree nodes``, ``16, 31 or 42``;
``3.1G`` where room is short.

>>> counted(1, "position"), counted(12_000, "tree node"), counted(2, "match", "matches")
('1 position', '12,000 tree nodes', '2 matches')
>>> listed(["16"]), listed(["16", "31"]), listed(["16", "31", "42"], "and")
('16', '16 or 31', '16, 31 and 42')
>>> listed([str(c) for c in range(1, 9)], limit=5)
'1, 2, 3, 4, 5 or 3 more'
"""

from __future__ import annotations


def counted(n: int, word: str, plural: str | None = None) -> str:
    """``n`` (with thousands separators) and ``word``, in the plural unless ``n`` is 1."""
    return f"{n:,} {word if n == 1 else plural or word + 's'}"


def listed(items: list[str], conjunction: str = "or", limit: int | None = None) -> str:
    """``items`` as a person lists them: commas, then ``conjunction`` before the last; past ``limit`` items,
    the first ``limit`` and how many more."""
    items = list(items)
    if limit is not None and len(items) > limit:
        return f"{', '.join(items[:limit])} {conjunction} {len(items) - limit:,} more"
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} {conjunction} {items[-1]}"


def short_count(n: float) -> str:
    """``n`` in at most five characters: ``987``, ``12.3k``, ``456k``, ``3.12G`` (for lines that must stay short).

    >>> [short_count(n) for n in (987, 12_345, 456_789, 3_123_456_789, 1e15)]
    ['987', '12.3k', '457k', '3.12G', '1000T']
    """
    for unit, size in (("T", 1e12), ("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if n >= size:
            value = n / size
            return f"{value:.3g}{unit}" if value < 1000 else f"{value:.0f}{unit}"
    return f"{n:.0f}"
