"""Counts in words: ``1 position``, ``2 positions``, ``1,000 tree nodes``.

>>> counted(1, "position"), counted(12_000, "tree node"), counted(2, "match", "matches")
('1 position', '12,000 tree nodes', '2 matches')
"""

from __future__ import annotations


def counted(n: int, word: str, plural: str | None = None) -> str:
    """``n`` (with thousands separators) and ``word``, in the plural unless ``n`` is 1."""
    return f"{n:,} {word if n == 1 else plural or word + 's'}"
