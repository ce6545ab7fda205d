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
from .dictionary import Entry, Lines, StrategyDictionary, check_size, text_lines

MARKS = {"x": "x", "o": "o", ".": ".", "-": ".", "X": "X", "O": "O"}
_MARK_SET = frozenset(MARKS)
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


def looks_like_record(line: str) -> bool:
    """Whether ``line`` (stripped) is meant as a wildcard record, good or bad: 64 characters, three in four of
    them marks, or at least 32 characters all marks. A header line of prose is neither, and a line of
    dashes only is Patashnik's separator.

    >>> looks_like_record("x" + "." * 62 + "y"), looks_like_record("x" * 40), looks_like_record("-" * 64)
    (True, True, False)
    >>> looks_like_record("automorphisms of the Qubic board---Roland Silver's 1967 article,")
    False
    """
    if not line.strip("-"):
        return False
    marks = sum(ch in MARKS for ch in line)
    return (len(line) == 64 and 4 * marks >= 3 * 64) or (len(line) >= 32 and marks == len(line))


_BITS = {mark: str.maketrans({ch: "1" if ch == mark else "0" for ch in MARKS}) for mark in "xoXO"}


def _parse(line: str, number: int, source: str) -> tuple[WildcardLine, list[Position]]:
    """A stripped record and the positions it stands for; see :func:`parse_line`."""
    where = f"{source} line {number}"
    if len(line) != 64:
        raise DataFormatError(f"{where}: {len(line)} characters ({shown(line)}); expected 64, one per cell "
                              "(x, o, X, O, . or -)")
    if not _MARK_SET.issuperset(line):
        bad = next(i for i, ch in enumerate(line) if ch not in MARKS)
        raise DataFormatError(f"{where}: character {bad + 1} is {line[bad]!r}; expected x, o, X (X's move), "
                              "O (a wildcard), . or - (empty)")
    x, o, move, wild = (int(line.translate(_BITS[mark])[::-1], 2) for mark in "xoXO")
    if move.bit_count() != 1:
        raise DataFormatError(f"{where}: {'no X' if not move else str(move.bit_count()) + ' X'} "
                              "(X's move); expected exactly one upper-case X")
    result = WildcardLine(x, o, wild, move.bit_length() - 1, number)
    nx, no = x.bit_count(), o.bit_count() + (1 if wild else 0)
    if nx != no:
        raise DataFormatError(f"{where}: {nx} x marks and {no} o marks{' (one wildcard counted)' if wild else ''}"
                              "; expected X to move: as many x marks as o marks")
    try:
        positions = result.positions()
    except QubicError as exc:
        raise DataFormatError(f"{where}: {exc}") from None
    if any(p.is_over for p in positions):
        raise DataFormatError(f"{where}: a position of the line is already won; expected live positions")
    return result, positions


def parse_line(raw: str, number: int, source: str = "<text>") -> WildcardLine:
    """One 64-character record; a bad one raises :class:`DataFormatError` naming the line and the fault.

    >>> parse_line("x" * 64, 7, "w.txt")
    Traceback (most recent call last):
    ...
    qubic_logic.errors.DataFormatError: w.txt line 7: no X (X's move); expected exactly one upper-case X
    """
    return _parse(raw.strip(), number, source)[0]


def read_wildcard(lines: Lines, source: str = "<text>") -> StrategyDictionary:
    """The dictionary of a wildcard file's numbered lines (:func:`~.dictionary.text_lines`,
    :class:`~.dictionary.FileLines`), at most :data:`~.dictionary.MAX_POSITIONS` positions; two lines
    giving equivalent positions are an error."""
    header: list[str] = []
    result = StrategyDictionary(())
    for number, raw in lines:
        line = raw.strip()
        if not line:
            continue
        if line.startswith(COMMENT):
            header.append(line[1:].strip())
            continue
        record, positions = _parse(line, number, source)
        for position in positions:
            try:
                result.add(Entry(position, record.move, number))
            except DataFormatError as exc:
                raise DataFormatError(f"{source} {exc}") from None
        check_size(result, source, number)
    result.header = header
    return result


def parse_wildcard(text: str, source: str = "<text>") -> StrategyDictionary:
    """The dictionary a wildcard file's text stands for (see :func:`read_wildcard`)."""
    return read_wildcard(text_lines(text), source)


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
