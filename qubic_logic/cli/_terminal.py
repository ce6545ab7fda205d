"""Output that fits the terminal: lines wrap at words to its width; piped output is never wrapped.

Every line a subcommand prints goes through :func:`say` (plain text) or a
:func:`console` (rich): in a terminal a line longer than the window wraps
between words, the continuation indented two spaces past the line's own
indent; written to a pipe or a file, each line stays whole, for ``grep`` and
scripts.

>>> print(fit("  a line of several words to wrap", 16))
  a line of
    several
    words to
    wrap
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import textwrap
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from rich.console import Console


def width_of(stream: TextIO) -> int | None:
    """The terminal's width if ``stream`` is a terminal, else None (no wrapping).

    The terminal's own size comes first: ``COLUMNS`` is only a fallback, as a
    line-editing library may have set it before the window took its size.
    """
    try:
        if not stream.isatty():
            return None
        return os.get_terminal_size(stream.fileno()).columns or shutil.get_terminal_size().columns
    except (AttributeError, ValueError, OSError):
        return None


def fit(text: str, width: int | None, hang: int | None = None) -> str:
    """``text`` with each line longer than ``width`` wrapped between words (None: unchanged),
    continuation lines indented ``hang`` columns (default: two past the line's own indent).

    A word longer than the whole width stays whole on a line of its own.

    >>> print(fit("name  a description in words", 20, hang=6))
    name  a description
          in words
    """
    if width is None:
        return text
    out = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip())]
        more = indent + "  " if hang is None else " " * hang
        out.extend(textwrap.wrap(line.strip(), width, initial_indent=indent, subsequent_indent=more,
                                 break_long_words=False, break_on_hyphens=False) or [line])
    return "\n".join(out)


def say(*parts: object, sep: str = " ", end: str = "\n", file: TextIO | None = None,
        hang: int | None = None, flush: bool = False) -> None:
    """``print`` that fits the terminal (see the module docstring and :func:`fit`)."""
    stream = file if file is not None else sys.stdout
    stream.write(fit(sep.join(map(str, parts)), width_of(stream), hang) + end)
    if flush:
        stream.flush()


def plain(doc: str) -> str:
    """A docstring as plain text for ``--help``: its first line (the module's title) dropped,
    reStructuredText literals and roles unwrapped.

    >>> plain('``qubic x``: title.\\n\\nRead :mod:`~qubic_logic.notation`, ``rules``; see::')
    'Read qubic_logic.notation, rules; see:'
    """
    body = doc.split("\n\n", 1)[1] if "\n\n" in doc else doc
    body = re.sub(r":\w+:`~?([^`]+)`", r"\1", body)
    return body.replace("``", "").replace("::", ":").strip()


def console(stderr: bool = False, **options) -> Console:
    """A rich console that wraps at words in a terminal and never wraps piped output."""
    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    width = width_of(stream)
    return Console(stderr=stderr, highlight=False, soft_wrap=width is None, width=width, **options)
