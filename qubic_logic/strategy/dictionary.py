"""Strategy dictionaries in Patashnik's format: read, write, look up up to symmetry.

A dictionary file is free header text, a line of dashes, then one entry
per line: a position as a run-length string (``x`` and ``o`` marks in cell
order, digits for runs of empty cells, trailing empty cells omitted), one
space, and the strategic move (0..63) of the side to move. Lookup is up to
the 192 automorphisms: the query is brought to canonical form, the entry
found there, and its move mapped back through the inverse transform.

>>> d = StrategyDictionary.parse("my strategy\\n---\\nxo 5\\n")
>>> from qubic_logic.notation import parse_patashnik
>>> d.move_for(parse_patashnik('xo'))
5
>>> d.move_for(parse_patashnik('ox')) is None     # X on an edge cell, not a corner
True
>>> d.move_for(parse_patashnik('2ox'))            # the mirror image x -> 3 - x
6
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Callable, Iterable, Iterator

from ..errors import DataFormatError, QubicError, QueryTimeout
from ..saving import line_safe, write_atomically
from ..notation import format_patashnik, parse_patashnik, shown
from ..position import Position
from ..symmetry import INVERSES, TRANSFORMS, canonical_masks

_SEPARATOR = re.compile(r"-{3,}")
MAX_POSITIONS = 4_000_000  # positions a dictionary file may stand for (its memory stays bounded)
CHECK_EVERY = 4096  # lines read between looks at the clock
_ENTRY = re.compile(r"([xo0-9]*) ([0-9]+)")
PATASHNIK_FILE = "patashnik-qubic.dictionary"


@dataclass(frozen=True, slots=True)
class Entry:
    """One dictionary line: a position, its strategic move, and the line number (1-based)."""

    position: Position
    move: int
    line: int = 0

    def text(self) -> str:
        """The entry as written in the file, e.g. ``'xo1x8x8o41o 41'``."""
        return f"{format_patashnik(self.position)} {self.move}"



Lines = Iterable[tuple[int, str]]  # numbered lines (from 1), each without its line end


class NoSeparator(DataFormatError):
    """A text with no separator line of dashes: not in Patashnik's format."""


def text_lines(text: str) -> Iterator[tuple[int, str]]:
    """The numbered lines of a dictionary's text: a UTF-8 byte order mark dropped, lines ending in \\n or \\r\\n.

    >>> list(text_lines("\\ufeffhead\\r\\n---\\nxo 5\\n"))
    [(1, 'head'), (2, '---'), (3, 'xo 5')]
    """
    lines = text.removeprefix("\ufeff").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for number, line in enumerate(lines, start=1):
        yield number, line.removesuffix("\r")


class FileLines:
    """The numbered lines of a dictionary file, read as they are asked for (never the whole file at once).

    A UTF-8 byte order mark is dropped, a line may end in \\n or \\r\\n, and a byte that is not ASCII is
    an error naming its line and column. Every :data:`CHECK_EVERY` lines ``progress(bytes read, file
    size)`` is called and the clock read: past ``deadline`` (a ``time.monotonic()``) reading stops with
    :class:`~qubic_logic.errors.QueryTimeout`. ``number`` is the last line read.
    """

    def __init__(self, path: str | os.PathLike, deadline: float | None = None,
                 progress: Callable[[int, int], None] | None = None) -> None:
        self.path, self.deadline, self.progress = path, deadline, progress
        self.number = 0

    def __iter__(self) -> Iterator[tuple[int, str]]:
        try:
            handle = open(self.path, "rb")
        except OSError as exc:
            raise DataFormatError(f"cannot read dictionary {self.path}: {exc.strerror}") from None
        with handle:
            size, done = os.fstat(handle.fileno()).st_size, 0
            for raw in handle:
                self.number += 1
                done += len(raw)
                if self.number == 1:
                    raw = raw.removeprefix(b"\xef\xbb\xbf")
                raw = raw.removesuffix(b"\n").removesuffix(b"\r")
                try:
                    line = raw.decode("ascii")
                except UnicodeDecodeError as exc:
                    raise DataFormatError(f"{self.path} line {self.number}: character {exc.start + 1} is not ASCII "
                                          f"(byte 0x{raw[exc.start]:02x}); expected a dictionary in ASCII text") \
                        from None
                if self.number % CHECK_EVERY == 0:
                    self._look(done, size)
                yield self.number, line
            if self.progress:
                self.progress(done, size)

    def _look(self, done: int, size: int) -> None:
        if self.progress:
            self.progress(done, size)
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise QueryTimeout(f"{self.path}: the time limit came while reading it, at line {self.number:,} "
                               f"({done / max(size, 1):.0%} of the file)", partial={"lines": self.number})


