"""The smallest strategy over a proof graph, chosen by clingo's ``#minimize`` rather than by a local search.

The minimiser (:mod:`.minimise`) builds the **proof graph** of verified
strategies from one root: their strategic positions, every move of each known
to win, and the strategic positions each such move leads to next. Any choice
of one known-winning move per position reached is a winning strategy; the
smallest one reaches the fewest positions. The minimiser's local search ends
in a local minimum; this module states the choice declaratively
(``rules/smallest-strategy.lp``: one ``chosen(P, M)`` per reached position,
reachability, ``#minimize`` over the positions reached) over the graph as
facts (:func:`proof_graph_facts`) and lets clingo search, with

- the local search's strategy as the starting point (a domain heuristic, so
  the first model is no larger than it; for the fewest lines, that strategy
  re-chosen greedily for few lines, :meth:`Choices.cover`),
- a time limit and Ctrl-C that keep the best model found, and
- clingo's lower bound: with ``usc`` (core-guided optimisation, the default) the
  bound rises as cores are found; ``bb`` (model-guided) improves the strategy
  from the starting point and proves a bound only when it finishes; ``both``
  runs one thread of each.

A move is dropped from the facts when another move at the same position leads
to a subset of its next positions (it can never reach fewer), which keeps the
problem small without losing an optimum. With the ``lines`` objective
(``rules/fewest-lines.lp``) every move is kept, the facts say which wildcard
lines each entry fits, and the fewest lines used to write the strategy (an
exact cover, up to symmetry) are minimised first. The result is verified by
every caller that writes it.

Run it as ``python -m qubic_logic.proof.optimise OUT DICTIONARY... [--time-limit S]
[--opt-strategy usc|bb|both] [--objective positions|lines] [--sweeps N] [--facts FILE]``.

>>> from qubic_logic.notation import parse_patashnik
>>> from qubic_logic.proof.solve import solve
>>> found = optimised(solve(parse_patashnik("x2x16o4o")).strategy, time_limit=60)
>>> found.proven, found.size == found.lower == len(found.strategy)
(True, True)
"""

from __future__ import annotations

import heapq
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import clingo

from ..engines.rulefiles import rule_path
from ..errors import QubicError
from ..notation import format_patashnik
from ..position import Position, other
from ..saving import write_atomically
from ..strategy.compress import LineKey, line_keys
from ..strategy.dictionary import StrategyDictionary
from .minimise import (SWEEPS, Key, ProofGraph, canonical_moves, chosen_strategy, parsed, smallest,
                       union_arguments, union_of, write_verified)

#: clingo's optimisation per thread: ``bb`` (model-guided) improves the strategy from the starting point and
#: proves a bound only when it finishes; ``usc`` (core-guided) raises the lower bound as it finds cores;
#: ``both`` runs one thread of each.
OPT_STRATEGIES = {"bb": ("bb",), "usc": ("usc",), "both": ("bb", "usc")}
#: what is minimised: the strategic positions, or the wildcard lines up to symmetry (then the positions)
OBJECTIVES = ("positions", "lines")
_SLICE = 0.25  # seconds between checks for the deadline and Ctrl-C while clingo solves
_EVERY = 15.0  # seconds between progress reports


