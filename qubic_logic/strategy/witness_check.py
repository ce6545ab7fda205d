"""Re-check forced-win witnesses independently: declarative rules or the Python referee.

``rules/witness.lp`` (clingo) and ``rules/witness.pl`` (SWI-Prolog) state
docs/design.md §3 as rules over a position and a witness sequence; many
witnesses go to one solver call. ``referee`` replays each witness in
:func:`qubic_logic.referee.replay_forced_win`. This is the second checker
McCarthy asked of Patashnik's proof (computed 1977, published 1980).

>>> from qubic_logic.position import Position
>>> ok = Witness(Position.from_cells([0, 16, 1, 17, 2, 18]), (3,))
>>> bad = Witness(Position.from_cells([0, 16, 1, 17, 2, 18]), (4,))
>>> check_witnesses([ok, bad], 'asp')
[(1, 1, 'must_complete_four')]
>>> check_witnesses([ok, bad], 'prolog')
[(1, 1, 'must_complete_four')]
"""

from __future__ import annotations

import re
import time
from typing import Callable, Sequence

from ..errors import IllegalMoveError, Interrupted, QubicError, QueryTimeout
from ..executor import make_executor
from ..geometry import cells_of
from ..position import other
from ..referee import replay_forced_win
from ..supervisor import DEFAULT_MEMORY_MB
from .verify import Witness

CHECKERS = ("asp", "prolog", "referee")
_ERROR = re.compile(r"witness_error\((\d+),(\d+),(\w+)\)")
_OK = re.compile(r"witness_ok\((\d+)\)")


def _masks(w: Witness) -> tuple[int, int]:
    side = w.position.to_move
    return w.position.mask(side), w.position.mask(other(side))


def _check_asp(batch: Sequence[Witness], time_limit: float | None) -> list[tuple[int, int, str]]:
    from ..engines.asp import solve

    facts = []
    for i, w in enumerate(batch):
        a, d = _masks(w)
        facts += [f"att({i},{c})." for c in cells_of(a)]
        facts += [f"def({i},{c})." for c in cells_of(d)]
        facts += [f"move({i},{k},{c})." for k, c in enumerate(w.sequence, start=1)]
    result = solve("\n".join(facts), rules=("geometry", "witness"), time_limit=time_limit)
    atoms = result.atoms[0]
    errors: dict[int, tuple[int, str]] = {}
    for m in map(_ERROR.fullmatch, atoms):
        if m:
            p, step = int(m.group(1)), int(m.group(2))
            errors[p] = min(errors.get(p, (step, m.group(3))), (step, m.group(3)))
    decided = {int(m.group(1)) for m in map(_OK.fullmatch, atoms) if m} | set(errors)
    if len(decided) != len(batch):
        raise QubicError(f"witness.lp decided {len(decided)} of {len(batch)} witnesses; expected all")
    return [(p, *errors[p]) for p in sorted(errors)]


def _check_prolog(batch: Sequence[Witness], time_limit: float | None) -> list[tuple[int, int, str]]:
    from ..engines.prolog import query
    from ..engines.rulefiles import rule_path

    problems = ",".join(
        f"w({i},{a},{d},{list(w.sequence)})" for i, w in enumerate(batch) for a, d in [_masks(w)]
    )
    (answer,) = query(f"witness:check_witnesses([{problems}], Errors)", [rule_path("witness", "pl")],
                      time_limit=time_limit)
    return [(int(p), int(step), str(reason)) for p, step, reason in answer["Errors"]]


def _check_referee(batch: Sequence[Witness], time_limit: float | None) -> list[tuple[int, int, str]]:
    out = []
    for i, w in enumerate(batch):
        try:
            replay_forced_win(w.position, w.sequence)
        except IllegalMoveError as exc:
            out.append((i, 0, str(exc)))
    return out


_RUN = {"asp": _check_asp, "prolog": _check_prolog, "referee": _check_referee}


