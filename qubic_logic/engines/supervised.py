"""The ``asp`` and ``prolog`` engines in a supervised worker process (:mod:`qubic_logic.supervisor`).

:class:`SupervisedEngine` answers the :class:`~qubic_logic.engines.base.Engine`
questions through the engine living in a :class:`~qubic_logic.supervisor.Supervisor`'s
worker, with a time and a memory limit; :func:`engine_for` gives one for
``asp`` and ``prolog`` and the plain engine for the native and Python cores
(which stop by themselves).

>>> engine_for('python').name
'python'
"""

from __future__ import annotations

import re
import time
from typing import Any, Callable

from ..errors import QueryTimeout
from ..supervisor import DEFAULT_MEMORY_MB, Supervisor, found, sending_found
from .base import Engine

_reporting_solutions = False  # in a worker: SWI-Prolog hands each solution of a query to found()


def _report_prolog_solutions() -> None:
    """Define ``user:qubic_found/1`` in SWI-Prolog: each solution of a query is :func:`report`-ed as it
    is found, so that a query stopped by Ctrl-C keeps what it found."""
    global _reporting_solutions
    if _reporting_solutions:
        return
    import json

    from pyswip import registerForeign

    from .prolog import _start

    _start()

    def qubic_found(text: Any) -> bool:
        found("solution", json.loads(text.value if hasattr(text, "value") else str(text)))
        return True

    registerForeign(qubic_found, arity=1)
    _reporting_solutions = True


def _asp_text(result: Any) -> Any:
    """An ASP result whose models are text (clingo symbols pickle as pointers)."""
    result.models = [[str(s) for s in model] for model in result.models]
    return result


def _engine_method(name: str, method: str, *args: Any, until: float | None = None,
                   stated: float | None = None, **kwargs: Any) -> Any:
    """In the worker: ``get_engine(name).method(*args, **kwargs)`` (the engine stays loaded), with the
    time left until ``until`` (a ``time.monotonic()``, one clock for every process) as its time limit:
    the ``stated`` seconds of the call count from the call, the worker's start included."""
    from . import get_engine

    if name == "prolog" and method == "query":
        _report_prolog_solutions()
    try:
        with sending_found(method == "query"):
            engine = get_engine(name)
            left = None if until is None else max(until - time.monotonic(), 0.001)
            result = getattr(engine, method)(*args, time_limit=left, **kwargs)
    except QueryTimeout as exc:
        if name == "asp" and method == "query" and exc.partial is not None:
            exc.partial = _asp_text(exc.partial)
        if stated is not None:  # the engine counted what was left: the message names the call's limit
            exc.args = (re.sub(r"time limit of \S+ s", f"time limit of {stated:g} s", str(exc)),)
        raise
    if name == "asp" and method == "query":
        result = _asp_text(result)
    return result


class SupervisedEngine(Engine):
    """The ``asp`` or ``prolog`` engine living in a :class:`Supervisor`'s worker.

    Answers the :class:`~qubic_logic.engines.base.Engine` questions with the
    same result types; the time limit of each call is enforced from outside,
    and Ctrl-C kills the worker at once.
    """

    def __init__(self, name: str, supervisor: Supervisor | None = None) -> None:
        self.name = name
        self.supervisor = supervisor or Supervisor()

    def _call(self, method: str, *args: Any, time_limit: float | None = None,
              on_progress: Callable[[Any], None] | None = None, **kwargs: Any) -> Any:
        """``method`` of the engine in the worker; ``time_limit`` counts from now, the worker's start
        (a fresh interpreter, the engine's loading) included."""
        until = None if time_limit is None else time.monotonic() + time_limit
        return self.supervisor.call(_engine_method, self.name, method, *args, until=until, stated=time_limit,
                                    limit=time_limit, on_progress=on_progress,
                                    what=f"{self.name} engine: {method.replace('_', ' ')}", **kwargs)

    def threats(self, position, time_limit: float | None = None):
        return self._call("threats", position, time_limit=time_limit)

    def forcing_moves(self, position, side=None, time_limit: float | None = None) -> int:
        return self._call("forcing_moves", position, side, time_limit=time_limit)

    def related_pairs(self, position, side=None, time_limit: float | None = None):
        return self._call("related_pairs", position, side, time_limit=time_limit)

    def shortest_forced_win(self, position, max_length: int | None = None, time_limit: float | None = None):
        return self._call("shortest_forced_win", position, max_length, time_limit=time_limit)

    def query(self, position, goal: str, files=(), time_limit: float | None = None, *,
              on_found: Callable[[Any], None] | None = None, **options):
        """The engine's query; ``on_found`` gets each ASP model (its atoms and costs as text) or Prolog
        solution (a dict of bindings) as it is found: what a query stopped by Ctrl-C had."""
        def progress(value: Any) -> None:
            if on_found and isinstance(value, tuple) and value[:1] in (("model",), ("solution",)):
                on_found(value[1])

        result = self._call("query", position, goal, tuple(map(str, files)), time_limit=time_limit,
                            on_progress=progress, **options)
        if self.name == "asp":
            import clingo

            result.models = [[clingo.parse_term(s) for s in model] for model in result.models]
        return result

    def close(self) -> None:
        """Stop the worker."""
        self.supervisor.stop()

    def __repr__(self) -> str:
        return f"<SupervisedEngine {self.name}>"


def engine_for(name: str, memory_limit: float | None = DEFAULT_MEMORY_MB):
    """The engine called ``name``: supervised for ``asp`` and ``prolog``, else the plain one.

    >>> engine_for('python').name
    'python'
    """
    from . import get_engine

    if name in ("asp", "prolog"):
        return SupervisedEngine(name, Supervisor(memory_limit))
    return get_engine(name)
