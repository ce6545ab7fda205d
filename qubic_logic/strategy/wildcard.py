"""Strategy dictionaries in O'Dwyer's wildcard format: one 64-character line per group of positions.

Character ``i`` of a line is cell ``i`` (Patashnik's numbering, x + 4y + 16z):
``x`` an X mark, ``o`` an O mark, ``.`` (or ``-``) an empty cell, exactly one
``X`` (X's move) and any number of ``O``, the *wildcards*. The line stands
for one position per wildcard cell: that cell holds an O mark, the other
wildcard cells are empty, and X plays the ``X`` cell. A line without
wildcards stands for its one position. Lines starting with ``#`` are
comments (a ``# root: POSITION`` comment sets where play starts, as the
``root:`` header line of Patashnik's format does); blank lines are skipped.
Lookup is up to the 192 automorphisms, as for Patashnik's format.

>>> d = parse_wildcard("x" + "." * 20 + "X" + "." * 20 + "O" * 2 + "." * 20 + "\\n")
>>> [e.text() for e in d]
['x41o 21', 'x42o 21']
>>> dumps_wildcard([WildcardLine(1, 0, 3 << 42, 21)]) == "x" + "." * 20 + "X" + "." * 20 + "OO" + "." * 20 + "\\n"
True
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ..errors import DataFormatError, QubicError
from ..geometry import cells_of
from ..notation import shown
from ..position import Position
from ..saving import line_safe, write_atomically
from .dictionary import Entry, StrategyDictionary

MARKS = {"x": "x", "o": "o", ".": ".", "-": ".", "X": "X", "O": "O"}
COMMENT = "#"


@dataclass(frozen=True, slots=True)
class WildcardLine:
    """X's marks, O's fixed marks, the wildcard cells, X's move; ``line`` is the 1-based line number (0: none)."""

    x: int
    o: int
    wild: int
    move: int
    line: int = 0

    def positions(self) -> list[Position]:
        """The positions the line stands for: one per wildcard cell, or the line's own without wildcards.

        >>> [p.o for p in WildcardLine(1, 0, 6, 5).positions()]
        [2, 4]
        """
        if not self.wild:
            return [Position(self.x, self.o)]
        return [Position(self.x, self.o | 1 << w) for w in cells_of(self.wild)]

    def entries(self) -> list[Entry]:
        """The dictionary entries of :meth:`positions`, each with the line's move and number."""
        return [Entry(p, self.move, self.line) for p in self.positions()]

    def text(self) -> str:
        """The 64 characters of the line.

        >>> WildcardLine(1, 0, 6, 5).text()[:8]
        'xOO..X..'
        """
        chars = ["."] * 64
        for cells, mark in ((self.x, "x"), (self.o, "o"), (self.wild, "O")):
            for c in cells_of(cells):
                chars[c] = mark
        chars[self.move] = "X"
        return "".join(chars)


def is_wildcard_text(text: str) -> bool:
    """Whether ``text`` looks like a wildcard dictionary: its first line that is not a comment is 64 marks.

    >>> is_wildcard_text("# a comment\\n" + "X" + "." * 63 + "\\n"), is_wildcard_text("---\\n 0\\n")
    (True, False)
    """
    for raw in text.splitlines():
        line = raw.strip()
        if line and not line.startswith(COMMENT):
            return len(line) == 64 and all(ch in MARKS for ch in line)
    return False


def parse_line(raw: str, number: int, source: str = "<text>") -> WildcardLine:
    """One 64-character record; a bad one raises :class:`DataFormatError` naming the line and the fault.

    >>> parse_line("x" * 64, 7, "w.txt")
    Traceback (most recent call last):
    ...
    qubic_logic.errors.DataFormatError: w.txt line 7: no X (X's move); expected exactly one upper-case X
    """
    where = f"{source} line {number}"
    line = raw.strip()
    if len(line) != 64:
        raise DataFormatError(f"{where}: {len(line)} characters ({shown(line)}); expected 64, one per cell "
                              "(x, o, X, O, . or -)")
    bad = next((i for i, ch in enumerate(line) if ch not in MARKS), None)
    if bad is not None:
        raise DataFormatError(f"{where}: character {bad + 1} is {line[bad]!r}; expected x, o, X (X's move), "
                              "O (a wildcard), . or - (empty)")
    masks = dict.fromkeys("xoXO", 0)
    for i, ch in enumerate(line):
        if ch in masks:
            masks[ch] |= 1 << i
    if masks["X"].bit_count() != 1:
        raise DataFormatError(f"{where}: {'no X' if not masks['X'] else str(masks['X'].bit_count()) + ' X'} "
                              "(X's move); expected exactly one upper-case X")
    result = WildcardLine(masks["x"], masks["o"], masks["O"], masks["X"].bit_length() - 1, number)
    nx, no = result.x.bit_count(), result.o.bit_count() + (1 if result.wild else 0)
    if nx != no:
        raise DataFormatError(f"{where}: {nx} x marks and {no} o marks{' (one wildcard counted)' if result.wild else ''}"
                              "; expected X to move: as many x marks as o marks")
    try:
        positions = result.positions()
    except QubicError as exc:
        raise DataFormatError(f"{where}: {exc}") from None
    if any(p.is_over for p in positions):
        raise DataFormatError(f"{where}: a position of the line is already won; expected live positions")
    return result


def read_lines(text: str, source: str = "<text>") -> tuple[list[str], list[WildcardLine]]:
    """The comment lines (without ``#``) and the records of a wildcard file."""
    header: list[str] = []
    records: list[WildcardLine] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith(COMMENT):
            header.append(line[1:].strip())
        else:
            records.append(parse_line(line, number, source))
    return header, records


def parse_wildcard(text: str, source: str = "<text>") -> StrategyDictionary:
    """The dictionary a wildcard file stands for; two lines giving equivalent positions are an error."""
    header, records = read_lines(text, source)
    result = StrategyDictionary((), header)
    for record in records:
        for entry in record.entries():
            try:
                result.add(entry)
            except DataFormatError as exc:
                raise DataFormatError(f"{source} {exc}") from None
    return result



def x_entries(dictionary: Iterable[Entry]) -> Iterator[Entry]:
    """The entries, each checked to have X to move (the format holds X's moves only)."""
    for entry in dictionary:
        if entry.position.to_move != "x":
            raise QubicError(f"the entry {entry.text()!r} has O to move; the wildcard format holds X's moves only")
        yield entry


def dumps_wildcard(lines: Iterable[WildcardLine], header: Iterable[str] = ()) -> str:
    """The file text: each header line as a comment (kept to its line), then the records."""
    return "".join(f"# {line_safe(h)}\n" if h else "#\n" for h in header) + "".join(f"{line.text()}\n" for line in lines)


def save_wildcard(path: str | os.PathLike, lines: Iterable[WildcardLine], header: Iterable[str] = ()) -> None:
    """Write a wildcard file atomically."""
    write_atomically(path, dumps_wildcard(lines, header))
