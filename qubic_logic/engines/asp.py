"""The ASP engine: clingo over ``rules/*.lp``, and :func:`solve` for any ASP program.

:func:`solve` is the low-level entry other parts use (claims, strategy
checks): it loads project rules, files and program text, grounds, and
returns the shown atoms of the models (the first, all, or the optimal ones)
under a time limit.

>>> r = solve('p(1..3). #show p/1.', models=0)
>>> r.count, r.atoms[0]
(1, ['p(1)', 'p(2)', 'p(3)'])
>>> from qubic_logic.notation import parse_position
>>> r = solve('#show major_cell/2.', rules=('geometry', 'threats'), position=parse_position('moves:1,63,2,42,4,57,8'))
>>> r.atoms
[['major_cell(x,0)']]
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from functools import cache
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import clingo
import clingo.ast

from ..core import ForcedWin, Threats
from ..errors import QueryTimeout, RuleError
from ..geometry import mask_of
from ..position import Position, Side
from .base import Engine, RelatedPair
from .rulefiles import CORE_RULES, position_facts, rule_path


@dataclass
class AspResult:
    """Models of an ASP program.

    ``models`` holds the shown symbols of each model kept (sorted);
    ``count`` how many models were found; ``costs`` the cost vector of each
    kept model (optimisation); ``exhausted`` whether the search space was
    exhausted (all models enumerated, or optimality proven); ``satisfiable``
    is None when the search was cut short; ``warnings`` are clingo's messages
    about the caller's program and files (e.g. an atom that occurs in no rule
    head: often a misspelt predicate).
    """

    models: list[list[clingo.Symbol]] = field(default_factory=list)
    count: int = 0
    costs: list[list[int]] = field(default_factory=list)
    exhausted: bool = False
    satisfiable: bool | None = None
    warnings: list[str] = field(default_factory=list)

    @property
    def atoms(self) -> list[list[str]]:
        """The models as lists of atom texts."""
        return [[str(s) for s in m] for m in self.models]


class _Messages:
    """Collects clingo's messages (they carry file:line:column): errors, and warnings
    about anything but the project's own rules."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.warnings: list[str] = []
        self._rules_dir = str(rule_path("geometry", "lp").parent)

    def __call__(self, code: clingo.MessageCode, message: str) -> None:
        text = " ".join(message.split())
        if code == clingo.MessageCode.RuntimeError or ": error:" in message:
            self.errors.append(text)
        elif not text.startswith(self._rules_dir):
            self.warnings.append(text)


def control(
    program: str = "",
    files: Iterable[str | Path] = (),
    rules: Iterable[str] = (),
    position: Position | None = None,
    arguments: Sequence[str] = (),
) -> tuple[clingo.Control, _Messages]:
    """A clingo Control with project ``rules``, ``files``, ``program`` and position facts added.

    Nothing is ground yet. Raises :class:`RuleError` naming file and line on a syntax error.
    """
    messages = _Messages()
    ctl = clingo.Control(list(arguments), logger=messages, message_limit=100)
    try:
        for name in rules:
            ctl.load(str(rule_path(name, "lp")))
        for path in files:
            if not Path(path).is_file():
                raise RuleError(f"rule file {path} does not exist; expected an ASP file (.lp)")
            ctl.load(str(path))
        if program:
            ctl.add("base", [], program)
        if position is not None:
            ctl.add("base", [], position_facts(position))
    except RuntimeError as exc:
        raise _rule_error(messages, exc) from None
    return ctl, messages


def _rule_error(messages: _Messages, exc: Exception) -> RuleError:
    detail = "; ".join(messages.errors) or str(exc)
    return RuleError(f"ASP rules do not load: {detail}")


def ground(ctl: clingo.Control, messages: _Messages, parts: Sequence[tuple[str, Sequence]]) -> None:
    """Ground ``parts`` (e.g. ``[('base', []), ('step', [clingo.Number(1)])]``), errors as RuleError."""
    try:
        ctl.ground([(name, [a if isinstance(a, clingo.Symbol) else clingo.Number(a) for a in args])
                    for name, args in parts])
    except RuntimeError as exc:
        raise _rule_error(messages, exc) from None


