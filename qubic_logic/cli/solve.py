"""``qubic solve POSITION``: does the side to move force a win? (proof-number search)

Writes the winning strategy as a dictionary in Patashnik's format with
``-o FILE``; ``qubic verify dictionary FILE`` checks it. ``--table FILE``
keeps an unsettled search's work: the same command run again goes on from it.
"""

from __future__ import annotations

import argparse


from ..errors import DataFormatError, QubicError
from ..saving import check_writable, write_atomically
from ..proof.solve import solve
from ..proof.split import phase_summary, polish, solve_split, time_left
from ..wording import counted
from ._common import cell, check_output, executor_args, executor_from, json_arg, position_arg, positive_int, print_json, seconds
from ._terminal import say, console as terminal_console


def _saved_table(args: argparse.Namespace) -> bytes | None:
    """The table ``--table`` names, if it exists yet (checked writable: the search's table goes there)."""
    if args.table is None:
        return None
    if args.split:
        raise QubicError("--table goes with one search; --split runs one search per reply class")
    path = check_writable(args.table)
    if not path.exists():
        return None
    try:
        return path.read_bytes()
    except OSError as exc:
        raise QubicError(f"cannot read {path}: {exc.strerror or exc}") from None


def run(args: argparse.Namespace) -> int:
    args.position.require_in_play()
    check_output(args.output, args.table, names=("--output", "--table"))
    table = _saved_table(args)
    err = terminal_console(stderr=True)
    with err.status("solving…") as status:
        if args.split:
            with executor_from(args) as executor:
                result = solve_split(args.position, move=args.move, time_limit=args.time_limit,
                                     memory_limit=args.memory_limit, executor=executor,
                                     progress=lambda done, total, n: status.update(
                                         f"solving… {done} of {total} reply classes, {n:,} nodes"))
        else:
            if table is not None:
                status.update(f"loading the search table {args.table}…")
            try:
                result = solve(args.position, time_limit=args.time_limit, memory_limit=args.memory_limit,
                               core=args.engine, method=args.solver, node_limit=args.node_limit, move=args.move,
                               table=table, save_table=args.table is not None,
                               progress=lambda n, pn, dn: status.update(f"solving… {n:,} nodes, proof number "
                                                                        f"{pn}, disproof number {dn}"))
            except DataFormatError as exc:
                raise DataFormatError(f"{args.table}: {exc}") from None
            if result.table is not None:
                write_atomically(args.table, result.table)
            if result.strategy is not None and result.strategy_size:
                status.update(f"verifying and minimising {result.strategy_size:,} strategic positions…")
                extracted = result.strategy_size
                # --time-limit bounds the whole command: the minimiser gets what the search left
                result.strategy = polish(result.strategy, args.position, result.extra, jobs=args.jobs,
                                         time_limit=time_left(args.time_limit, result.seconds),
                                         report=lambda text: status.update(f"minimising: {text}"))
                result.extra["extracted"] = extracted
                if result.strategy is None:  # never expected: the search's own proof failed verification
                    result.status, result.stopped_by = "unknown", f"strategy {result.extra['verified']}"
    if args.output and result.strategy is not None:
        result.strategy.save(args.output)
    if args.json:
        out = result.to_json()
        out["output"] = args.output if args.output and result.strategy is not None else None
        out["table"] = {"path": args.table, "loaded": result.extra.get("loaded", 0),
                        "saved": result.table is not None} if args.table else None
        print_json(out)
        return 0
    side = args.position.to_move.upper()
    if result.status == "not won" and args.move is not None and not args.split:
        say(f"{side} to move: {args.move} does not force a win (proven) [{counted(result.nodes, 'node')}, "
              f"{result.seconds:.2f} s]")
    elif result.status == "won":
        say(f"{side} to move WINS, starting with {result.move}: {result.strategy_size:,} strategic positions "
              f"[{result.nodes:,} nodes, {result.seconds:.2f} s]")
        if "extracted" in result.extra:
            say(f"strategy: {result.extra['extracted']:,} strategic positions extracted from the proof, "
                  f"{result.strategy_size:,} after minimising; {result.extra['verified'].upper()}")
            if "phases" in result.extra:
                say(f"minimising pass: {phase_summary(result.extra['phases'])}")
        if args.output:
            say(f"strategy written to {args.output}; check it with: qubic verify dictionary {args.output}")
    elif result.status == "not won":
        say(f"{side} to move cannot force a win (proven) [{result.nodes:,} nodes, {result.seconds:.2f} s]")
    elif "replies" in result.extra:  # --split: say how far the reply classes got
        won = sum(status == "won" for status in result.extra["units"].values())
        say(f"{side} to move: not solved ({result.stopped_by}) [{result.seconds:.2f} s]; first move "
              f"{result.move}: {won} of {result.extra['replies']} reply classes proven won, "
              f"{len(result.extra['units']) - won} finished unproven")
    else:
        say(f"{side} to move: not solved ({result.stopped_by}) [{result.nodes:,} nodes, {result.seconds:.2f} s]; "
              f"most promising move {result.move}, proof number {result.proof_number}, "
              f"disproof number {result.disproof_number}")
    if result.extra.get("loaded"):
        say(f"went on from {result.extra['loaded']:,} entries of the search table {args.table}")
    if result.table is not None:
        say(f"search table saved to {args.table} ({len(result.table) / 1e6:,.1f} MB); the same command goes on "
              "from it")
    return 130 if result.stopped_by == "interrupted" else 0  # Ctrl-C: the partial result above, status 130


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("solve")
    position_arg(parser)
    parser.add_argument("--time-limit", type=seconds, default=None, metavar="S",
                        help="seconds before giving up; the strategy's minimising pass gets what the search "
                             "leaves and keeps the smallest strategy found by then")
    parser.add_argument("--memory-limit", type=positive_int, default=None, metavar="MB",
                        help="transposition table size in megabytes (default 1024; native: entries replaced when "
                             "full; python: the search stops at the cap; with --split shared by the workers)")
    parser.add_argument("-o", "--output", metavar="DICT", default=None,
                        help="write the winning strategy here (Patashnik's dictionary format)")
    parser.add_argument("--split", action="store_true",
                        help="fix the first move, solve each class of replies in its own search, in --jobs "
                             "worker processes (for early positions such as the empty board)")
    parser.add_argument("--move", type=cell, default=None, metavar="CELL",
                        help="the first move: with --split, the move whose reply classes are solved (default: "
                             "the most promising); without, prove or refute this move alone (native solver)")
    executor_args(parser, "with --split: ")
    parser.add_argument("--table", metavar="FILE", default=None,
                        help="go on from the search table saved in FILE by an earlier run on this position (and "
                             "--move), and save the table there when the position is left unsettled (native solver)")
    parser.add_argument("--node-limit", type=positive_int, default=None, metavar="N",
                        help="positions to evaluate before giving up")
    parser.add_argument("--solver", default="auto", choices=["auto", "native", "python"],
                        help="search (default auto: the native df-pn search when built; python: the reference)")
    parser.add_argument("--engine", default="auto", choices=["auto", "native", "python"],
                        help="core for threat sequences (default auto: native when built)")
    json_arg(parser)
    parser.set_defaults(func=run)
