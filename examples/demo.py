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
    ("The shortest forced win by threat sequence: native C core", ["win", "1-2,22-52,27-4", "--engine", "native"]),
    ("... the same question to the ASP rules, solved by clingo", ["win", "1-2,22-52,27-4", "--engine", "asp"]),
    ("... and to the Prolog rules, solved by SWI-Prolog", ["win", "1-2,22-52,27-4", "--engine", "prolog"]),
    ("A declarative query of your own: winning first moves inside plane 17 (Prolog)",
     ["query", "--engine", "prolog", "1-2,22-52,27-4", "winning_move(6, M, N, _), in_plane(M, 17)"]),
    ("The force tree of that win, drawn as an offline interactive page",
     ["tree", "1-2,22-52,27-4", "--only-winning", "-o", str(OUT / "plane17-tree.html")]),
    ("Patashnik's 1977 proof that X wins, checked end to end (dictionary credited in qubic_logic/data/README.md)",
     ["verify", "dictionary", "qubic_logic/data/patashnik-qubic.dictionary"]),
    ("The seeds' claims recomputed: seed figure against computed figure",
     ["claims", "--only", "automorphisms", "--only", "appendix-b", "--only", "plane-17-trap"]),
    ("A short match: Patashnik's strategy against McDaniel's 1975 program",
     ["match", "patashnik", "mcdaniel", "--games", "2", "--swap-sides"]),
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
