"""User rule checks (``qubic check RULES_FILE``): a rule in ASP or Prolog, checked exhaustively.

The rules file says where to look with one or more ``domain(...)`` facts and
defines ``violated`` for a position where the rule fails (docs/checks.md):

``domain(plane(P, NX, NO))``
    every placement of NX X marks and NO O marks in plane P (1..18), nothing else on the board;
``domain(marks(NX, NO))``
    every position with NX X and NO O marks, one per class of the 192 symmetries;
``domain(successors("POSITION"))``
    each legal move of the side to move in POSITION (facts ``move(M)``, ``parent_x(C)``,
    ``parent_o(C)`` describe the move and the position before it);
``domain(position("POSITION"))``
    that one position.

A position enters as facts ``x(C)``, ``o(C)`` (cells 0..63) with the project's
geometry and threats rules (and forcing rules: ASP with ``#const horizon = H.``,
which grounds H rounds of rules/forcing.lp; Prolog always). In ASP the rule
fails where some answer set holds ``violated`` (its shown atoms explain it); in
Prolog where ``violated`` succeeds (``why(Text)``, if defined, explains it).

>>> [str(d) for d in domains_of('domain(plane(1, 3, 0)).' + chr(10) + 'domain(marks(1, 0)).')]
['plane(1, 3, 0)', 'marks(1, 0)']
>>> len(list(cases(Domain('plane', (1, 3, 0)))))
560
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

from ..errors import IllegalPositionError, QueryTimeout, RuleError
from ..geometry import PLANES, cells_of
from ..notation import CellNames, parse_position
from ..position import Position
from ..symmetry import canonical_masks
from ..supervisor import DEFAULT_MEMORY_MB, Supervisor, report_progress
from .catalog import claims_dir
from .declarative import run_prolog

MAX_CASES = 200_000


@dataclass(frozen=True)
class Domain:
    """Where a rule is checked: a kind and its arguments."""

    kind: str
    args: tuple

    def __str__(self) -> str:
        inner = ", ".join(f'"{a}"' if isinstance(a, str) else str(a) for a in self.args)
        return f"{self.kind}({inner})"


@dataclass(frozen=True)
class Case:
    """One position to check (masks), with the move that led to it when there is one."""

    x: int
    o: int
    move: int = -1
    parent: tuple[int, int] | None = None

    def describe(self, names: CellNames = CellNames()) -> str:
        """The marks of each side and the move, cells written by ``names`` (default 0..63, as the
        rules name them)."""
        text = f"X {names.cells(cells_of(self.x))}; O {names.cells(cells_of(self.o))}"
        return text + (f"; after the move {names.cell(self.move)}" if self.move >= 0 else "")


_DOMAIN = re.compile(r"^\s*domain\(\s*(plane|marks|successors|position)\((.*?)\)\s*\)\s*\.", re.MULTILINE)


def domains_of(text: str) -> list[Domain]:
    """The ``domain(...)`` facts of a rules file (at the start of a line)."""
    out = []
    for kind, inner in _DOMAIN.findall(text):
        inner = inner.strip()
        if kind in ("plane", "marks"):
            try:
                args = tuple(int(a) for a in inner.split(","))
            except ValueError:
                raise RuleError(f"domain({kind}({inner})): expected integers, e.g. "
                                f"{'plane(1, 3, 0)' if kind == 'plane' else 'marks(2, 1)'}") from None
            if len(args) != (3 if kind == "plane" else 2):
                raise RuleError(f"domain({kind}({inner})): expected "
                                f"{'plane(P, NX, NO)' if kind == 'plane' else 'marks(NX, NO)'}")
        else:
            m = re.fullmatch(r'"([^"]*)"', inner)
            if not m:
                raise RuleError(f'domain({kind}({inner})): expected a quoted position, e.g. {kind}("1-2,22-52,27")')
            args = (m.group(1),)
        out.append(Domain(kind, args))
    return out


def cases(domain: Domain) -> Iterator[Case]:
    """The positions of a domain."""
    if domain.kind == "plane":
        p, nx, no = domain.args
        if not 1 <= p <= 18 or nx < 0 or no < 0 or nx + no > 16:
            raise RuleError(f"domain {domain}: expected a plane 1..18 and at most 16 marks")
        cells = PLANES[p - 1]
        for xs in combinations(cells, nx):
            rest = [c for c in cells if c not in xs]
            for os_ in combinations(rest, no):
                yield Case(sum(1 << c for c in xs), sum(1 << c for c in os_))
    elif domain.kind == "marks":
        yield from _marks(*domain.args)
    else:
        position = parse_position(domain.args[0])
        if domain.kind == "position":
            yield Case(position.x, position.o)
        else:
            for move in position.legal_moves():
                after = position.play(move)
                yield Case(after.x, after.o, move, (position.x, position.o))


def _marks(nx: int, no: int) -> Iterator[Case]:
    if nx not in (no, no + 1):
        raise RuleError(f"domain marks({nx}, {no}): X moves first, so X has as many marks as O or one more")
    level = {(0, 0)}
    for side_count in [("x", k) for k in range(nx)] + [("o", k) for k in range(no)]:
        nxt = set()
        for x, o in level:
            for c in range(64):
                bit = 1 << c
                if (x | o) & bit:
                    continue
                nxt.add(canonical_masks(x | bit, o)[:2] if side_count[0] == "x" else canonical_masks(x, o | bit)[:2])
        level = nxt
        if len(level) > MAX_CASES:
            raise RuleError(f"domain marks({nx}, {no}) has more than {MAX_CASES} classes; choose fewer marks")
    for x, o in sorted(level):
        try:
            Position(x, o)
        except IllegalPositionError:
            continue  # a game would have stopped at a win
        yield Case(x, o)


@dataclass
class CheckResult:
    """The outcome of a check: how many positions, and the counterexamples found."""

    engine: str
    domains: list[Domain]
    checked: int = 0
    counterexamples: list[tuple[Case, str]] | None = None
    seconds: float = 0.0

    @property
    def holds(self) -> bool:
        return not self.counterexamples


def _facts(case: Case) -> str:
    parts = [f"x({c})." for c in cells_of(case.x)] + [f"o({c})." for c in cells_of(case.o)]
    if case.move >= 0:
        parts.append(f"move({case.move}).")
        parts += [f"parent_x({c})." for c in cells_of(case.parent[0])]
        parts += [f"parent_o({c})." for c in cells_of(case.parent[1])]
    return " ".join(parts)


def _check_asp(path: Path, text: str, all_cases: list[Case], stop: bool, deadline: float,
               progress: Callable[[int], None]) -> tuple[int, list[tuple[Case, str]]]:
    from ..engines import asp

    m = re.search(r"#const\s+horizon\s*=\s*(\d+)\s*\.", text)
    horizon = int(m.group(1)) if m else 0
    rules = ["geometry", "threats"] + (["forcing"] if horizon else [])
    header = "#defined move/1. #defined parent_x/1. #defined parent_o/1. #defined domain/1.\n"
    if "#show" not in text:  # without #show every atom is shown: keep the explanation short
        header += "#show violated/0.\n"
    found = []
    for i, case in enumerate(all_cases):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise QueryTimeout(f"check stopped after {i} of {len(all_cases)} positions "
                               f"({len(found)} counterexamples so far); raise --time-limit",
                               partial={"checked": i, "counterexamples": found})
        try:
            result = asp.solve(header + _facts(case) + "\n:- not violated.\n", [path], rules=rules,
                               horizon=horizon, time_limit=remaining)
        except (KeyboardInterrupt, QueryTimeout) as exc:
            what = "interrupted" if isinstance(exc, KeyboardInterrupt) else "stopped by the time limit"
            raise QueryTimeout(f"check {what} after {i} of {len(all_cases)} positions "
                               f"({len(found)} counterexamples so far)",
                               partial={"checked": i, "counterexamples": found}) from None
        progress(i + 1)
        if result.satisfiable:
            shown = " ".join(str(s) for s in result.models[0] if s.name != "violated") if result.models else ""
            found.append((case, shown))
            if stop:
                return i + 1, found
    return len(all_cases), found


_PROLOG_DRIVER = """
:- use_module(library(lists)).
:- dynamic user:move/1, user:parent_x/1, user:parent_o/1.
check_case_fails(I, Why) :-
    check_case(I, Xs, Os, M, PXs, POs),
    set_position(Xs, Os),
    retractall(user:move(_)), retractall(user:parent_x(_)), retractall(user:parent_o(_)),
    ( M >= 0 -> assertz(user:move(M)) ; true ),
    forall(member(C, PXs), assertz(user:parent_x(C))),
    forall(member(C, POs), assertz(user:parent_o(C))),
    user:violated,
    ( catch(user:why(W), _, fail) -> format(atom(Why), '~w', [W]) ; Why = '' ).
