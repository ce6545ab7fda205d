"""Player specs: ``NAME`` or ``NAME:key=value,...``, as ``--x``, ``--o`` and ``player:`` sources write them.

:func:`make_player` builds the player of a spec from the registry
(:func:`~qubic_logic.players.base.get_player`), checking each option against
the player's constructor.

>>> parse_spec('mccarthy:depth=2')
('mccarthy', {'depth': 2})
"""

from __future__ import annotations

import inspect

from ..errors import QubicError
from ..notation import shown
from .base import REGISTRY, Player, get_player


def parse_spec(spec: str) -> tuple[str, dict]:
    """A player spec ``NAME`` or ``NAME:key=value,...`` as a name and constructor options.

    Values are read as int, float, or else kept as text.

    >>> parse_spec('mccarthy:depth=3'), parse_spec('solver:time_limit=0.5,budget=2')
    (('mccarthy', {'depth': 3}), ('solver', {'time_limit': 0.5, 'budget': 2}))
    """
    name, _, rest = spec.partition(":")
    options: dict = {}
    for item in filter(None, rest.split(",")):
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise QubicError(f"player option {shown(item)} in {shown(spec)} is not key=value; "
                             "expected e.g. mccarthy:depth=3")
        options[key] = _value(value)
    return name, options


def _value(text: str) -> int | float | str:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def make_player(spec: str, seed: int | None = None) -> Player:
    """Build the player of a spec; ``seed`` goes to players that take one (unless the spec sets it).

    >>> make_player('mccarthy:depth=1').search.depth
    1
    """
    name, options = parse_spec(spec)
    factory = REGISTRY[name][0] if name in REGISTRY else None
    if factory is not None:
        params = inspect.signature(factory).parameters
        for key, value in options.items():
            _check_option(name, key, value, params)
        if seed is not None and "seed" in params:
            options.setdefault("seed", seed)
    return get_player(name, **options)


def _check_option(player: str, key: str, value: object, params) -> None:
    """An option of ``player`` must be one its constructor takes, of the type it declares.

    >>> make_player('mccarthy:depth=abc')
    Traceback (most recent call last):
    ...
    qubic_logic.errors.QubicError: player option depth=abc of mccarthy: expected a whole number
    """
    if key not in params or key == "self":
        known = ", ".join(k for k in params if k != "self") or "none"
        raise QubicError(f"player {player!r} has no option {shown(key)}; its options: {known}")
    declared = str(params[key].annotation)
    text = str(value) if len(str(value)) <= 30 else shown(str(value), 30)
    if "int" in declared and "float" not in declared and not isinstance(value, int):
        raise QubicError(f"player option {key}={text} of {player}: expected a whole number")
    if "float" in declared and not isinstance(value, (int, float)):
        raise QubicError(f"player option {key}={text} of {player}: expected a number")
    if isinstance(value, (int, float)) and not 0 <= value <= 10**9:
        raise QubicError(f"player option {key}={text} of {player}: expected a number from 0 to 1e9")