@dataclass
class Choices:
    """The proof graph from a root as the optimiser's facts, moves dominated by another's subset dropped.

    ``positions[p]`` is strategic position ``p`` (canonical attacker mask, defender mask);
    ``options[p]`` maps each of its known-winning moves (in that frame) to the positions it leads to next;
    ``start`` are the positions needed whatever is chosen.
    """

    positions: list[Key]
    start: list[int]
    options: list[dict[int, tuple[int, ...]]]
    lines: bool = False  # the facts say which wildcard lines each entry fits (rules/fewest-lines.lp)

    def facts(self, hint: dict[Key, int] | None = None, line_hint: Iterable[int] = ()) -> str:
        """The ASP facts ``start/1``, ``option/2``, ``next/3`` (a line per position), ``hint/2`` (a starting
        strategy's moves) and, with the lines objective, ``fits/3`` and ``line_hint/1`` (the lines it is
        written in).

        >>> print(Choices([(1, 2), (5, 10)], [0], [{21: (1,), 22: ()}, {63: ()}]).facts({(1, 2): 22}), end="")
        start(0).
        option(0,21). next(0,21,1). option(0,22).
        option(1,63).
        hint(0,22).
        """
        lines = [" ".join(f"start({p})." for p in self.start)]
        for p, moves in enumerate(self.options):
            lines.append(" ".join(f"option({p},{m})." + "".join(f" next({p},{m},{q})." for q in after)
                                  for m, after in sorted(moves.items())))
        if self.lines:
            lines.extend(self._fits())
        number = self.number
        if hint:
            lines.append(" ".join(f"hint({number[key]},{self.closest(number[key], move)})."
                                  for key, move in sorted(hint.items()) if key in number))
        if line_hint:
            lines.append(" ".join(f"line_hint({line})." for line in sorted(line_hint)))
        return "\n".join(lines) + "\n"

    @cached_property
    def number(self) -> dict[Key, int]:
        """Each position's number (its index in ``positions``)."""
        return {key: p for p, key in enumerate(self.positions)}

    @cached_property
    def fitting(self) -> list[dict[int, tuple[int, ...]]]:
        """For each position, each move's wildcard lines up to symmetry, numbered in the order first met."""
        number: dict[LineKey, int] = {}
        return [{m: tuple(number.setdefault(key, len(number)) for key in sorted(line_keys(*self.positions[p], m)))
                 for m in sorted(moves)} for p, moves in enumerate(self.options)]

    def _fits(self) -> list[str]:
        """``fits(P, M, L)`` facts, a line per position: the wildcard lines each entry fits."""
        return [" ".join(f"fits({p},{m},{line})." for m, lines in moves.items() for line in lines)
                for p, moves in enumerate(self.fitting)]

    def reached(self, pick: dict[int, int]) -> set[int]:
        """The positions reached from the start when position ``p`` plays ``pick[p]`` (its first move if absent)."""
        seen: set[int] = set()
        stack = list(self.start)
        while stack:
            p = stack.pop()
            if p not in seen:
                seen.add(p)
                moves, move = self.options[p], pick.get(p)
                stack.extend(moves[move if move in moves else next(iter(moves))])
        return seen

    def cover(self, pick: dict[int, int]) -> tuple[dict[int, int], set[int]]:
        """A strategy written in few wildcard lines, chosen greedily from the strategy ``pick`` (position ->
        move): each position it reaches may take any move whose next positions it reaches too, and the line
        holding the most positions not yet written is taken first; then each line whose positions all fit
        other lines taken is dropped, smallest first. Returns the moves of the positions now reached and the
        lines they are written in.

        >>> c = Choices([(1, 2), (1, 4)], [0, 1], [{5: (), 6: ()}, {5: (), 7: ()}])
        >>> c.cover({0: 6, 1: 7})    # X at 0, O at 1 or at 2: both play 5, in one line
        ({0: 5, 1: 5}, {0})
        """
        reach = self.reached(pick)
        members: dict[int, dict[int, int]] = defaultdict(dict)  # line -> position -> move
        for p in reach:
            for m, after in self.options[p].items():
                if reach.issuperset(after):
                    for line in self.fitting[p][m]:
                        members[line][p] = m
        held: dict[int, set[int]] = {}  # line taken -> the positions written in it
        by_line: dict[int, int] = {}
        heap = [(-len(fit), line) for line, fit in members.items()]
        heapq.heapify(heap)
        while len(by_line) < len(reach):
            size, line = heapq.heappop(heap)
            live = {p for p in members[line] if p not in by_line}
            if len(live) < -size:
                if live:
                    heapq.heappush(heap, (-len(live), line))
                continue
            held[line] = live
            by_line.update(dict.fromkeys(live, line))
        homes: dict[int, list[int]] = defaultdict(list)
        for line, fit in members.items():
            for p in fit:
                homes[p].append(line)
        for line in sorted(held, key=lambda line: (len(held[line]), line)):
            elsewhere = {p: next((home for home in homes[p] if home != line and home in held), None)
                         for p in held[line]}
            if None not in elsewhere.values():
                for p, home in elsewhere.items():
                    held[home].add(p)
                    by_line[p] = home
                del held[line]
        chosen = {p: members[line][p] for p, line in by_line.items()}
        now = self.reached(chosen)
        return {p: chosen[p] for p in now}, {by_line[p] for p in now}

    def closest(self, p: int, move: int) -> int:
        """``move`` at position ``p`` when kept, else a kept move whose next positions are a subset of its."""
        return move if move in self.options[p] else min(self.options[p], key=lambda m: len(self.options[p][m]))

    def size(self) -> tuple[int, int]:
        """The numbers of ``option`` and ``next`` facts."""
        return (sum(map(len, self.options)), sum(len(after) for moves in self.options for after in moves.values()))


