"""Doake's 1972 "Score 4" learning program (seed 001) as a player and a learner.

:mod:`.board` lines and sums, :mod:`.tables` TEST/SUTEST/AJUST,
:mod:`.search` SEARCH and SUGOAL (in C: solvers/doake.c), :mod:`.select` move selection,
:mod:`.backtrack` the learning analysis, :mod:`.store` the SQLite brain,
:mod:`.player` the registered ``doake`` player, :mod:`.train` training and
evaluation.
"""

from .player import DoakePlayer

__all__ = ["DoakePlayer"]