figure(checked, N) :- aggregate_all(count, check_case(_, _, _, _, _, _), N).
"""


def _check_prolog(path: Path, all_cases: list[Case], stop: bool, time_limit: float) -> tuple[int, list]:
    lines = [":- dynamic user:violated/0, user:why/1."]
    for i, case in enumerate(all_cases):
        px, po = case.parent or (0, 0)
        lines.append(f"check_case({i}, {cells_of(case.x)}, {cells_of(case.o)}, {case.move}, "
                     f"{cells_of(px)}, {cells_of(po)}).")
    pick = ("figure(counterexample, [I, W]) :- once(check_case_fails(I, W)).\n" if stop else
            "figure(counterexample, [I, W]) :- check_case_fails(I, W).\n")
    facts = "\n".join(lines) + "\n" + _PROLOG_DRIVER + pick
    rules = Path(str(claims_dir().parent))
    figures = run_prolog([path], [rules / "geometry.pl", rules / "threats.pl", rules / "forcing.pl"], facts,
                         time_limit)
    raw = figures.get("counterexample", [])
    if raw and not isinstance(raw[0], list):
        raw = [raw]
    found = [(all_cases[i], why) for i, why in sorted(raw)]
    checked = raw[0][0] + 1 if stop and raw else len(all_cases)
    return checked, found


def check_rules(path: str | Path, stop_at_first: bool = True, time_limit: float | None = 600.0,
                progress: Callable[[int, int], None] | None = None, *,
                memory_limit: float | None = DEFAULT_MEMORY_MB, supervised: bool = True) -> CheckResult:
    """Check the rule in ``path`` (``.lp`` or ``.pl``) over its domains.

    The rule is user code: by default it runs in a supervised worker
    (:mod:`qubic_logic.supervisor`) that is killed past ``time_limit`` (plus a
    second), beyond ``memory_limit`` MB or on Ctrl-C, so a looping rule or a
    ``halt`` cannot take the caller with it; ``supervised=False`` runs it here.
    """
    if supervised:
        with Supervisor(memory_limit) as worker:
            return worker.call(check_rules, str(path), stop_at_first, time_limit, report_progress,
                               supervised=False, limit=time_limit, what="the check",
                               on_progress=(lambda done_total: progress(*done_total)) if progress else None)
    path = Path(path)
    if path.suffix not in (".lp", ".pl"):
        raise RuleError(f"{path}: a rules file ends in .lp (ASP) or .pl (Prolog)")
    if not path.is_file():
        raise RuleError(f"{path}: no such rules file")
    text = path.read_text(encoding="utf-8")
    domains = domains_of(text)
    if not domains:
        raise RuleError(f"{path}: no domain(...) fact; add e.g. domain(plane(1, 3, 0)). "
                        "or domain(successors(\"1-2,22-52,27\")). (see docs/checks.md)")
    if not re.search(r"^\s*violated\b", text, re.MULTILINE):
        raise RuleError(f"{path}: no rule for violated; define violated where the rule fails")
    all_cases = [c for d in domains for c in cases(d)]
    engine = "asp" if path.suffix == ".lp" else "prolog"
    start = time.monotonic()
    report = progress or (lambda done, total: None)
    if engine == "asp":
        checked, found = _check_asp(path, text, all_cases, stop_at_first, start + (time_limit or float("inf")),
                                    lambda done: report(done, len(all_cases)))
    else:
        checked, found = _check_prolog(path, all_cases, stop_at_first, time_limit)
        report(len(all_cases), len(all_cases))
    return CheckResult(engine, domains, checked, found, time.monotonic() - start)
