"""Run the benchmark sections: ``python -m qubic_logic.bench [--quick] [SECTION ...]``."""

from __future__ import annotations

import argparse
import inspect
import sys
import time

from rich.console import Console

from . import load, sections

PIPED_WIDTH = 200


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m qubic_logic.bench", description=__doc__)
    parser.add_argument("sections", nargs="*", metavar="SECTION",
                        help=f"sections to run (default: all of {', '.join(sections())})")
    parser.add_argument("--quick", action="store_true", help="smaller sets, for a smoke test")
    args = parser.parse_args(argv)
    # piped to a file, the tables keep every figure whole rather than shrink to 80 columns
    console = Console(width=None if sys.stdout.isatty() else PIPED_WIDTH)
    names = args.sections or sections()
    try:
        modules = [load(name) for name in names]
    except KeyError as exc:
        print(f"error: {exc.args[0]}", file=sys.stderr)
        return 2
    for name, module in zip(names, modules):
        console.rule(f"[bold]{name}")
        start = time.perf_counter()
        run = module.run
        if "quick" in inspect.signature(run).parameters:
            run(console, quick=args.quick)
        else:
            run(console)
        console.print(f"[dim]{name}: {time.perf_counter() - start:.1f} s[/dim]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
