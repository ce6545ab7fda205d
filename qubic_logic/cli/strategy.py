"""``qubic strategy convert IN OUT --to FORMAT``, ``qubic strategy compress IN -o OUT``, ``qubic strategy complete``.

Dictionaries in Patashnik's or O'Dwyer's wildcard format (detected, or
forced with ``wildcard:FILE`` / ``patashnik:FILE``) are converted between
the formats, compressed into few wildcard lines up to symmetry, or written
as ASP or Prolog rules that ``qubic verify strategy`` checks.
"""

from __future__ import annotations

import argparse
import sys
import time

from ..errors import Interrupted
from ..strategy.complete import complete_dictionary
from ..strategy.compress import compressed
from ..strategy.dictionary import StrategyDictionary
from ..strategy.formats import FORMATS, convert, read_dictionary
from ..saving import line_safe
from ..strategy.wildcard import save_wildcard
from ._common import check_output, json_arg, print_json
from ._terminal import console as terminal_console, say


def run_convert(args: argparse.Namespace) -> int:
    check_output(args.out)
    start = time.monotonic()
    dictionary = convert(args.source, args.out, args.to)
    if args.json:
        print_json({"source": args.source, "out": args.out, "format": args.to, "entries": len(dictionary),
                    "seconds": round(time.monotonic() - start, 3)})
    else:
        print(f"{line_safe(args.out)}: {len(dictionary):,} strategic positions of {line_safe(args.source)} written as "
              f"{args.to}")
    return 0


def run_compress(args: argparse.Namespace) -> int:
    check_output(args.out)
    start = time.monotonic()
    dictionary = read_dictionary(args.source)
    report = (lambda text: None) if args.json else (lambda text: print(f"  {text}", file=sys.stderr, flush=True))
    lines = compressed(dictionary, report)
    header = [f"{args.source} compressed by qubic strategy compress: {len(dictionary)} strategic positions "
              f"in {len(lines)} wildcard lines", *dictionary.header]
    save_wildcard(args.out, lines, header)
    seconds = round(time.monotonic() - start, 3)
    if args.json:
        print_json({"source": args.source, "out": args.out, "entries": len(dictionary), "lines": len(lines),
                    "seconds": seconds})
    else:
        print(f"{line_safe(args.out)}: {len(dictionary):,} strategic positions in {len(lines):,} wildcard lines "
              f"({seconds:.1f} s); check with qubic verify dictionary {line_safe(args.out)}")
    return 0


def run_complete(args: argparse.Namespace) -> int:
    check_output(args.out)
    start = time.monotonic()
    dictionary = read_dictionary(args.source)
    from .verify import _progress_bar, _Tasks  # the verifier's progress display, loaded for this command only

    with _progress_bar(terminal_console(stderr=True)) as bar:
        complete = complete_dictionary(dictionary, progress=_Tasks(bar))  # Ctrl-C: says how far it got
    header = [f"Every X decision of {args.source} with no forced-win routine (qubic strategy complete): "
              f"{len(complete)} positions up to symmetry", *dictionary.header]
    lines = None
    if args.to == "wildcard":
        report = (lambda text: None) if args.json else (lambda text: say(f"  {text}", file=sys.stderr, flush=True))
        try:
            lines = compressed(complete, report)
        except KeyboardInterrupt:  # the verification's work is kept: the list, as it is
            StrategyDictionary(complete, header, dictionary.separator).save(args.out)
            raise Interrupted(f"stopped while compressing; the {len(complete):,} decisions are written to "
                              f"{line_safe(args.out)} uncompressed, in Patashnik's format (every reader takes it; "
                              f"qubic strategy compress {line_safe(args.out)} -o FILE compresses it)") from None
        header[0] += f", {len(lines)} wildcard lines"
        save_wildcard(args.out, lines, header)
    else:
        StrategyDictionary(complete, header, dictionary.separator).save(args.out)
    seconds = round(time.monotonic() - start, 3)
    if args.json:
        print_json({"source": args.source, "out": args.out, "entries": len(dictionary), "decisions": len(complete),
                    "lines": len(lines) if lines is not None else None, "seconds": seconds})
    else:
        compact = f", {len(lines):,} wildcard lines" if lines is not None else ""
        print(f"{line_safe(args.out)}: {len(complete):,} X decisions up to symmetry ({len(dictionary):,} strategic "
              f"positions and the steps of the forced wins){compact} ({seconds:.1f} s)")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("strategy")
    what = parser.add_subparsers(dest="what", metavar="WHAT", required=True)

    c = what.add_parser("convert", help="write a dictionary in another format")
    c.add_argument("source", metavar="IN", help="a dictionary in Patashnik's or the wildcard format (detected; "
                                                "force one with wildcard:FILE or patashnik:FILE)")
    c.add_argument("out", metavar="OUT", help="the file to write")
    c.add_argument("--to", choices=FORMATS, required=True,
                   help="patashnik: one entry per line; wildcard: entries merged in their own orientation; "
                        "asp, prolog: the compressed strategy as rules for qubic verify strategy")
    json_arg(c)
    c.set_defaults(func=run_convert)

    k = what.add_parser("compress", help="the fewest wildcard lines found, each entry in its best orientation")
    k.add_argument("source", metavar="IN", help="a dictionary in Patashnik's or the wildcard format")
    k.add_argument("-o", "--out", metavar="OUT", required=True, help="the wildcard file to write")
    json_arg(k)
    k.set_defaults(func=run_compress)

    p = what.add_parser("complete", help="every X decision with no forced-win routine: the dictionary and the "
                                         "steps of every forced win it relies on")
    p.add_argument("source", metavar="IN", help="a verified dictionary in Patashnik's or the wildcard format")
    p.add_argument("-o", "--out", metavar="OUT", required=True, help="the file to write")
    p.add_argument("--to", choices=("patashnik", "wildcard"), default="wildcard",
                   help="the format of OUT (default wildcard, compressed up to symmetry)")
    json_arg(p)
    p.set_defaults(func=run_complete)