def proof_graph_facts(graph: ProofGraph, start: frozenset[Key], report: Callable[[str], None] = lambda text: None,
                      deadline: float | None = None, lines: bool = False) -> Choices:
    """Every strategic position some choice reaches from ``start``, with its undominated known-winning moves
    (with ``lines``, every known-winning move: one leading to more positions may fit a line better).

    Raises :class:`TimeoutError` past ``deadline`` (``time.monotonic()``); ``report`` hears progress every 15 s.

    >>> from qubic_logic.notation import parse_patashnik
    >>> from qubic_logic.proof.minimise import _key
    >>> p = parse_patashnik("x2x1o6x14o20o")
    >>> g = ProofGraph({_key(p.x, p.o): 21})
    >>> proof_graph_facts(g, g.start(p.x, p.o)).options   # six winning moves, none leading on: one is kept
    [{21: ()}]
    """
    number: dict[Key, int] = {}
    positions: list[Key] = []
    options: list[dict[int, tuple[int, ...]]] = []

    def numbered(key: Key) -> int:
        if key not in number:
            number[key] = len(positions)
            positions.append(key)
            options.append({})
        return number[key]

    first = [numbered(key) for key in sorted(start)]
    reported = time.monotonic()
    done = 0
    while done < len(positions):
        clock = time.monotonic()
        if deadline is not None and clock > deadline:
            raise TimeoutError
        if clock - reported > _EVERY:
            report(f"proof graph: {done:,} of {len(positions):,} positions known so far")
            reported = clock
        kept: list[tuple[int, frozenset[Key]]] = []
        for move, after in sorted(graph.options(positions[done]).values(), key=lambda ma: (len(ma[1]), ma[0])):
            if lines or not any(mine <= after for _, mine in kept):
                kept.append((move, after))
        options[done] = {move: tuple(numbered(key) for key in sorted(after)) for move, after in kept}
        done += 1
    return Choices(positions, first, options, lines)


@dataclass
class Optimum:
    """The smallest strategy found, how it was found and how far from the optimum it may be."""

    strategy: StrategyDictionary
    size: int
    lower: int | None = None  # a proven lower bound on the objective of any strategy over these proofs
    local: int = 0  # the local search's size (the starting point)
    proven: bool = False  # the size is the optimum over these proofs
    stopped: str | None = None  # "time limit" or "interrupted" when stopped early
    models: int = 0
    seconds: dict[str, float] = field(default_factory=dict)  # by phase
    facts: tuple[int, int, int] = (0, 0, 0)  # positions, options, next facts
    lines: int | None = None  # with the lines objective: the wildcard lines of an exact cover of the strategy

    @property
    def value(self) -> int:
        """What was minimised: the wildcard lines (the lines objective), else the strategic positions."""
        return self.size if self.lines is None else self.lines

    @property
    def gap(self) -> float | None:
        """(value - lower bound) / value, or None without a bound."""
        return None if self.lower is None else (self.value - self.lower) / self.value

    def summary(self) -> str:
        """One line: the size (or lines), the bound and the gap."""
        what = (f"{self.size:,} strategic positions" if self.lines is None else
                f"{self.lines:,} wildcard lines ({self.size:,} strategic positions)")
        if self.proven:
            return f"{what}: the optimum over these proofs (gap 0)"
        bound = "no lower bound" if self.lower is None else f"lower bound {self.lower:,}, gap {self.gap:.1%}"
        return f"{what}; {bound}"