class StrategyDictionary:
    """Strategic moves keyed by position up to the 192 automorphisms.

    ``header`` holds the lines above the dashed separator and ``separator``
    that line itself, so that writing a loaded file gives back its bytes.
    """

    def __init__(
        self, entries: Iterable[Entry], header: Iterable[str] = (), separator: str = "-" * 41
    ) -> None:
        self.header = list(header)
        self.separator = separator
        self.entries: list[Entry] = []
        self._table: dict[int, int] = {}  # canonical (x << 64 | o) -> entry index << 6 | move in that frame
        for entry in entries:
            self.add(entry)

    # ------------------------------------------------------------------ reading

    @classmethod
    def parse(cls, text: str, source: str = "<text>") -> "StrategyDictionary":
        """Read a dictionary from its text; ``source`` names it in error messages.

        >>> StrategyDictionary.parse("---\\nxo 7\\nxq 3\\n", "d.txt")
        Traceback (most recent call last):
        ...
        qubic_logic.errors.DataFormatError: d.txt line 3: 'xq 3' is not an entry; expected a \
Patashnik position, one space and a move 0..63, e.g. 'xo1x8x8o41o 41'
        """
        return cls.read(text_lines(text), source)

    @classmethod
    def read(cls, lines: Lines, source: str = "<text>") -> "StrategyDictionary":
        """A dictionary in Patashnik's format from its numbered lines (:func:`text_lines`,
        :class:`FileLines`), at most :data:`MAX_POSITIONS` entries; ``source`` names it in error messages."""
        lines = iter(lines)
        header: list[str] = []
        for _, line in lines:
            if _SEPARATOR.fullmatch(line):
                result = cls((), header, line)
                break
            header.append(line)
        else:
            raise NoSeparator(
                f"{source}: no separator line of dashes; expected header text, a line such as '-----', "
                "then one entry per line"
            )
        for number, line in lines:
            try:
                result.add(_parse_entry(line, number, source))
            except DataFormatError as exc:
                raise DataFormatError(f"{source} {exc}" if str(exc).startswith("line") else str(exc)) from None
            check_size(result, source, number)
        return result

    @classmethod
    def load(cls, path: str | os.PathLike) -> "StrategyDictionary":
        """Read a dictionary file in Patashnik's format (raises :class:`DataFormatError` naming the bad line)."""
        return cls.read(FileLines(path), str(path))

    @classmethod
    def union(cls, dictionaries: Iterable[Iterable[Entry]], header: Iterable[str] = ()) -> "StrategyDictionary":
        """Every entry of ``dictionaries``; where two name equivalent positions, the earlier one's move.

        >>> a, b = StrategyDictionary.parse("---\\nxo 5\\n"), StrategyDictionary.parse("---\\n2ox 6\\nx2o 7\\n")
        >>> [e.text() for e in StrategyDictionary.union([a, b])]
        ['xo 5', 'x2o 7']
        """
        result = cls((), header)
        for dictionary in dictionaries:
            for entry in dictionary:
                if entry.position not in result:
                    result.add(entry)
        return result

    @property
    def root(self) -> Position:
        """Where play starts: the position on a ``root:`` header line, else the empty board.

        >>> StrategyDictionary.parse("root: x14o\\n---\\n").root.count
        2
        """
        for line in self.header:
            if line.startswith("root:"):
                return read_position(line[5:].strip(), f"header line {shown(line)}")
        return Position()

    # ------------------------------------------------------------------ writing

    def dumps(self) -> str:
        """The file text: header (each line kept to its line), separator, entries, one per line."""
        lines = [*map(line_safe, self.header), self.separator, *(entry.text() for entry in self.entries)]
        return "\n".join(lines) + "\n"

    def save(self, path: str | os.PathLike) -> None:
        """Write the file atomically (a temporary file renamed over ``path``)."""
        write_atomically(path, self.dumps())

    # ------------------------------------------------------------------ lookup

    def add(self, entry: Entry) -> None:
        """Add an entry; a second entry for an equivalent position is an error."""
        cx, co, t = canonical_masks(entry.position.x, entry.position.o)
        key = cx << 64 | co
        if key in self._table:
            first = self.entries[self._table[key] >> 6]
            raise DataFormatError(
                f"{_where(entry)}position {format_patashnik(entry.position)} is equivalent to "
                f"{format_patashnik(first.position)} ({_where(first)[:-2] or 'an earlier entry'}); "
                "expected one entry per position up to symmetry"
            )
        self._table[key] = len(self.entries) << 6 | TRANSFORMS[t][entry.move]
        self.entries.append(entry)

    def lookup(self, position: Position) -> tuple[int, Entry] | None:
        """The move for ``position`` (mapped onto it) and the entry that gave it, or None."""
        cx, co, t = canonical_masks(position.x, position.o)
        found = self._table.get(cx << 64 | co)
        if found is None:
            return None
        return TRANSFORMS[INVERSES[t]][found & 63], self.entries[found >> 6]

    def move_for(self, position: Position) -> int | None:
        """The strategic move for ``position`` up to symmetry, or None when it has no entry."""
        found = self.lookup(position)
        return None if found is None else found[0]

    def __len__(self) -> int:
        return len(self.entries)

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries)

    def __contains__(self, position: object) -> bool:
        return isinstance(position, Position) and self.lookup(position) is not None


