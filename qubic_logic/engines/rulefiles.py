"""Where the project's rule files are, and positions written as rule facts.

Rule names are paths inside ``rules/`` without the extension
(``'geometry'``, ``'claims/seed003'``); the extension picks the language.

>>> rule_path('geometry', 'lp').name
'geometry.lp'
>>> from qubic_logic.position import Position
>>> position_facts(Position(1, 2))
'x(0). o(1).'
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from ..errors import RuleError
from ..geometry import cells_of
from ..position import Position

#: The rules every query loads, in order.
CORE_RULES: tuple[str, ...] = ("geometry", "threats", "forcing")


def rule_path(name: str, ext: str) -> Path:
    """The file of rule ``name`` in the language of ``ext`` (``'lp'`` or ``'pl'``)."""
    path = Path(str(files("qubic_logic.rules").joinpath(f"{name}.{ext}")))
    if not path.is_file():
        raise RuleError(f"no rule file {name}.{ext} in {path.parent}; expected one of the shipped rules")
    return path


def position_facts(position: Position) -> str:
    """The facts ``x(C).`` and ``o(C).`` of a position (the same text in ASP and Prolog)."""
    return " ".join([*(f"x({c})." for c in cells_of(position.x)), *(f"o({c})." for c in cells_of(position.o))])
