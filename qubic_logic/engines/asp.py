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

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import clingo

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
        return not (optimal and models and len(result.models) >= models)

    lits = []
    for atom, truth in assumptions:
        found = ctl.symbolic_atoms[atom]
        if found is None:
            if truth:  # assuming an atom that cannot be true: unsatisfiable
                result.satisfiable, result.exhausted = False, True
                return result
            continue
        lits.append(found.literal if truth else -found.literal)
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
    ``horizon`` > 0 also grounds ``step(1..horizon)`` (forcing.lp's rounds).
    ``models``: how many to keep, 0 = all; ``optimal``: only optimal models;
    ``keep=False`` only counts them (``result.count``); ``project``: models
    that differ only in hidden atoms count once. ``arguments`` are
    clingo command-line options (e.g. ``['-c', 'n=3']``).
    Raises :class:`RuleError` (file and line) and :class:`QueryTimeout`.
    """
    deadline = time.monotonic() + time_limit if time_limit else None
    ctl, messages = control(program, files, rules, position, arguments)
    ground(ctl, messages, [("base", []), *(("step", [t]) for t in range(1, horizon + 1))])
    if deadline is not None and time.monotonic() > deadline:
        raise QueryTimeout(f"asp engine (clingo): grounding took longer than the time limit of {time_limit} s")
    result = search(ctl, models=models, optimal=optimal, keep=keep, project=project, deadline=deadline,
                    time_limit=time_limit)
    result.warnings = messages.warnings
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
        ctl, messages = control(_FORCING_SHOW, rules=CORE_RULES, position=position)
        ground(ctl, messages, [("base", [])])
        base = search(ctl, deadline=deadline, time_limit=time_limit)
        win_now = [s.arguments[0].number for s in base.models[0] if s.name == "win_now"]
        if win_now:
            return 1, (min(win_now),)
        searched[0] = t = 1
        while not max_length or t < max_length:
            ground(ctl, messages, [("step", [t])])
            if t > 1:
                ctl.assign_external(clingo.Function("query", [clingo.Number(t - 1)]), False)
            ctl.assign_external(clingo.Function("query", [clingo.Number(t)]), True)
            found = search(ctl, deadline=deadline, time_limit=time_limit)
            if found.satisfiable:
                return t + 1, _witness(found, t)
            searched[0] = t + 1
            ctl.assign_external(clingo.Function("query", [clingo.Number(t)]), False)
            going = search(ctl, keep=False, assumptions=[(clingo.Function("alive", [clingo.Number(t)]), True)],
                           deadline=deadline, time_limit=time_limit)
            if not going.satisfiable:  # no branch is still forcing: no win at any length
                return None, ()
            t += 1
        return None, ()


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