def check_batch(checker: str, batch: Sequence[Witness], time_limit: float | None) -> list[tuple[int, int, str]]:
    """One solver call over ``batch``: the rejected ``(index in batch, step, reason)``."""
    return _RUN[checker](batch, time_limit)


def check_unit(unit: tuple[str, Sequence[Witness], float | None]) -> list[tuple[int, int, str]]:
    """A work unit ``(checker, batch, time limit)`` for :func:`check_batch`."""
    return check_batch(*unit)


def check_witnesses(
    witnesses: Sequence[Witness],
    checker: str,
    *,
    batch: int = 2000,
    jobs: int = 1,
    time_limit: float | None = None,
    progress: Callable[[str, int, int], None] | None = None,
    memory_limit: float | None = DEFAULT_MEMORY_MB,
) -> list[tuple[int, int, str]]:
    """Witnesses the ``checker`` rejects, as ``(index, step, reason)`` (empty: all pass).

    Batches of ``batch`` witnesses go to up to ``jobs`` supervised worker
    processes (fresh interpreters, each with its own solver, at most
    ``memory_limit`` MB each); the referee runs here. Raises
    :class:`QueryTimeout` past ``time_limit`` seconds for the whole check,
    :class:`~qubic_logic.errors.Interrupted` on Ctrl-C, each with what was checked.
    """
    if checker not in _RUN:
        raise QubicError(f"unknown checker {checker!r}; expected one of {', '.join(CHECKERS)}")
    deadline = time.monotonic() + time_limit if time_limit else None
    rejected: list[tuple[int, int, str]] = []
    over = {i: w.position.winner for i, w in enumerate(witnesses) if w.position.winner}
    if over:  # a line whose game is already over is no forced win: no checker is asked about it
        rejected += [(i, 0, f"the game is over: {side.upper()} already has four in a row")
                     for i, side in over.items()]
        index = [i for i in range(len(witnesses)) if i not in over]
        rest = check_witnesses([witnesses[i] for i in index], checker, batch=batch, jobs=jobs,
                               time_limit=time_limit, progress=progress, memory_limit=memory_limit)
        return sorted(rejected + [(index[i], step, reason) for i, step, reason in rest])
    starts = list(range(0, len(witnesses), batch))
    done = 0

    def left() -> float | None:
        if deadline is None:
            return None
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise QueryTimeout(f"{checker}: {done} of {len(witnesses)} witnesses checked within "
                               f"{time_limit} s", partial={"checked": done, "rejected": sorted(rejected)})
        return remaining

    def collect(start: int, found: list[tuple[int, int, str]]) -> None:
        nonlocal done
        rejected.extend((start + i, step, reason) for i, step, reason in found)
        done += len(witnesses[start : start + batch])
        if progress:
            progress(f"check with {checker}", done, len(witnesses))

    if checker == "referee":  # Python: stops on Ctrl-C by itself
        try:
            for start in starts:
                collect(start, check_batch(checker, witnesses[start : start + batch], left()))
        except KeyboardInterrupt:
            raise Interrupted(f"{checker}: {done} of {len(witnesses)} witnesses checked",
                              partial={"checked": done, "rejected": sorted(rejected)}) from None
    else:
        # clingo and SWI-Prolog run in supervised workers (fresh interpreters, each with its own solver):
        # the time limit, Ctrl-C and the memory limit stop them at once, whatever they are doing
        with make_executor("local", min(jobs, len(starts)), start_method="spawn",
                           memory_limit=memory_limit) as executor:
            run = executor.run(check_unit, [(checker, witnesses[s : s + batch], time_limit) for s in starts],
                               time_limit=time_limit)
            for i, found in run:
                collect(starts[i], found)
        if run.stopped == "time limit":
            left()  # raises QueryTimeout with what was checked
        if run.stopped:
            raise Interrupted(f"{checker}: {done} of {len(witnesses)} witnesses checked",
                              partial={"checked": done, "rejected": sorted(rejected)})
    return sorted(rejected)
