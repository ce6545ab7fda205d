"""``qubic verify dictionary FILE``: does the strategy win against every reply?

``qubic verify certificate FILE --check-with asp`` re-checks a saved
certificate's witnesses with the declarative rules; ``qubic verify strategy
SOURCE`` verifies a strategy written as rules, a dictionary or a player, or
refutes it with a game.
"""

from __future__ import annotations

import argparse
import os
import time
from contextlib import nullcontext

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ..errors import Interrupted, QueryTimeout
from ..notation import CellNames, format_mcdaniel, format_patashnik, root_of
from ..saving import line_safe, write_atomically
from ..shipped import DICTIONARIES
from ..strategy.certificate import certificate_text, load_certificate, write_certificate
from ..strategy.formats import read_dictionary
from ..executor import make_executor
from ..strategy.judge import Judgement, judge
from ..strategy.judge_jobs import judge_on
from ..strategy.sources import CALL_LIMIT, load_strategy
from ..strategy.verify import RULES, Verification, verify
from ..strategy.witness_check import CHECKERS, check_witnesses
from ..supervisor import DEFAULT_MEMORY_MB
from ..wording import counted
from ._common import executor_args, memory_limit_arg
from ._common import _position, check_output, deadline_of, json_arg, positive_int, print_json, seconds
from ._terminal import say, console as terminal_console

RULE_TEXT = {"win": "(1) win now", "block": "(2) block a three", "dictionary": "(3) dictionary move",
             "forced": "(4) forced win"}


def _progress_bar(console: Console) -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=console, transient=True, disable=not console.is_terminal)


class _Tasks:
    """A rich progress bar per phase, fed by the (phase, done, total) callbacks."""

    def __init__(self, bar: Progress) -> None:
        self.bar = bar
        self.tasks: dict[str, int] = {}

    def __call__(self, phase: str, done: int, total: int) -> None:
        if phase not in self.tasks:
            self.tasks[phase] = self.bar.add_task(phase, total=total)
        self.bar.update(self.tasks[phase], completed=done, total=total)


def _check(witnesses, args, tasks, time_limit: float | None) -> dict:
    """Re-check the witnesses; a check stopped by the time limit or Ctrl-C reports what it got through."""
    start = time.monotonic()
    stopped = None
    try:
        rejected = check_witnesses(witnesses, args.check_with, jobs=args.jobs or os.cpu_count() or 1,
                                   time_limit=time_limit, progress=tasks,
                                   memory_limit=getattr(args, "memory_limit", DEFAULT_MEMORY_MB))
        checked = len(witnesses)
    except (QueryTimeout, Interrupted) as exc:
        stopped = "interrupted" if isinstance(exc, Interrupted) else "time limit"
        checked, rejected = exc.partial["checked"], exc.partial["rejected"]
    return {"checker": args.check_with, "witnesses": len(witnesses), "checked": checked, "stopped": stopped,
            "rejected": len(rejected),
            "first_rejected": [{"position": format_patashnik(witnesses[i].position),
                                "witness": list(witnesses[i].sequence), "step": step, "reason": reason}
                               for i, step, reason in rejected[:10]],
            "seconds": round(time.monotonic() - start, 3)}


