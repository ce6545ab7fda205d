"""The Prolog engine: SWI-Prolog (through pyswip) over ``rules/*.pl``, and :func:`query` for any goal.

pyswip keeps one global Prolog database per process. This module loads the
project's rules into it once, replaces the position facts ``x/1``, ``o/1``
before each query, runs every goal to completion inside Prolog (so no query
stays open) and serialises all calls with a lock, so several Python threads
may use it.

:func:`query` is the low-level entry other parts use: it runs a goal (text)
over the project's rules plus any files, for a position, under a time limit,
and returns one dict of variable bindings per solution.

>>> from qubic_logic.notation import parse_position
>>> query('major_cell(x, C)', position=parse_position('moves:1,63,2,42,4,57,8'))
[{'C': 0}]
>>> query('line_cells(L, 0, 21, 42, 63)')
[{'L': 6}]
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..core import ForcedWin, Threats
from ..errors import EngineUnavailableError, QueryTimeout, RuleError
from ..geometry import cells_of, mask_of
from ..position import Position, Side
from .base import Engine, RelatedPair
from .rulefiles import CORE_RULES, rule_path

INSTALL_HINT = "install SWI-Prolog with `apt-get install swi-prolog-nox` (Debian/Ubuntu)"

_LOCK = threading.RLock()
_prolog: Any = None
_home_thread: int | None = None  # the thread that started SWI-Prolog


def quote(text: str) -> str:
    """``text`` as a Prolog string literal (SWI-Prolog also takes one as a file name)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _start() -> Any:
    """Import pyswip (starting SWI-Prolog) and load the project's rules, once."""
    global _prolog
    if _prolog is None:
        try:
            from pyswip import Prolog
        except Exception as exc:  # pyswip raises several kinds when libswipl is missing
            raise EngineUnavailableError(f"the prolog engine needs SWI-Prolog ({exc}); {INSTALL_HINT}") from None
        session = rule_path("session", "pl")
        list(Prolog.query(f"load_files(user:{quote(str(session))}, [if(not_loaded)])"))
        for name in CORE_RULES:
            _load(Prolog, rule_path(name, "pl"))
        _prolog = Prolog  # only once the rules loaded cleanly
        global _home_thread
        _home_thread = threading.get_ident()
    return _prolog


def _load(prolog: Any, path: Path) -> None:
    """Load a rule file (again, if it was loaded); errors become RuleError with file and line."""
    path = Path(path)
    if not path.is_file():
        raise RuleError(f"rule file {path} does not exist; expected a Prolog file (.pl)")
    (answer,) = list(prolog.query(f"session:qubic_load({quote(str(path.resolve()))}, Errors)"))
    errors = [_text(e) for e in answer["Errors"]]
    if errors:
        raise RuleError(f"Prolog rules do not load: {'; '.join(errors)}")


def _release_thread_engine() -> None:
    """Give back the Prolog engine pyswip attached to this thread, if it attached one.

    Skipped in the thread that started SWI-Prolog (its engine was not attached; calling
    PL_thread_destroy_engine there hundreds of thousands of times crashed SWI-Prolog).
    """
    if _prolog is not None and threading.get_ident() != _home_thread:
        from pyswip.core import _lib

        _lib.PL_thread_destroy_engine()


_FIRST: list = []  # session:qubic_first_masks/9, looked up once


