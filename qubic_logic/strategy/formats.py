"""Read a dictionary in either format and write it in any of four: Patashnik's, wildcard, ASP, Prolog.

A source is a file path, read in the format its first line shows (lines that
are blank or start with ``#`` aside): a line of dashes is Patashnik's
separator, a record of 64 marks (or one meant as such, see
:func:`~.wildcard.looks_like_record`) O'Dwyer's wildcard format, other text
the header of Patashnik's format; or a path forced to one format with a
prefix: ``wildcard:FILE`` or ``patashnik:FILE``. The file is read line by
line (never whole), under a deadline, with progress; a UTF-8 byte order mark
and ``\r\n`` line ends are taken, a byte that is not ASCII is named by line and
column, and a file may stand for at most
:data:`~.dictionary.MAX_POSITIONS` positions.

>>> convert_text(StrategyDictionary.parse("---\\nx1o 5\\nx2o 5\\n"), "wildcard").splitlines()[-1][:8]
'x.OO.X..'
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterator
from pathlib import Path

from ..errors import DataFormatError, Interrupted, QubicError
from ..saving import write_atomically
from ..notation import shown
from .dictionary import FileLines, NoSeparator, StrategyDictionary
from .compress import merged_lines
from ..shipped import resolve_dictionary
from .wildcard import COMMENT, dumps_wildcard, looks_like_record, read_wildcard

FORMATS = ("patashnik", "wildcard", "asp", "prolog")
PREFIXES = ("wildcard:", "patashnik:")


def read_dictionary(source: str | os.PathLike, *, deadline: float | None = None,
                    progress: Callable[[int, int], None] | None = None) -> StrategyDictionary:
    """The dictionary of a file in Patashnik's or the wildcard format (detected, or forced by a prefix),
    or of a shipped dictionary named (``patashnik``, ``qubic-logic-solved``, ``qubic-logic-lines``,
    ``qubic-logic-smallest``).

    Past ``deadline`` (a ``time.monotonic()``) reading stops with :class:`~qubic_logic.errors.QueryTimeout`,
    on Ctrl-C with :class:`~qubic_logic.errors.Interrupted`, both naming the line reached; ``progress(bytes
    read, file size)`` is called as it goes.
    """
    text_source = str(source)
    forced = next((p[:-1] for p in PREFIXES if text_source.startswith(p)), None)
    path = Path(resolve_dictionary(text_source[len(forced) + 1:] if forced else text_source))
    lines = FileLines(path, deadline, progress)
    try:
        return _read(iter(lines), forced, str(path))
    except KeyboardInterrupt:
        raise Interrupted(f"reading {path} was stopped at line {lines.number:,}") from None


def _read(lines: Iterator[tuple[int, str]], forced: str | None, source: str) -> StrategyDictionary:
    """The dictionary of the numbered ``lines``, in the format ``forced`` or the one its first line shows."""
    first = []
    for number, line in lines:
        first.append((number, line))
        text = line.strip()
        if text and not text.startswith(COMMENT):
            break
    else:
        text = ""
    stream = itertools.chain(first, lines)
    wildcard = forced == "wildcard" if forced else looks_like_record(text)
    if wildcard:
        return read_wildcard(stream, source)
    try:
        return StrategyDictionary.read(stream, source)
    except NoSeparator:
        if forced:
            raise
        where = f"line {first[-1][0]} ({shown(text)})" if text else "no line"
        raise DataFormatError(f"{source}: not a dictionary: no separator line of dashes (Patashnik's format: "
                              f"header, a line such as '-----', entries), and {where} is not a 64-character "
                              "wildcard record (O'Dwyer's format); expected a dictionary in one of the two") \
            from None


def convert_text(dictionary: StrategyDictionary, to: str, name: str = "the dictionary",
                 file: str | None = None) -> str:
    """The dictionary written in format ``to``: ``patashnik`` (entries as they are), ``wildcard`` (the
    entries merged in their own orientation), ``asp`` or ``prolog`` (compressed, as rules, to be written
    to ``file``)."""
    if to == "patashnik":
        return dictionary.dumps()
    if to == "wildcard":
        return dumps_wildcard(merged_lines(dictionary), dictionary.header)
    if to in ("asp", "prolog"):
        from .compress import compressed
        from .rules import strategy_rules

        return strategy_rules(compressed(dictionary), to, dictionary, name, file)
    raise QubicError(f"unknown format {to!r}; expected one of {', '.join(FORMATS)}")


def convert(source: str, out: str | os.PathLike, to: str) -> StrategyDictionary:
    """Read ``source`` and write it to ``out`` in format ``to`` (atomically); returns what was read."""
    dictionary = read_dictionary(source)
    write_atomically(out, convert_text(dictionary, to, str(source), os.fspath(out)))
    return dictionary
