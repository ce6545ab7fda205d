"""Players: a game in, a legal move out, with an explanation.

Every module of this package registers its players with
:func:`~qubic_logic.players.base.register`; :func:`get_player` builds one by
name, so ``--x NAME --o NAME`` works everywhere.

>>> from qubic_logic.position import Game
>>> get_player('random', seed=1).choose(Game()).cell in range(64)
True
"""

from __future__ import annotations

import importlib
import pkgutil

from .base import REGISTRY, Move, Player, get_player, player_names, register
from .spec import make_player, parse_spec

for _info in pkgutil.iter_modules(__path__):
    if _info.name not in ("base", "spec"):
        importlib.import_module(f"{__name__}.{_info.name}")

__all__ = ["REGISTRY", "Move", "Player", "get_player", "make_player", "parse_spec", "player_names", "register"]