def check_size(dictionary: StrategyDictionary, source: str, number: int) -> None:
    """Stop reading a file (at line ``number``) that stands for more than :data:`MAX_POSITIONS` positions."""
    if len(dictionary) > MAX_POSITIONS:
        raise DataFormatError(f"{source} line {number:,}: more than {MAX_POSITIONS:,} positions; expected a "
                              f"dictionary of at most {MAX_POSITIONS:,}")


def _where(entry: Entry) -> str:
    return f"line {entry.line}: " if entry.line else ""


def read_position(text: str, where: str) -> Position:
    """A Patashnik position read from a data file; a bad one names the file and line.

    >>> read_position('x14o', 'f line 3').count
    2
    """
    try:
        return parse_patashnik(text)
    except QubicError as exc:
        raise DataFormatError(f"{where}: {exc}") from None


def _parse_entry(line: str, number: int, source: str) -> Entry:
    where = f"{source} line {number}"
    m = _ENTRY.fullmatch(line)
    if m is None:
        raise DataFormatError(
            f"{where}: {shown(line)} is not an entry; expected a Patashnik position, one space and a "
            "move 0..63, e.g. 'xo1x8x8o41o 41'"
        )
    position = read_position(m.group(1), where)
    if len(m.group(2)) > 2 or int(m.group(2)) > 63:  # (a 5,000-digit number is not even converted)
        digits = m.group(2)
        raise DataFormatError(f"{where}: move {digits if len(digits) <= 6 else shown(digits, 6)} is not a cell; "
                              "expected 0..63")
    move = int(m.group(2))
    if position.at(move) != ".":
        raise DataFormatError(f"{where}: move {move} is on an occupied cell; expected an empty cell")
    if position.is_over:
        raise DataFormatError(f"{where}: the game is already over in {m.group(1)!r}; expected a live position")
    return Entry(position, move, number)


def patashnik_path() -> Path:
    """Path of the shipped copy of Patashnik's dictionary (see ``qubic_logic/data/README.md``)."""
    return Path(str(files("qubic_logic") / "data" / PATASHNIK_FILE))


@cache
def patashnik_dictionary() -> StrategyDictionary:
    """Patashnik's 2,929 strategic moves for X (1977; Thompson's form, 1978), loaded once.

    >>> from qubic_logic.position import Position
    >>> len(patashnik_dictionary()), patashnik_dictionary().move_for(Position())
    (2929, 0)
    """
    return StrategyDictionary.load(patashnik_path())