def _print_verification(v: Verification, source: str) -> None:
    say(f"{source}: {v.verdict.upper()} — {v.root.to_move.upper()} to move at "
          f"{format_patashnik(v.root) or 'the empty board'} wins by the dictionary"
          if v.verdict == "verified" else f"{source}: {v.verdict.upper()}")
    say(f"  {counted(v.positions, 'position')} up to symmetry with {v.root.to_move.upper()} to move "
          f"({v.defender_positions:,} after its move), {v.seconds:.2f} s on {v.jobs} "
          f"{'core' if v.jobs == 1 else 'cores'} [{v.engine}], "
          f"{v.positions / max(v.seconds, 1e-9):,.0f} positions/s")
    for rule in RULES:
        say(f"  {RULE_TEXT[rule]:<22} {v.by_rule[rule]:>9,}")
    longest = v.longest_witness
    if longest:
        say(f"  longest forced sequence needed: {counted(v.longest, 'move')}, at {format_patashnik(longest.position)}")
    if v.unsettled:
        say(f"  {v.unsettled:,} rule-(4) positions not settled before the run stopped (time limit or Ctrl-C)")
    for f in v.failures[:20]:
        say(f"  FAILS at {format_patashnik(f.position) or 'the empty board'}: {f.reason}; reached by moves "
              f"{'moves:' + ','.join(map(str, f.moves)) if f.moves else '(the root)'}")
    if len(v.failures) > 20:
        say(f"  ... and {len(v.failures) - 20} more failures (see --json)")


def run_dictionary(args: argparse.Namespace) -> int:
    check_output(args.certificate)
    deadline = deadline_of(args)  # reading the file counts
    err = terminal_console(stderr=True)
    with _progress_bar(err) as bar:
        tasks = _Tasks(bar)
        try:
            dictionary = read_dictionary(args.file, deadline=deadline,
                                         progress=lambda done, size: tasks("reading", done, size))
        except QueryTimeout as exc:
            return _stopped_reading(args, exc)
        root = args.root if args.root is not None else dictionary.root
        v = verify(dictionary, root, engine=args.engine, jobs=args.jobs, time_limit=_left(deadline),
                   progress=tasks)
        check = _check(v.witnesses, args, tasks, args.time_limit) if args.check_with else None
    if args.certificate:
        write_certificate(v, args.certificate, args.file)
    if args.json:
        out = v.to_json()
        if check:
            out["check"] = check
        if args.certificate:
            out["certificate"] = args.certificate
        print_json(out)
    else:
        _print_verification(v, line_safe(args.file))
        if check:
            _print_check(check)
        if args.certificate:
            say(f"  certificate: {len(v.witnesses):,} forced wins written to {args.certificate}")
    return 0 if v.verdict == "verified" and not (check and (check["rejected"] or check["stopped"])) else 1


def _stopped_reading(args: argparse.Namespace, exc: QueryTimeout) -> int:
    """The report of a verification whose time limit came while the file was being read: INCOMPLETE, status 1."""
    lines = exc.partial["lines"]
    if args.json:
        print_json({"verdict": "incomplete", "stopped": "time limit", "reading": {"lines": lines}, "positions": 0})
    else:
        say(f"{line_safe(args.file)}: INCOMPLETE — the time limit came while reading it, at line {lines:,}; "
            "nothing verified")
    return 1


def _print_check(check: dict) -> None:
    verdict = "all pass" if not check["rejected"] else f"{check['rejected']:,} REJECTED"
    if check["stopped"]:
        say(f"  re-checked {check['checked']:,} of {check['witnesses']:,} witnesses with {check['checker']}: "
              f"INCOMPLETE ({check['stopped']}), {check['rejected']:,} rejected so far ({check['seconds']:.1f} s)")
    else:
        say(f"  re-checked {check['witnesses']:,} witnesses with {check['checker']}: {verdict} "
              f"({check['seconds']:.1f} s)")
    for r in check["first_rejected"]:
        at = f"step {r['step']}: " if r["step"] else ""
        say(f"    {r['position'] or 'the empty board'}, witness {CellNames().cells(r['witness'])}: {at}{r['reason']}")


def run_certificate(args: argparse.Namespace) -> int:
    deadline = deadline_of(args)
    witnesses = load_certificate(args.file)
    with _progress_bar(terminal_console(stderr=True)) as bar:
        check = _check(witnesses, args, _Tasks(bar), _left(deadline))
    if args.json:
        print_json(check)
    else:
        say(f"{line_safe(args.file)}:")
        _print_check(check)
    if check["stopped"] == "interrupted":
        return 130
    return 0 if not check["rejected"] and not check["stopped"] else 1


