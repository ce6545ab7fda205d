"""The opening book: proven values and verified strategies for every position up to N stones.

Build one with :func:`build_book` (or ``qubic book build``), query it with
:class:`OpeningBook` (``lookup``), check every stored strategy with
:func:`verify_book`. See docs/book.md.
"""

from .build import BookTree, BuildReport, build_book
from .classes import children
from .store import Answer, BookEntry, OpeningBook

__all__ = ["Answer", "BookEntry", "BookTree", "BuildReport", "OpeningBook", "build_book", "children"]