ROUND_PARTS = ("step", "answer")  # forcing.lp's parts of a round: the attacker's move, the defender's reply

_SLICE = 0.25  # seconds between checks for the deadline and Ctrl-C while clingo solves


def search(
    ctl: clingo.Control,
    *,
    models: int = 1,
    optimal: bool = False,
    keep: bool = True,
    project: bool = False,
    assumptions: Sequence[tuple[clingo.Symbol, bool]] = (),
    deadline: float | None = None,
    time_limit: float | None = None,
) -> AspResult:
    """Solve a ground Control asynchronously; stop at ``deadline`` (time.monotonic()).

    ``models`` = how many models to keep (0 = all); with ``optimal`` only the
    models proven optimal are kept; with ``project`` models differing only in
    hidden atoms count once (clingo's ``--project=show``). Raises :class:`QueryTimeout` (partial = the
    AspResult so far) past the deadline.
    """
    from ..supervisor import found  # (in a supervised worker each kept model of a query goes to the parent too)

    result = AspResult()
    ctl.configuration.solve.models = 0 if optimal else models
    if optimal:
        ctl.configuration.solve.opt_mode = "optN"
    ctl.configuration.solve.project = "show" if project else "no"

    def on_model(model: clingo.Model) -> bool:
        result.count += 1
        if optimal and not model.optimality_proven:
            return True
        if keep and (not models or len(result.models) < models):
            result.models.append(sorted(model.symbols(shown=True)))
            result.costs.append(list(model.cost))
            found("model", ([str(s) for s in result.models[-1]], result.costs[-1]))
        return not (optimal and models and len(result.models) >= models)

    lits = []
    for atom, truth in assumptions:
        symbol = ctl.symbolic_atoms[atom]
        if symbol is None:
            if truth:  # assuming an atom that cannot be true: unsatisfiable
                result.satisfiable, result.exhausted = False, True
                return result
            continue
        lits.append(symbol.literal if truth else -symbol.literal)
    if deadline is not None and time.monotonic() >= deadline:
        raise QueryTimeout(f"asp engine (clingo): no answer within the time limit of {time_limit} s", partial=result)
    with ctl.solve(on_model=on_model, async_=True, assumptions=lits) as handle:
        try:  # wait in slices, so that Ctrl-C reaches Python while clingo searches
            while not handle.wait(_SLICE if deadline is None else max(0.0, min(_SLICE, deadline - time.monotonic()))):
                if deadline is not None and time.monotonic() >= deadline:
                    handle.cancel()
                    raise QueryTimeout(
                        f"asp engine (clingo): no answer within the time limit of {time_limit} s", partial=result
                    )
        except KeyboardInterrupt:
            handle.cancel()
            raise
        outcome = handle.get()
    result.satisfiable = outcome.satisfiable
    result.exhausted = outcome.exhausted
    return result


