"""One query interface over every engine: ``asp``, ``prolog``, ``native``, ``python``, ``auto``.

``get_engine(name)`` returns an :class:`~qubic_logic.engines.base.Engine`;
``auto`` is the native core when it is built, else the pure-Python core.
All engines return the same result types and agree on every answer (tests
hold them to it); the ``engine`` field of a :class:`~qubic_logic.core.ForcedWin`
says which one ran.

Low-level access for other parts of the project:
:func:`qubic_logic.engines.asp.solve` runs an ASP program and returns its
models; :func:`qubic_logic.engines.prolog.query` runs a Prolog goal and
returns its bindings. Both take a time limit.

>>> from qubic_logic.notation import parse_position
>>> get_engine('python').shortest_forced_win(parse_position('1-2,22-52,27-4')).length
6
>>> get_engine('asp').shortest_forced_win(parse_position('1-2,22-52,27-4')).length
6
"""

from __future__ import annotations

from ..errors import EngineUnavailableError
from .base import Engine, RelatedPair, related_pairs_of

ENGINE_NAMES: tuple[str, ...] = ("asp", "prolog", "native", "python", "auto")

_ENGINES: dict[str, Engine] = {}


def get_engine(name: str = "auto") -> Engine:
    """The engine called ``name`` (one of :data:`ENGINE_NAMES`), created once.

    Raises :class:`~qubic_logic.errors.EngineUnavailableError` for an unknown
    name, an unbuilt native core or a missing SWI-Prolog.
    """
    if name not in ENGINE_NAMES:
        raise EngineUnavailableError(f"unknown engine {name!r}; expected one of {', '.join(ENGINE_NAMES)}")
    if name not in _ENGINES:
        if name == "asp":
            from .asp import AspEngine

            _ENGINES[name] = AspEngine()
        elif name == "prolog":
            from .prolog import PrologEngine

            _ENGINES[name] = PrologEngine()
        else:
            from .corebased import CoreEngine

            _ENGINES[name] = CoreEngine(name)
    return _ENGINES[name]


__all__ = ["ENGINE_NAMES", "Engine", "RelatedPair", "get_engine", "related_pairs_of"]