def _left(deadline: float | None) -> float | None:
    """Seconds left before ``deadline`` (the limit covers loading too); at least a moment."""
    return None if deadline is None else max(deadline - time.monotonic(), 0.01)


STRATEGY_RULES = {"win": "(1) win now", "block": "(2) block a three", "strategy": "(3) strategy move",
                  "forced": "(4) forced win"}


def run_strategy(args: argparse.Namespace) -> int:
    deadline = deadline_of(args)
    root_text = args.root or "empty"
    root, root_moves = root_of(root_text)
    check_output(args.certificate, args.refutation)
    console = terminal_console(stderr=True)
    with _progress_bar(console) if console.is_terminal else nullcontext() as bar:  # an error stays one line
        j = _judge(args, root, root_moves, _Tasks(bar) if bar else None, deadline)
    written = []
    if args.certificate and j.verdict == "verified":
        j.certificate().save(args.certificate)
        write_atomically(f"{args.certificate}.witnesses", certificate_text(
            j.witnesses, [f"qubic-logic certificate: the rule (4) positions of {args.source}",
                          "Each line: a position and its forced win (see qubic verify certificate)."]))
        written.append(args.certificate)
    if args.refutation and j.refutation is not None:
        write_atomically(args.refutation, j.refutation.game_text + "\n")
        written.append(args.refutation)
    if args.json:
        print_json({**j.to_json(), "written": written})
    else:
        _print_judgement(j, args)
    return 0 if j.verdict == "verified" else 1


def _print_judgement(j: Judgement, args: argparse.Namespace) -> None:
    side, source = j.side.upper(), line_safe(j.source)
    where = f"{'from the empty board' if not j.root.count else 'from ' + format_patashnik(j.root)}"
    mode = "by the strategy alone" if j.pure else "by rules (1)-(4)"
    if j.verdict == "verified":
        say(f"{source}: VERIFIED — {side} wins {where}, {mode}")
    elif j.verdict == "refuted":
        r = j.refutation
        outcome = "a draw" if r.result == "draw" else "no move" if r.result == "no move" else f"{r.result.upper()} wins"
        say(f"{source}: REFUTED — as {side} {where} ({mode}): {outcome} after {counted(r.length, 'move')} "
              f"({'the shortest game' if j.shortest_proven else 'the shortest game found'})")
        say(f"  game: {r.game_text}  ({r.reason})")
        if args.refutation:
            say(f"  written to {args.refutation}: replay with qubic play --load {args.refutation}, "
                  f"or qubic show \"$(cat {args.refutation})\"")
    else:
        say(f"{source}: UNKNOWN — stopped ({j.stopped}) as {side} {where} ({mode})")
        say(f"  {j.open:,} opponent choices left open; most promising line: "
              f"{format_mcdaniel(list(j.promising)) if j.promising else 'none'}")
    say(f"  {counted(j.positions, 'position')} up to symmetry with {side} to move ({j.defender_positions:,} after its move), "
          f"{j.seconds:.2f} s on {j.jobs} {'worker' if j.jobs == 1 else 'workers'}")
    for rule in STRATEGY_RULES:
        say(f"  {STRATEGY_RULES[rule]:<22} {j.by_rule[rule]:>9,}")
    if j.verdict == "verified" and args.certificate:
        say(f"  certificate: {len(j.choices):,} strategic moves written to {args.certificate} (check with "
              f"qubic verify dictionary {args.certificate}), {len(j.witnesses):,} forced wins to "
              f"{args.certificate}.witnesses")