def solve(
    program: str = "",
    files: Iterable[str | Path] = (),
    *,
    rules: Iterable[str] = (),
    position: Position | None = None,
    models: int = 1,
    optimal: bool = False,
    keep: bool = True,
    project: bool = False,
    horizon: int = 0,
    arguments: Sequence[str] = (),
    time_limit: float | None = None,
) -> AspResult:
    """Run an ASP program and return its models.

    ``rules`` are project rule names (``'geometry'``, ``'threats'``,
    ``'forcing'``, ``'claims/...'``); ``files`` are paths; ``program`` is text
    added to part ``base``; ``position`` adds its facts ``x/1``, ``o/1``.
    ``horizon`` > 0 also grounds forcing.lp's rounds 1..horizon (parts ``step(t)`` and ``answer(t)``).
    ``models``: how many to keep, 0 = all; ``optimal``: only optimal models;
    ``keep=False`` only counts them (``result.count``); ``project``: models
    that differ only in hidden atoms count once. ``arguments`` are
    clingo command-line options (e.g. ``['-c', 'n=3']``).
    Raises :class:`RuleError` (file and line) and :class:`QueryTimeout`.
    """
    deadline = time.monotonic() + time_limit if time_limit else None
    ctl, messages = control(program, files, rules, position, arguments)
    rounds = [(part, [t]) for t in range(1, horizon + 1) for part in ROUND_PARTS]
    ground(ctl, messages, [("base", []), *rounds])
    if deadline is not None and time.monotonic() > deadline:
        raise QueryTimeout(f"asp engine (clingo): grounding took longer than the time limit of {time_limit} s")
    result = search(ctl, models=models, optimal=optimal, keep=keep, project=project, deadline=deadline,
                    time_limit=time_limit)
    result.warnings = messages.warnings
    return result


#: The position as external atoms: ground once, then each call fixes them by assumptions.
POSITION_EXTERNALS = "#external x(0..63). #external o(0..63)."


class _Watchdog:
    """One thread that interrupts clingo solve calls past their deadlines.

    Synchronous solving is about a millisecond cheaper per call than clingo's
    asynchronous mode; this thread keeps the time limits without it. The thread
    is woken only when a new deadline comes before its planned wake-up, so a
    call that ends in time costs two uncontended lock operations (waking a
    thread on every call costs milliseconds on a loaded machine).
    """

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._armed: dict[int, tuple[float, clingo.Control]] = {}
        self._next = 0
        self._wake = float("inf")  # when the thread will look again
        self._thread: threading.Thread | None = None

    def arm(self, ctl: clingo.Control, seconds: float) -> int:
        """Interrupt ``ctl`` after ``seconds``; returns the token for :meth:`disarm`."""
        deadline = time.monotonic() + seconds
        with self._cond:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, daemon=True, name="clingo-watchdog")
                self._thread.start()
            self._next += 1
            self._armed[self._next] = (deadline, ctl)
            if deadline < self._wake:
                self._wake = deadline
                self._cond.notify()
            return self._next

    def disarm(self, token: int) -> None:
        """The solve call is over."""
        with self._cond:
            self._armed.pop(token, None)

    def _run(self) -> None:
        with self._cond:
            while True:
                now = time.monotonic()
                for token, (deadline, ctl) in list(self._armed.items()):
                    if deadline <= now:
                        del self._armed[token]
                        ctl.interrupt()
                self._wake = min((deadline for deadline, _ in self._armed.values()), default=float("inf"))
                self._cond.wait(None if self._wake == float("inf") else self._wake - now)


_WATCHDOG = _Watchdog()


def solve_now(ctl: clingo.Control, assumptions: Sequence[int] = (), on_model=None,
              time_limit: float | None = None) -> clingo.SolveResult:
    """A synchronous solve call under literal ``assumptions``, interrupted past ``time_limit``.

    Raises :class:`QueryTimeout` when interrupted.
    """
    token = _WATCHDOG.arm(ctl, time_limit) if time_limit is not None else None
    try:
        outcome = ctl.solve(assumptions=list(assumptions), on_model=on_model)
    finally:
        if token is not None:
            _WATCHDOG.disarm(token)
    if outcome.interrupted:
        raise QueryTimeout(f"asp engine (clingo): no answer within the time limit of {time_limit} s")
    return outcome


def _ground_and_exit(files: list[str], rules: tuple[str, ...], memory: int, parent: int, main: bool) -> None:
    """In a child process: ground the rules with the position as externals, then exit."""
    import resource

    from ..supervisor import die_with_parent, ignore_sigint

    ignore_sigint()
    die_with_parent(parent, kernel=main)
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    try:
        ctl, messages = control(POSITION_EXTERNALS, files, rules)
        ground(ctl, messages, [("base", [])])
    except MemoryError:
        os._exit(3)
    except BaseException as exc:  # the parent grounds again and reports a rule error itself
        os._exit(3 if "bad_alloc" in str(exc) else 1)
    os._exit(0)