def _first_masks(module: str, x: int, o: int, millis: int) -> tuple[int, str, str]:
    """``session:qubic_first_masks/9`` through SWI-Prolog's foreign interface: value, status, message.

    No goal text to parse and no answer terms to convert: pyswip's ``query`` costs about
    0.4 ms a call, this a few tens of microseconds. The caller holds :data:`_LOCK`.
    """
    from ctypes import byref, c_char_p, c_int

    from pyswip import core as pl

    if pl.PL_thread_self() == -1 and pl.PL_thread_attach_engine(None) == -1:
        raise EngineUnavailableError("SWI-Prolog cannot attach an engine to this thread")
    if not _FIRST:
        _FIRST.append(pl.PL_predicate("qubic_first_masks", 9, "session"))
    frame = pl.PL_open_foreign_frame()
    try:
        args = pl.PL_new_term_refs(9)
        pl.PL_put_atom_chars(args, module)
        for i, number in enumerate((x & 0xFFFFFFFF, x >> 32, o & 0xFFFFFFFF, o >> 32, millis), start=1):
            pl.PL_put_integer(args + i, number)
        query = pl.PL_open_query(None, pl.PL_Q_NODEBUG | pl.PL_Q_CATCH_EXCEPTION, _FIRST[0], args)
        try:
            if not pl.PL_next_solution(query):  # qubic_first_masks/9 is det: cannot happen
                return -1, "error", "session:qubic_first_masks/9 failed"
            value, status, message = c_int(), c_char_p(), c_char_p()
            pl.PL_get_integer(args + 6, byref(value))
            pl._lib.PL_get_atom_chars(args + 7, byref(status))
            pl._lib.PL_get_atom_chars(args + 8, byref(message))
            return value.value, status.value.decode(), message.value.decode(errors="replace")
        finally:
            pl.PL_cut_query(query)
    finally:
        pl.PL_discard_foreign_frame(frame)


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def query(
    goal: str,
    files: Iterable[str | Path] = (),
    *,
    position: Position | None = None,
    max_solutions: int = 0,
    time_limit: float | None = None,
) -> list[dict[str, Any]]:
    """All solutions of ``goal`` (Prolog text) as dicts of variable bindings.

    The project's rules (geometry, threats, forcing) are always loaded;
    ``files`` are loaded too (again at every call, so edits take effect). ``position`` replaces the
    facts ``x/1``, ``o/1`` (None: the empty board). Values: integers and lists stay as they are, atoms
    and strings become ``str``, other terms their text. Variables starting with
    ``_`` are not reported. ``max_solutions`` > 0 stops after that many.
    Raises :class:`QueryTimeout` past ``time_limit`` seconds, :class:`RuleError`
    for a goal or file that does not load or run.
    """
    with _LOCK:
        try:
            prolog = _start()
            for path in files:
                _load(prolog, Path(path))
            xs, os_ = (cells_of(position.x), cells_of(position.o)) if position is not None else ([], [])
            list(prolog.query(f"threats:set_position({xs}, {os_})"))
            seconds = float(time_limit) if time_limit else 0
            (answer,) = list(prolog.query(
                f"session:qubic_run({quote(goal)}, {seconds}, {int(max_solutions)}, Json, Status, Message)"
            ))
        finally:
            _release_thread_engine()
    status = _text(answer["Status"])
    if status == "timeout":
        progress = _text(answer["Message"])
        raise QueryTimeout(f"prolog engine (SWI-Prolog): no answer within the time limit of {time_limit} s"
                           + (f" ({progress})" if progress else ""), partial=progress or None)
    if status == "error":
        raise RuleError(f"Prolog goal {goal!r} raised an error: {_text(answer['Message'])}")
    return json.loads(_text(answer["Json"]))


