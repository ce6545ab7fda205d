"""Griffe extension for the API reference: docstrings are written for ``pydoc`` and doctest.

Their ``>>>`` examples become fenced ``pycon`` blocks (not Markdown block quotes) and their
reStructuredText markup (``:func:`name```, double backticks) becomes Markdown code spans.
"""

from __future__ import annotations

import re

import griffe

ROLE = re.compile(r":(?:func|class|meth|mod|data|attr|exc|obj):`~?([^`]+)`")
LITERAL = re.compile(r"``(.+?)``")


def markdown_docstring(text: str) -> str:
    """The docstring ``text`` with its doctest blocks fenced and its RST markup made Markdown.

    >>> markdown_docstring('Sum:\\n' + '>' * 3 + ' 1 + 1\\n2\\n\\nSee :func:`add` and ``x``.').splitlines()
    ['Sum:', '```pycon', '>>> 1 + 1', '2', '```', '', 'See `add` and `x`.']
    """
    out: list[str] = []
    fence: str | None = None  # the indentation of the open pycon block
    for line in text.splitlines():
        stripped = line.lstrip()
        indent = line[: len(line) - len(stripped)]
        if fence is None and stripped.startswith(">>>"):
            fence = indent
            out.append(f"{indent}```pycon")
        elif fence is not None and not stripped:
            out.append(f"{fence}```")
            fence = None
        if fence is None:
            line = LITERAL.sub(r"`\1`", ROLE.sub(r"`\1`", line))
        out.append(line)
    if fence is not None:
        out.append(f"{fence}```")
    return "\n".join(out)


class DoctestBlocks(griffe.Extension):
    """Rewrites every loaded object's docstring with :func:`markdown_docstring`."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: object) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown_docstring(obj.docstring.value)