def check_grounding(files: Iterable[str | Path], time_limit: float | None,
                    rules: tuple[str, ...] = CORE_RULES[:2], memory_mb: int = 4096) -> None:
    """Raise :class:`QueryTimeout` if grounding ``files`` (position as externals) takes more than
    ``time_limit`` seconds of CPU time (a busy machine does not count against it; a grounding that
    waits is stopped after ten times as many seconds) or more than ``memory_mb`` MB: rules that ground
    without end are tried in a child process, which is killed, before the session grounds them for good.
    """
    if not time_limit:
        return
    names = [str(f) for f in files]
    child = multiprocessing.get_context("fork").Process(
        target=_ground_and_exit, args=(names, rules, memory_mb << 20, os.getpid(),
                                    threading.current_thread() is threading.main_thread()), daemon=True)
    from ..supervisor import sigint_held

    with sigint_held():
        child.start()
    from ..supervisor import cpu_seconds

    end = time.monotonic() + 10 * time_limit
    try:
        while True:
            child.join(0.05)
            late = child.is_alive() and ((cpu_seconds(child.pid) or 0.0) >= time_limit or time.monotonic() > end)
            if late or not child.is_alive():
                break
    finally:  # Ctrl-C while waiting ends the child too
        child.kill()
        child.join()
    if late:
        raise QueryTimeout(f"{', '.join(names)}: grounding the rules did not finish within {time_limit:g} s of "
                           "CPU time; expected rules that ground to a finite program (is a rule recursive over "
                           "numbers?)")
    if child.exitcode not in (0, 1):
        raise RuleError(f"{', '.join(names)}: grounding the rules needs more than {memory_mb} MB; expected "
                        "rules that ground to a finite program")


class AspSession:
    """Rules ground once with the position as ``#external x/1, o/1``; each call solves under assumptions.

    A call costs about a millisecond instead of a fresh Control and a new
    grounding. ``ground`` adds further parts (e.g. forcing.lp's rounds) for
    every later call. Not thread-safe: one caller at a time.

    >>> s = AspSession("#show threat/2.")
    >>> from qubic_logic.notation import parse_position
    >>> s.solve(parse_position('moves:0,16,1,17,2')).atoms
    [['threat(x,3)']]
    >>> s.solve(parse_position('moves:0,16,1,17')).atoms      # the same ground rules, another position
    [[]]
    """

    def __init__(self, program: str = "", files: Iterable[str | Path] = (), *,
                 rules: Iterable[str] = CORE_RULES[:2], arguments: Sequence[str] = (), sliced: bool = False) -> None:
        files, rules = list(files), list(rules)
        program = f"{program}\n{POSITION_EXTERNALS}"
        self.ctl, self.messages = control(program, files, () if sliced else rules, None, arguments)
        if sliced:  # only the project rules the program and files use (see slicing)
            self._add_needed(rules, program, files)
        ground(self.ctl, self.messages, [("base", [])])
        self.warnings = self.messages.warnings
        self._marks = {side: [self.literal(clingo.Function(side, [clingo.Number(c)])) for c in range(64)]
                       for side in ("x", "o")}
        for side in ("x", "o"):
            for c in range(64):
                self.ctl.assign_external(clingo.Function(side, [clingo.Number(c)]), None)  # free: set by assumptions

    def _add_needed(self, rules: list[str], program: str, files: list[str | Path]) -> None:
        from clingo import ast

        from .slicing import needed

        user: list = []
        ast.parse_string(program, user.append)
        ast.parse_files([str(f) for f in files], user.append)
        library = "\n".join(rule_path(name, "lp").read_text() for name in rules)
        with ast.ProgramBuilder(self.ctl) as builder:
            for statement in needed(library, user):
                builder.add(statement)

    def ground(self, parts: Sequence[tuple[str, Sequence]]) -> None:
        """Ground more parts, kept for every later call."""
        ground(self.ctl, self.messages, parts)

    def literal(self, atom: clingo.Symbol) -> int | None:
        """The solver literal of a ground atom (None when the rules cannot derive it)."""
        found = self.ctl.symbolic_atoms[atom]
        return None if found is None else found.literal

    def position_literals(self, position: Position) -> list[int]:
        """Assumptions fixing ``x/1`` and ``o/1`` to ``position``."""
        lits = []
        for side, mask in (("x", position.x), ("o", position.o)):
            lits += [lit if mask >> c & 1 else -lit for c, lit in enumerate(self._marks[side])]
        return lits

    def solve(self, position: Position, *, assumptions: Sequence[int] = (), on_model=None,
              time_limit: float | None = None) -> AspResult:
        """Models of the ground rules at ``position`` (plus literal ``assumptions``).

        ``on_model(model)`` may look at each model and return False to stop;
        without it the first model's shown atoms are kept. Raises
        :class:`QueryTimeout` past ``time_limit`` seconds.
        """
        result = AspResult()

        def keep(model: clingo.Model) -> bool:
            result.count += 1
            if on_model is not None:
                return on_model(model)
            result.models.append(sorted(model.symbols(shown=True)))
            return False

        outcome = solve_now(self.ctl, [*self.position_literals(position), *assumptions], keep, time_limit)
        result.satisfiable, result.exhausted = outcome.satisfiable, outcome.exhausted
        return result