class PrologSession:
    """A rule file consulted once into a module of its own; each call asserts the position.

    ``first(position)`` is the first solution of ``play(C)`` in that module
    after ``threats:set_position/2``: a cell, or None when ``play/1`` fails.
    Calls cost a fraction of a millisecond. The project's predicates
    (geometry, threats, forcing) are visible in the module.
    """

    _modules: dict[str, str] = {}  # file -> its module (SWI loads a file into one module only)

    def __init__(self, path: str | Path) -> None:
        path = Path(path)
        if not path.is_file():
            raise RuleError(f"rule file {path} does not exist; expected a Prolog file (.pl)")
        with _LOCK:
            try:
                prolog = _start()
                key = str(path.resolve())
                self.module = self._modules.setdefault(key, f"qubic_strategy_{len(self._modules) + 1}")
                (answer,) = list(prolog.query(
                    f"session:qubic_load({quote(str(path.resolve()))}, {self.module}, Errors)"))
                errors = [_text(e) for e in answer["Errors"]]
                if errors:
                    raise RuleError(f"Prolog rules do not load: {'; '.join(errors)}")
                defined = list(prolog.query(  # its own play/1, not one inherited from module user
                    f"predicate_property({self.module}:play(_), defined), "
                    f"predicate_property({self.module}:play(_), implementation_module(M)), M == {self.module}"))
            finally:
                _release_thread_engine()
        if not defined:
            raise RuleError(f"{path} defines no play/1; expected rules whose head is play(C), C a cell 0..63")
        self.path = path

    def first(self, position: Position, time_limit: float | None = None) -> int | None:
        """The first ``C`` with ``play(C)`` at ``position`` (None: none).

        Raises :class:`QueryTimeout` past ``time_limit`` (default: none), :class:`RuleError` when
        the rules raise an error or give a value that is not an integer.
        """
        millis = max(round(time_limit * 1000), 1) if time_limit else 0
        with _LOCK:
            try:
                value, status, message = _first_masks(self.module, position.x, position.o, millis)
            finally:
                _release_thread_engine()
        if status == "ok":
            return None if value == -1 else value
        if status == "timeout":
            raise QueryTimeout(f"prolog engine (SWI-Prolog): play(C) gave no answer within the time limit "
                               f"of {time_limit} s")
        if status == "not_a_cell":
            raise RuleError(f"play(C) gave C = {message}; expected a cell 0..63")
        raise RuleError(f"play(C) raised an error: {message}")


class PrologEngine(Engine):
    """SWI-Prolog over rules/geometry.pl, threats.pl and forcing.pl (iterative deepening)."""

    name = "prolog"

    def __init__(self) -> None:
        with _LOCK:
            _start()

    def query(self, position: Position | None, goal: str, files: Iterable[str | Path] = (),
              time_limit: float | None = None, *, max_solutions: int = 0) -> list[dict[str, Any]]:
        """Bindings of ``goal`` with geometry, threats and forcing and ``files`` loaded."""
        return query(goal, files, position=position, max_solutions=max_solutions, time_limit=time_limit)

    def threats(self, position: Position, time_limit: float | None = None) -> Threats:
        goal = ("findall(C, threat(x, C), TX), findall(C, threat(o, C), TO), "
                "findall(C, forcing_move(x, C), FX), findall(C, forcing_move(o, C), FO), "
                "findall(C, major_cell(x, C), MX), findall(C, major_cell(o, C), MO)")
        (b,) = query(goal, position=position, time_limit=time_limit)
        return Threats(*(mask_of(b[k]) for k in ("TX", "TO", "FX", "FO", "MX", "MO")))

    def related_pairs(self, position: Position, side: Side | None = None,
                      time_limit: float | None = None) -> list[RelatedPair]:
        goal = f"related_pair({side or 'S'}, C, L1, L2)"
        answers = query(goal, position=position, time_limit=time_limit)
        return sorted(RelatedPair(side or b["S"], b["C"], (b["L1"], b["L2"])) for b in answers)

    def shortest_forced_win(self, position: Position, max_length: int | None = None,
                            time_limit: float | None = None) -> ForcedWin:
        start = time.monotonic()
        try:
            answers = query(f"forced_win({max_length or 0}, N, Seq)", position=position, time_limit=time_limit)
        except QueryTimeout as exc:  # partial: the largest length searched completely, as in the cores
            raise QueryTimeout(str(exc), partial=int(exc.partial.split()[-1]) if exc.partial else 0) from None
        length, seq = (answers[0]["N"], tuple(answers[0]["Seq"])) if answers else (None, ())
        return ForcedWin(self.name, position.to_move, length, seq, max_length, 0, time.monotonic() - start)