def _solve(choices: Choices, hint: dict[Key, int], line_hint: set[int], opt_strategy: str, deadline: float | None,
           report: Callable[[str], None]) -> tuple[dict[int, int] | None, int | None, str | None, int, int | None]:
    """Run clingo on the facts: the best model's choice (position number → move), the proven lower bound (the
    best model's cost when the search finished), why it stopped early (or None), the number of models and the
    best model's cost (its lines with ``choices.lines``, else its positions)."""
    threads = OPT_STRATEGIES[opt_strategy]
    ctl = clingo.Control(["--stats", f"--parallel-mode={len(threads)}"])
    for solver, strategy in zip(ctl.configuration.solver, threads):
        solver.opt_strategy = strategy
        solver.heuristic = "Domain"  # the hint's moves (and lines) first (rules/smallest-strategy.lp)
    ctl.load(str(rule_path("smallest-strategy", "lp")))
    if choices.lines:
        ctl.load(str(rule_path("fewest-lines", "lp")))
    ctl.add("base", [], choices.facts(hint, line_hint))
    unit = "wildcard lines" if choices.lines else "strategic positions"
    ctl.ground([("base", [])])
    best: list[dict[int, int]] = []
    costs: list[int] = []

    def on_model(model: clingo.Model) -> None:
        best[:] = [{s.arguments[0].number: s.arguments[1].number for s in model.symbols(shown=True)}]
        costs.append(model.cost[0])

    stopped = None
    began = reported = time.monotonic()
    shown = 0
    with ctl.solve(on_model=on_model, async_=True) as handle:
        try:
            while not handle.wait(_SLICE):
                clock = time.monotonic()
                if len(costs) > shown:
                    shown = len(costs)
                    report(f"model {shown:,}: {costs[-1]:,} {unit}")
                if clock - reported > _EVERY:
                    report(f"searching for {clock - began:.0f} s: "
                           + (f"best {costs[-1]:,}" if costs else "no model yet"))
                    reported = clock
                if deadline is not None and clock > deadline:
                    stopped = "time limit"
                    handle.cancel()
                    break
        except KeyboardInterrupt:
            stopped = "interrupted"
            handle.cancel()
        result = handle.get()
    if len(costs) > shown:
        report(f"model {len(costs):,}: {costs[-1]:,} {unit}")
    lower = ctl.statistics["summary"].get("lower")
    bound = costs[-1] if result.exhausted and result.satisfiable else int(lower[0]) if lower and lower[0] else None
    return (best[0] if best else None), bound, stopped, len(costs), (costs[-1] if costs else None)


def optimised(dictionary: StrategyDictionary, root: Position | None = None, *, time_limit: float | None = None,
              opt_strategy: str = "usc", sweeps: int = SWEEPS, leaf_nodes: int = 200_000,
              report: Callable[[str], None] = lambda text: None, facts_out: Path | None = None,
              objective: str = "positions", kept: Iterable[Key] = ()) -> Optimum:
    """The smallest strategy clingo finds over ``dictionary``'s proof graph from ``root`` (default: its own).

    ``objective``: ``positions`` (the fewest strategic positions) or ``lines`` (the fewest wildcard lines
    up to symmetry, rules/fewest-lines.lp, then the fewest positions among those).

    First the local search (:func:`~.minimise.smallest`, ``sweeps``), then the proof graph's facts (written to
    ``facts_out`` too, for clingo on the command line), then clingo (``opt_strategy``: ``bb``, ``usc`` or
    ``both``) from the local search's strategy; ``kept`` positions keep the dictionary's move. ``time_limit`` (seconds) bounds all three; past it, or on Ctrl-C,
    the smallest strategy found so far is kept. Not yet verified: callers verify before they trust or write it.
    """
    if opt_strategy not in OPT_STRATEGIES:
        raise QubicError(f"optimisation strategy {opt_strategy!r}; expected one of {', '.join(OPT_STRATEGIES)}")
    if objective not in OBJECTIVES:
        raise QubicError(f"objective {objective!r}; expected one of {', '.join(OBJECTIVES)}")
    root = root or dictionary.root
    attacker = root.to_move
    deadline = None if time_limit is None else time.monotonic() + time_limit
    clock = time.monotonic()
    graph = ProofGraph(canonical_moves(dictionary), leaf_nodes, kept)
    start = graph.start(root.mask(attacker), root.mask(other(attacker)))
    stops: list[str] = []
    local = smallest(graph, start, sweeps, report=report, stops=stops,
                     time_limit=None if deadline is None else max(deadline - time.monotonic(), 1e-9))
    seconds = {"local search": time.monotonic() - clock}
    found = Optimum(chosen_strategy(local, attacker, dictionary), len(local), local=len(local), seconds=seconds)
    report(f"local search: {len(local):,} strategic positions")
    if stops:
        found.stopped = stops[0]
        return found
    clock = time.monotonic()
    try:
        choices = proof_graph_facts(graph, start, report, deadline, lines=objective == "lines")
    except (TimeoutError, KeyboardInterrupt) as stop:
        found.stopped = "time limit" if isinstance(stop, TimeoutError) else "interrupted"
        report(f"{found.stopped} while building the proof graph: keeping the local search's strategy")
        return found
    seconds["proof graph"] = time.monotonic() - clock
    found.facts = (len(choices.positions), *choices.size())
    report(f"proof graph: {found.facts[0]:,} positions, {found.facts[1]:,} moves, {found.facts[2]:,} next facts")
    hint, line_hint = local, set()
    if choices.lines:  # the starting point: the local search's strategy re-chosen for few lines, greedily
        clock = time.monotonic()
        number = choices.number
        pick, line_hint = choices.cover({number[key]: choices.closest(number[key], move)
                                         for key, move in local.items() if key in number})
        hint = {choices.positions[p]: move for p, move in pick.items()}
        found.strategy = chosen_strategy(hint, attacker, dictionary)
        found.size, found.lines = len(hint), len(line_hint)
        seconds["greedy cover"] = time.monotonic() - clock
        report(f"greedy cover: {found.lines:,} wildcard lines ({found.size:,} strategic positions)")
    if facts_out is not None:
        where = format_patashnik(root) or "the empty board"
        write_atomically(facts_out, f"% The proof graph from {where} as facts for rules/smallest-strategy.lp "
                         "(python -m qubic_logic.proof.optimise); hint/2 (and line_hint/1): the starting "
                         "strategy.\n" + choices.facts(hint, line_hint))
    clock = time.monotonic()
    pick, found.lower, found.stopped, found.models, cost = _solve(choices, hint, line_hint, opt_strategy, deadline,
                                                                  report)
    seconds["clingo"] = time.monotonic() - clock
    if pick is not None and cost is not None and (cost, len(pick)) < (found.value, found.size):
        chosen = {choices.positions[p]: move for p, move in pick.items()}
        found.strategy, found.size = chosen_strategy(chosen, attacker, dictionary), len(chosen)
        found.lines = cost if choices.lines else None
    found.proven = found.lower is not None and found.lower >= found.value
    report(f"clingo ({opt_strategy}, {seconds['clingo']:.1f} s): {found.summary()}")
    return found