def _judge(args: argparse.Namespace, root, root_moves, progress, deadline: float | None) -> Judgement:
    """The judgement in this process (``--jobs 1``) or on the executor's workers; a rule file always
    runs in a supervised worker (its time, call and memory limits; Ctrl-C ends it at once)."""
    options = dict(side=args.side, root_moves=root_moves, pure=args.pure, progress=progress)
    if args.jobs == 1 and args.executor == "local" and not args.scheduler:
        strategy = load_strategy(args.source, args.call_limit, supervised=True, load_limit=_left(deadline),
                                 memory_limit=args.memory_limit)
        try:
            return judge(strategy, root, time_limit=_left(deadline), **options)
        finally:
            strategy.close()
    # workers start fresh interpreters: each opens its own clingo or SWI-Prolog session
    with make_executor(args.executor, args.jobs, scheduler=args.scheduler, start_method="spawn") as executor:
        return judge_on(executor, args.source, root, call_limit=args.call_limit, time_limit=_left(deadline),
                        memory_limit=args.memory_limit, **options)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--jobs", type=positive_int, default=None, metavar="J",
                        help="worker processes (default: every core)")
    parser.add_argument("--time-limit", type=seconds, default=None, metavar="S", help="seconds before giving up")
    json_arg(parser)


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("verify")
    what = parser.add_subparsers(dest="what", metavar="WHAT", required=True)

    d = what.add_parser("dictionary", help="does the side to move win by rules (1)-(4) with this dictionary?")
    d.add_argument("file", metavar="FILE", help="a dictionary in Patashnik's or the wildcard format "
                   "(detected; force one with wildcard:FILE or patashnik:FILE), or a shipped dictionary's "
                   f"name ({', '.join(DICTIONARIES)})")
    d.add_argument("--root", type=_position, default=None, metavar="POSITION",
                   help="where play starts (default: the file's 'root:' header line, else the empty board)")
    d.add_argument("--check-with", choices=CHECKERS, default=None,
                   help="re-check every forced-win witness with the ASP or Prolog rules (or the referee)")
    d.add_argument("--certificate", metavar="OUT", default=None,
                   help="write every rule-(4) position with its witness to OUT")
    d.add_argument("--engine", choices=["auto", "native", "python"], default="auto",
                   help="traversal and forced-win search (default auto: native when built)")
    _common(d)
    d.set_defaults(func=run_dictionary)

    s = what.add_parser("strategy", help="verify a strategy (rules, dictionary or player), or refute it with a game")
    s.add_argument("source", metavar="SOURCE",
                   help="an ASP file (.lp) or Prolog file (.pl) defining play/1, a dictionary file, "
                        "a shipped strategy's name (qubic list strategies) or player:NAME[:key=value,...]")
    s.add_argument("--side", choices=["x", "o"], default=None,
                   help="the strategy's side (default: the side to move at the root)")
    s.add_argument("--root", default=None, metavar="POSITION",
                   help="where play starts: a move list (players see it) or any position (default: empty)")
    s.add_argument("--pure", action="store_true",
                   help="the strategy alone chooses every move (no win, block or forced-win rules)")
    s.add_argument("--time-limit", type=seconds, default=600.0, metavar="S",
                   help="seconds for the whole search (default 600)")
    s.add_argument("--call-limit", type=seconds, default=CALL_LIMIT, metavar="S",
                   help=f"seconds for one call of a rule strategy (default {CALL_LIMIT:g})")
    s.add_argument("--certificate", metavar="OUT", default=None,
                   help="when verified: write the strategy's moves as a dictionary to OUT, its forced wins to "
                        "OUT.witnesses")
    s.add_argument("--refutation", metavar="OUT", default=None,
                   help="when refuted: write the game (McDaniel move list) to OUT")
    memory_limit_arg(s)
    executor_args(s, jobs=1)  # one process by default: workers re-explore the positions their subtrees share
    json_arg(s)
    s.set_defaults(func=run_strategy)

    c = what.add_parser("certificate", help="re-check the witnesses of a certificate")
    c.add_argument("file", metavar="FILE", help="a certificate written by --certificate")
    c.add_argument("--check-with", choices=CHECKERS, default="asp", help="the checker (default asp)")
    memory_limit_arg(c)
    _common(c)
    c.set_defaults(func=run_certificate)