def _cells(result: AspResult, name: str, side: Side | None = None) -> list[int]:
    return [s.arguments[-1].number for s in result.models[0]
            if s.name == name and (side is None or s.arguments[0].name == side)]


class AspEngine(Engine):
    """clingo over rules/geometry.lp, threats.lp and forcing.lp (multi-shot for forced wins)."""

    name = "asp"

    def threats(self, position: Position, time_limit: float | None = None) -> Threats:
        r = solve("#show threat/2. #show forcing_move/2. #show major_cell/2.", rules=CORE_RULES[:2],
                  position=position, time_limit=time_limit)
        masks = {(n, s): mask_of(_cells(r, n, s)) for n in ("threat", "forcing_move", "major_cell")
                 for s in ("x", "o")}
        return Threats(masks["threat", "x"], masks["threat", "o"], masks["forcing_move", "x"],
                       masks["forcing_move", "o"], masks["major_cell", "x"], masks["major_cell", "o"])

    def related_pairs(self, position: Position, side: Side | None = None,
                      time_limit: float | None = None) -> list[RelatedPair]:
        r = solve("#show related_pair/4.", rules=CORE_RULES[:2], position=position, time_limit=time_limit)
        pairs = [RelatedPair(s.arguments[0].name, s.arguments[1].number,
                             (s.arguments[2].number, s.arguments[3].number)) for s in r.models[0]]
        return sorted(p for p in pairs if side is None or p.side == side)

    def query(self, position: Position | None, goal: str, files: Iterable[str | Path] = (),
              time_limit: float | None = None, *, models: int = 0, optimal: bool = False,
              project: bool = True, max_length: int = 0) -> AspResult:
        """Models of ``goal`` (ASP text) with geometry, threats and forcing and ``files``.

        ``max_length`` > 1 grounds the rounds of forcing.lp for wins up to that length;
        ``project``: models with the same shown atoms count once.
        """
        return solve(goal, files, rules=CORE_RULES, position=position, models=models, optimal=optimal,
                     project=project, horizon=max(0, max_length - 1), time_limit=time_limit)

    def shortest_forced_win(self, position: Position, max_length: int | None = None,
                            time_limit: float | None = None) -> ForcedWin:
        """Ground one round at a time; the first horizon with a model gives the minimal length.

        Past ``time_limit`` raises :class:`QueryTimeout` whose ``partial`` is the
        largest length known to have no forced win (as the cores report it).
        """
        start = time.monotonic()
        deadline = start + time_limit if time_limit else None
        searched = [0]  # lengths known to have no forced win, for the timeout message
        try:
            length, seq = self._search(position, max_length, deadline, time_limit, searched)
        except QueryTimeout as exc:
            known = f" (no forced win of length <= {searched[0]})" if searched[0] else ""
            raise QueryTimeout(f"{exc}{known}", partial=searched[0]) from None
        return ForcedWin(self.name, position.to_move, length, seq, max_length, 0, time.monotonic() - start)

    def _search(self, position: Position, max_length: int | None, deadline: float | None,
                time_limit: float | None, searched: list[int]) -> tuple[int | None, tuple[int, ...]]:
        ctl, messages = control(position=position)
        with clingo.ast.ProgramBuilder(ctl) as builder:
            for statement in _forcing_program():
                builder.add(statement)
        ground(ctl, messages, [("base", [])])

        def run(assumptions: Sequence[int] = ()) -> AspResult:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise QueryTimeout(f"asp engine (clingo): no answer within the time limit of {time_limit} s")
            found = AspResult()
            outcome = solve_now(ctl, assumptions, lambda m: found.models.append(m.symbols(shown=True)), left)
            found.satisfiable = outcome.satisfiable
            return found

        win_now = [s.arguments[0].number for s in run().models[0] if s.name == "win_now"]
        if win_now:
            return 1, (min(win_now),)
        searched[0] = t = 1
        while not max_length or t < max_length:
            ground(ctl, messages, [("step", [t])])  # the attacker's move of round t: does it win?
            if t > 1:
                ctl.assign_external(_query(t - 1), False)
            ctl.assign_external(_query(t), True)
            found = run()
            if found.satisfiable:
                return t + 1, _witness(found, t)
            searched[0] = t + 1
            ctl.assign_external(_query(t), False)
            ground(ctl, messages, [("answer", [t])])  # the defender's reply, ground only when needed
            alive = ctl.symbolic_atoms[clingo.Function("alive", [clingo.Number(t)])]
            if alive is None or not run([alive.literal]).satisfiable:  # no branch still forcing: no win at all
                return None, ()
            t += 1
        return None, ()


