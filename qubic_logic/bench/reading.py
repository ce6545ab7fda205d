"""Reading dictionary files: a million-line wildcard file, read whole and under a time limit.

The file is seeded and made here (:func:`big_wildcard_file`, about 60 MB, in
``--quick`` 100,000 lines): random live positions with X to move, six x
marks, five o marks and two wildcards each, so every line stands for two
positions, none equivalent to another. The table gives the seconds and the
peak memory (resident, of the largest process) of reading it whole
(:func:`~qubic_logic.strategy.formats.read_dictionary` in a fresh process),
then of ``qubic verify dictionary FILE --time-limit 10``, which has to stop
while it is still reading.
"""

from __future__ import annotations

import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from ..geometry import LINES
from ..symmetry import canonical_masks

LINE_MASKS = [sum(1 << c for c in line) for line in LINES]


def wildcard_lines(count: int, seed: int = 1):
    """``count`` distinct wildcard records (each two positions, none equivalent to another), as text lines."""
    rng = random.Random(seed)
    seen: set[tuple[int, int]] = set()
    made = 0
    while made < count:
        cells = rng.sample(range(64), 14)
        x = sum(1 << c for c in cells[:6])
        o = sum(1 << c for c in cells[6:11])
        wild, move = cells[11:13], cells[13]
        most_o = o | 1 << wild[0] | 1 << wild[1]
        if any(x & m == m or most_o & m == m for m in LINE_MASKS):
            continue  # a position of the line would be won already
        keys = [canonical_masks(x, o | 1 << w)[:2] for w in wild]
        if keys[0] == keys[1] or seen.intersection(keys):
            continue
        seen.update(keys)
        row = ["."] * 64
        for c in cells[:6]:
            row[c] = "x"
        for c in cells[6:11]:
            row[c] = "o"
        for c in wild:
            row[c] = "O"
        row[move] = "X"
        made += 1
        yield "".join(row)


def big_wildcard_file(path: Path, count: int, seed: int = 1) -> Path:
    """Write a wildcard file of ``count`` records (:func:`wildcard_lines`) to ``path``."""
    with open(path, "w", encoding="ascii") as out:
        out.write(f"# {count:,} random records (qubic_logic.bench.reading, seed {seed})\n")
        for line in wildcard_lines(count, seed):
            out.write(line + "\n")
    return path


_READ = ("import sys, time\n"
         "from qubic_logic.strategy.formats import read_dictionary\n"
         "start = time.perf_counter()\n"
         "d = read_dictionary(sys.argv[1])\n"
         "print(len(d), time.perf_counter() - start)\n")


_WRAP = ("import resource, subprocess, sys\n"
         "done = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
         "sys.stdout.write(done.stdout + done.stderr)\n"
         "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")


def measured(command: list[str]) -> tuple[str, float, float]:
    """Run ``command``; its output, wall seconds and peak resident memory in MB (of its largest process)."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _WRAP, *command], capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    *out, peak = done.stdout.rstrip("\n").split("\n")
    return "\n".join(out), seconds, int(peak) / 1024


def run(console: Console, quick: bool = False) -> dict:
    count = 100_000 if quick else 1_000_000
    with tempfile.TemporaryDirectory(prefix="qubic-reading-") as folder:
        path = big_wildcard_file(Path(folder) / "big.txt", count)
        size = path.stat().st_size
        out, _, whole_peak = measured([sys.executable, "-c", _READ, str(path)])
        positions, read_seconds = out.split()
        out, limited, limited_peak = measured([sys.executable, "-m", "qubic_logic.cli", "verify", "dictionary",
                                               str(path), "--time-limit", "10"])
    table = Table(title=f"a wildcard file of {count:,} lines ({size / 1e6:.0f} MB, {int(positions):,} positions)")
    for column in ("run", "seconds", "peak MB"):
        table.add_column(column, justify="left" if column == "run" else "right")
    table.add_row("read whole (read_dictionary)", f"{float(read_seconds):.1f}", f"{whole_peak:.0f}")
    table.add_row("qubic verify dictionary FILE --time-limit 10", f"{limited:.1f}", f"{limited_peak:.0f}")
    console.print(table)
    console.print(out.strip().splitlines()[-1] if out.strip() else "(no output)", highlight=False)
    return {"lines": count, "positions": int(positions), "read_seconds": float(read_seconds),
            "read_peak_mb": whole_peak, "limited_seconds": limited, "limited_peak_mb": limited_peak,
            "limited_output": out}
