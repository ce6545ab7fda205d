"""Read a dictionary in either format and write it in any of four: Patashnik's, wildcard, ASP, Prolog.

A source is a file path, read in the format its text shows (a first line
of 64 marks is O'Dwyer's wildcard format, anything else Patashnik's), or a
path forced to one format with a prefix: ``wildcard:FILE`` or
``patashnik:FILE``.

>>> convert_text(StrategyDictionary.parse("---\\nx1o 5\\nx2o 5\\n"), "wildcard").splitlines()[-1][:8]
'x.OO.X..'
"""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import QubicError
from ..saving import write_atomically
from .dictionary import StrategyDictionary, read_text
from .compress import merged_lines
from ..shipped import resolve_dictionary
from .wildcard import dumps_wildcard, is_wildcard_text, parse_wildcard

FORMATS = ("patashnik", "wildcard", "asp", "prolog")
PREFIXES = ("wildcard:", "patashnik:")


def read_dictionary(source: str | os.PathLike) -> StrategyDictionary:
    """The dictionary of a file in Patashnik's or the wildcard format (detected, or forced by a prefix),
    or of a shipped dictionary named (``patashnik``, ``qubic-logic-solved``)."""
    text_source = str(source)
    forced = next((p[:-1] for p in PREFIXES if text_source.startswith(p)), None)
    path = Path(resolve_dictionary(text_source[len(forced) + 1:] if forced else text_source))
    text = read_text(path)
    wildcard = forced == "wildcard" if forced else is_wildcard_text(text)
    return parse_wildcard(text, str(path)) if wildcard else StrategyDictionary.parse(text, str(path))


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
