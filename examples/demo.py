"""The main job of ``make demo``: a tour of qubic-logic, each step a ``qubic`` command.

Run it with ``python examples/demo.py`` from any folder (shipped dictionaries and
strategies are named, not pathed; what it makes goes to ``out/`` there); every command
it runs is printed first so it can be copied.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

OUT = Path("out")

# (what the step shows, the qubic arguments[, the exit status it should end with, default 0])
STEPS: list[tuple] = [
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
     ["verify", "dictionary", "patashnik"]),
    ("A strategy written as ASP rules (X plays on its most open lines), verified against every defence",
     ["verify", "strategy", "open-lines.lp", "--root", "xx1oo1x1oo2o8o3x15xxo19x"]),
    ("McDaniel's 1975 program as X, checked against every defence: the shortest game that beats it",
     ["verify", "strategy", "player:mcdaniel"], 1),  # exit status 1: refuted, as expected
    ("The native proof-number search: a winning strategy for a 4-stone position, written and verified",
     ["solve", "patashnik:x2x16o4o", "-o", str(OUT / "x2x16o4o.dict")]),
    ("An opening book on a Dask LocalCluster: every position to 4 stones below X's corner, O's 27, X's 3",
     ["book", "build", str(OUT / "book.sqlite"), "--stones", "4", "--root", "moves:0,27,3",
      "--executor", "dask", "--jobs", "2"]),
    ("", ["book", "stats", str(OUT / "book.sqlite"), "--top", "3"]),
    ("", ["book", "show", str(OUT / "book.sqlite"), "moves:0,27,3"]),
    ("", ["book", "verify", str(OUT / "book.sqlite")]),
    ("McDaniel's program plays from its stored games (Appendix C), as the seed prints",
     ["reply", "mcdaniel", "1-2,22-4,27-3", "--notation", "number"]),
    ("Doake's 1972 learning program: 40 training games against greedy, then what it learned",
     ["learn", str(OUT / "doake-brain.sqlite"), "--against", "greedy", "--games", "40", "--seed", "1"]),
    ("", ["learn", str(OUT / "doake-brain.sqlite"), "--report"]),
    ("The seeds' claims recomputed: seed figure against computed figure",
     ["claims", "--only", "automorphisms", "--only", "appendix-b", "--only", "plane-17-trap"]),
    ("A short match: Patashnik's strategy against McDaniel's 1975 program",
     ["match", "patashnik", "mcdaniel", "--games", "2", "--swap-sides"]),
]


def main() -> int:
    OUT.mkdir(exist_ok=True)
    for made in ("doake-brain.sqlite", "book.sqlite", "book.sqlite-wal", "book.sqlite-shm"):
        (OUT / made).unlink(missing_ok=True)  # train and build from scratch on every run
    qubic = [sys.executable, "-m", "qubic_logic.cli"]
    for title, args, *expected in STEPS:
        print(f"\n== {title}\n" if title else "", f"$ qubic {shlex.join(args)}", sep="", flush=True)
        status = subprocess.run(qubic + args).returncode
        if status != (expected[0] if expected else 0):
            print(f"demo step failed with exit status {status}", file=sys.stderr)
            return status
    return 0


if __name__ == "__main__":
    sys.exit(main())
