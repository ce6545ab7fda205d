"""The main job of ``make demo``: a tour of qubic-logic, each step a ``qubic`` command.

Run it with ``python examples/demo.py``; every command it runs is printed first so it
can be copied.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

OUT = Path("out")

STEPS: list[tuple[str, list[str]]] = [
    ("McDaniel's plane-17 position (seed 003, L288) with threat cells marked",
     ["show", "1-2,22-52,27-4"]),
    ("Threat cells, forcing moves and major cells of both sides", ["threats", "1-2,22-52,27-4"]),
    ("The shortest forced win by threat sequence (native core)", ["win", "1-2,22-52,27-4"]),
]


def main() -> int:
    OUT.mkdir(exist_ok=True)
    qubic = [sys.executable, "-m", "qubic_logic.cli"]
    for title, args in STEPS:
        print(f"\n== {title}\n$ qubic {shlex.join(args)}", flush=True)
        status = subprocess.run(qubic + args).returncode
        if status:
            print(f"demo step failed with exit status {status}", file=sys.stderr)
            return status
    return 0


if __name__ == "__main__":
    sys.exit(main())