def main(argv: list[str] | None = None) -> int:
    """``python -m qubic_logic.proof.optimise OUT DICTIONARY... [--time-limit S] [--opt-strategy usc|bb|both]``.

    Writes the verified smallest strategy found; returns the exit status.
    """
    parser = union_arguments(
        "python -m qubic_logic.proof.optimise",
        "Choose the smallest strategy over the union of verified strategies from one root, by clingo.",
        "stop after S seconds in all, keeping the smallest strategy found")
    parser.add_argument("--opt-strategy", choices=sorted(OPT_STRATEGIES), default="usc",
                        help="clingo's optimisation: usc (core-guided) raises the lower bound, bb (model-guided) "
                             "improves the strategy, both runs one of each in two threads (default usc)")
    parser.add_argument("--objective", choices=OBJECTIVES, default="positions",
                        help="the fewest strategic positions (default), or the fewest wildcard lines up to symmetry "
                             "(then the fewest positions among those)")
    parser.add_argument("--facts", type=Path, metavar="FILE",
                        help="also write the proof graph as facts for rules/smallest-strategy.lp (and, with "
                             "--objective lines, rules/fewest-lines.lp)")
    args = parsed(parser, argv)
    if isinstance(args, int):
        return args
    found: list[Optimum] = []

    def build() -> StrategyDictionary:
        if args.facts is not None and not args.facts.parent.is_dir():
            raise QubicError(f"--facts {args.facts}: {args.facts.parent} is not a folder; expected a file in an "
                             "existing folder")
        union, root, kept = union_of(args, "Smallest strategy clingo found (qubic-logic: python -m "
                                     "qubic_logic.proof.optimise) over the union")
        found.append(optimised(union, root, time_limit=args.time_limit, opt_strategy=args.opt_strategy,
                               sweeps=args.sweeps, report=lambda text: print(text, flush=True),
                               facts_out=args.facts, objective=args.objective, kept=kept))
        return found[0].strategy

    status, result, v = write_verified(Path(args.out), build, "chosen strategy")
    if status == 0:
        o = found[0]
        phases = ", ".join(f"{name} {s:.1f} s" for name, s in o.seconds.items())
        print(f"{args.out}: VERIFIED, {o.summary()} (local search {o.local:,}; "
              f"{o.stopped + ', ' if o.stopped else ''}{phases})")
    return status


if __name__ == "__main__":
    sys.exit(main())
