"""Book archives: an import of 30,000 open positions, and the memory a hostile proof file can take.

The import is timed end to end (the index checked against its schema, the
entries written in one transaction, values propagated), on a seeded archive
of open positions of six stones, distinct up to symmetry. The hostile file is
a gzip bomb with a correct checksum (500 MB of zeros in about 500 KB) in
place of one proof of the 59-position archive below ``1-2,22-52,27``: the
peak resident size of ``qubic book import`` (the command and its workers)
is sampled while it refuses it, next to the same import of the intact
archive.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
import shutil
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from ..book import build_book
from ..book.archive import FORMAT, INDEX, VERSION, export_archive, import_archive
from ..book.store import canonical_key, position_name
from ..notation import parse_position
from ..position import Position
from .interrupts import peak_memory

ROOT = "1-2,22-52,27"


def open_archive(folder: Path, count: int, seed: int = 3) -> Path:
    """An archive of ``count`` open positions of six stones (seeded), distinct up to symmetry."""
    rng = random.Random(seed)
    seen: set[tuple[int, int]] = set()
    entries = []
    while len(entries) < count:
        cells = rng.sample(range(64), 6)
        p = Position(sum(1 << c for c in cells[:3]), sum(1 << c for c in cells[3:]))
        key = canonical_key(p)[:2]
        if key in seen:
            continue
        seen.add(key)
        entries.append({"position": position_name(p), "stones": 6, "to_move": "x", "value": "open", "move": None,
                        "proof_size": None, "nodes": 0, "seconds": 0.0, "how": "", "budget": None, "proof": None,
                        "sha256": None, "searches": []})
    folder.mkdir(parents=True)
    (folder / INDEX).write_text(json.dumps({"format": FORMAT, "version": VERSION, "root": "empty", "stones": 6,
                                            "entries": entries}, indent=1))
    return folder


def bombed(archive: Path, folder: Path, megabytes: int) -> Path:
    """A copy of ``archive`` whose first proof inflates to ``megabytes`` MB of zeros, its checksum matching."""
    shutil.copytree(archive, folder)
    index = json.loads((folder / INDEX).read_text())
    item = next(e for e in index["entries"] if e["proof"])
    data = gzip.compress(b"\0" * (megabytes << 20), 9, mtime=0)
    (folder / item["proof"]).write_bytes(data)
    item["sha256"] = hashlib.sha256(data).hexdigest()
    (folder / INDEX).write_text(json.dumps(index))
    return folder


def run(console: Console, quick: bool = False) -> None:
    work = Path(tempfile.mkdtemp(prefix="qubic-archive-bench-"))
    count = 3000 if quick else 30000
    folder = open_archive(work / "open", count)
    calls = []
    start = time.perf_counter()
    report = import_archive(work / "open.sqlite", folder, jobs=1, progress=lambda *a: calls.append(a))
    seconds = time.perf_counter() - start
    console.print(f"import of {count:,} open positions ({(folder / INDEX).stat().st_size / 2**20:.1f} MB index): "
                  f"{seconds:.2f} s, {count / seconds:,.0f} entries/s, {report.open:,} open in the book, "
                  f"{len(calls)} progress reports")
    build_book(work / "b.sqlite", 6, root=parse_position(ROOT), jobs=2)
    export_archive(work / "b.sqlite", work / "proofs")
    megabytes = 50 if quick else 500
    bomb = bombed(work / "proofs", work / "bomb", megabytes)
    table = Table(title=f"qubic book import --jobs 2: the 59-proof archive below {ROOT}, intact and with a "
                        f"{megabytes} MB gzip bomb in place of one proof")
    for column in ("archive", "exit", "peak MB", "seconds", "first line"):
        table.add_column(column, justify="right" if column != "first line" else "left")
    for name, source in (("intact", work / "proofs"), ("bomb", bomb)):
        done = peak_memory("book", "import", str(work / f"{name}.sqlite"), str(source), "--jobs", "2")
        first = (done.out.strip() or done.err.strip()).splitlines()[0].replace(f"{work}/", "")
        table.add_row(name, str(done.code), f"{done.peak_rss / 2**20:,.0f}", f"{done.seconds:.1f}", first)
    console.print(table)
    shutil.rmtree(work)