@cache
def geometry_facts() -> str:
    """The cells and lines of geometry.lp as facts, derived once per process.

    Grounding geometry.lp is a third of a fresh forced-win query; the facts load at once.

    >>> geometry_facts().count('line_cells(')
    76
    """
    facts = solve("#show cell/1. #show line/1. #show line_cells/5. #show in_line/2.", rules=("geometry",))
    return " ".join(f"{atom}." for atom in facts.atoms[0])


@cache
def _forcing_program() -> tuple:
    """The geometry facts, threats.lp and forcing.lp, parsed once per process (parsing the text
    was an eighth of a forced-win query)."""
    statements: list = []
    text = "\n".join([geometry_facts(), *(rule_path(name, "lp").read_text() for name in CORE_RULES[1:]),
                      _FORCING_SHOW])
    clingo.ast.parse_string(text, statements.append)
    return tuple(statements)


def _query(t: int) -> clingo.Symbol:
    return clingo.Function("query", [clingo.Number(t)])


_FORCING_SHOW = "#show win_now/1. #show attack/2. #show reply/2. #show new_threat/2."


def _witness(found: AspResult, rounds: int) -> tuple[int, ...]:
    """The sequence of a model: attacks and replies, then the block and the completing move."""
    moves: dict[tuple[int, int], int] = {}
    last: list[int] = []
    for s in found.models[0]:
        t = s.arguments[0].number if s.arguments else 0
        if s.name == "attack":
            moves[t, 0] = s.arguments[1].number
        elif s.name == "reply":
            moves[t, 1] = s.arguments[1].number
        elif s.name == "new_threat" and t == rounds:
            last.append(s.arguments[1].number)
    last.sort()
    return (*(moves[k] for k in sorted(moves)), last[0], last[1])
