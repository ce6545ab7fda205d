"""Proofs that outlive a run: a book as a folder of proof files that another book imports after checking them.

``qubic book export BOOK DIR`` writes one proof file per position settled by
its own search — a strategy dictionary in Patashnik's format rooted at that
position, gzip-compressed (``x1o.dict.gz``) — and ``index.json``, which lists
every position of the book: its value, best move, proof size, nodes and
seconds, how it was settled, and the proof's file and SHA-256. Positions
settled by propagation (``replies``) and open ones are listed without a file:
an open one with the nodes, time and the root's proof and disproof numbers
its searches reached.

``qubic book import BOOK DIR`` trusts nothing in the index: every proof is
verified by the native verifier (:func:`~qubic_logic.book.verify.verify_unit`,
in parallel) before it counts; a proof that is missing, damaged (its checksum,
its compression or its text) or that does not win is refused and named, and
the rest are imported. Values then propagate (:func:`~qubic_logic.book.build.derived`):
a position listed as settled by its replies is settled only when the replies
imported settle it. ``no win`` claims carry no certificate and are not
imported. The import is one SQLite transaction; the export is written to a
temporary folder renamed over ``DIR``, so a crash leaves the old archive or the
new one. So work done in separate runs, sittings or machines adds up: a hard
reply split into sub-positions (``qubic book build SUB.sqlite --root
moves:1,12 --stones 4``) exports every sub-position it settled, and importing
that archive into the main book settles whatever they prove.

The package ships such an archive (:func:`shipped_archive`): the book to two
stones, which ``qubic book show POSITION`` and ``qubic book verify`` read when
no book is named.

>>> import tempfile, os
>>> from qubic_logic.book.build import build_book
>>> from qubic_logic.notation import parse_position
>>> folder = tempfile.mkdtemp()
>>> _ = build_book(os.path.join(folder, 'b.sqlite'), 6, root=parse_position('1-2,22-52,27-4'), jobs=1)
>>> export_archive(os.path.join(folder, 'b.sqlite'), os.path.join(folder, 'proofs')).proofs
1
>>> r = import_archive(os.path.join(folder, 'c.sqlite'), os.path.join(folder, 'proofs'), jobs=1)
>>> r.imported, r.refused
(1, [])
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..errors import DataFormatError, QubicError
from ..executor import Executor, make_executor
from ..notation import format_patashnik, parse_patashnik
from ..position import Position
from ..saving import _umask, write_atomically
from ..strategy.dictionary import StrategyDictionary
from .build import derived
from .store import VALUES, BookEntry, OpeningBook, position_name
from .verify import BookVerification, verify_unit

FORMAT = "qubic-logic book archive"
VERSION = 1
INDEX = "index.json"


def shipped_archive() -> Path:
    """The archive in the package: the book to two stones with its proofs."""
    return Path(__file__).resolve().parent.parent / "data" / "book"


def proof_file(position: Position) -> str:
    """The file name of a position's proof.

    >>> proof_file(parse_patashnik('x1o'))
    'x1o.dict.gz'
    """
    return f"{position_name(position)}.dict.gz"


@dataclass
class ExportReport:
    """What an export wrote."""

    folder: str
    entries: int = 0
    proofs: int = 0
    bytes: int = 0


def _entry_json(book: OpeningBook, e: BookEntry, proof: str | None, digest: str | None) -> dict:
    item = {"position": position_name(e.position), "stones": e.stones, "to_move": e.position.to_move,
            "value": e.value, "move": e.move, "proof_size": e.proof_size, "nodes": e.nodes,
            "seconds": round(e.seconds, 3), "how": e.how, "budget": e.budget, "proof": proof, "sha256": digest}
    if e.value == "open":  # what its searches established
        item["searches"] = [{"status": s.status, "nodes": s.nodes, "seconds": round(s.seconds, 3),
                             "proof_number": s.proof_number, "disproof_number": s.disproof_number}
                            for s in book.searches(e.position)]
    return item


def export_archive(book_path: str | os.PathLike, folder: str | os.PathLike) -> ExportReport:
    """Write ``book_path``'s positions and proofs to ``folder`` (replaced as a whole); see the module docstring."""
    target = Path(folder)
    if target.exists() and (not target.is_dir() or (any(target.iterdir()) and not (target / INDEX).exists())):
        raise QubicError(f"{target} exists and is not a book archive; expected a new or empty folder, "
                         "or an archive to replace")
    if not target.parent.is_dir():
        raise QubicError(f"cannot write {target}: the folder {target.parent} does not exist")
    report = ExportReport(str(target))
    work = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        items = []
        with OpeningBook.open(book_path, check=True) as book:
            for e in book.entries():
                proof = digest = None
                if e.how == "solved" and e.strategy_text:
                    proof = proof_file(e.position)
                    data = gzip.compress(e.strategy_text.encode("ascii"), 9, mtime=0)
                    write_atomically(work / proof, data)
                    digest = hashlib.sha256(data).hexdigest()
                    report.proofs += 1
                    report.bytes += len(data)
                items.append(_entry_json(book, e, proof, digest))
            index = {"format": FORMAT, "version": VERSION, "root": position_name(book.root),
                     "stones": book.stones, "entries": items}
        text = json.dumps(index, indent=1) + "\n"
        write_atomically(work / INDEX, text)
        report.entries = len(items)
        report.bytes += len(text)
        os.chmod(work, 0o777 & ~_umask())  # (mkdtemp makes it private) as a folder made by mkdir would be
        old = None
        if target.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{target.name}.old.", dir=target.parent))
            os.rename(target, old / "archive")
        os.rename(work, target)
        if old is not None:
            shutil.rmtree(old)
    finally:
        if work.exists():
            shutil.rmtree(work)
    return report


def read_index(folder: str | os.PathLike) -> dict:
    """The archive's index (checked for its format), or :class:`DataFormatError` saying what is wrong."""
    path = Path(folder) / INDEX
    if not Path(folder).is_dir():
        raise QubicError(f"no book archive at {folder}; expected a folder written by `qubic book export`")
    try:
        index = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataFormatError(f"{folder}: no {INDEX}; expected a folder written by `qubic book export`") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DataFormatError(f"{path}: not a readable index ({exc}); expected the JSON `qubic book export` "
                              "writes") from None
    if not isinstance(index, dict) or index.get("format") != FORMAT or not isinstance(index.get("entries"), list):
        raise DataFormatError(f"{path} is not a book archive's index; expected the JSON `qubic book export` writes")
    if index.get("version") != VERSION:
        raise DataFormatError(f"{path}: archive version {index.get('version')}; this qubic-logic reads "
                              f"version {VERSION}")
    return index


@dataclass
class ImportReport:
    """What an import took, refused and derived."""

    book: str
    folder: str
    imported: int = 0  # proofs verified and stored
    already: int = 0  # proofs of positions the book had settled
    derived: int = 0  # positions settled by propagation
    open: int = 0  # open positions listed (kept open)
    unproven: int = 0  # 'no win' claims: no certificate to check
    refused: list[tuple[str, str]] = field(default_factory=list)  # (file or position, why)
    positions: int = 0  # checked by the verifier
    seconds: float = 0.0
    verified: bool = True  # False: taken as they are (the package's own archive)
    stopped: str | None = None  # the verification's time limit or Ctrl-C: the proofs not reached are refused
    checks: list[tuple[str, str, int, str, int, float]] = field(default_factory=list)  # as BookVerification's

    def lines(self) -> list[str]:
        out = [f"refused {name}: {why}" for name, why in self.refused]
        checked = (f"verified and imported ({self.positions:,} positions checked, {self.seconds:.1f} s)"
                   if self.verified else f"imported unverified ({self.seconds:.1f} s)")
        out.append(f"{self.book}: {self.imported:,} proofs from {self.folder} {checked}, {self.already:,} already "
                   f"settled, {self.derived:,} positions settled by propagation, {self.open:,} listed open"
                   + (f", {self.unproven:,} 'no win' claims skipped (no certificate)" if self.unproven else "")
                   + (f"; {len(self.refused):,} refused" if self.refused else ""))
        return out


def _read_proof(folder: Path, item: dict) -> str:
    """A listed proof's text, or :class:`DataFormatError` naming what is wrong with it."""
    name = item.get("proof")
    if not isinstance(name, str) or "/" in name or name.startswith("."):
        raise DataFormatError(f"the index names no proof file for {item.get('position')!r}")
    try:
        data = (folder / name).read_bytes()
    except OSError as exc:
        raise DataFormatError(f"cannot read it ({exc.strerror})") from None
    if item.get("sha256") and hashlib.sha256(data).hexdigest() != item["sha256"]:
        raise DataFormatError("damaged: its SHA-256 does not match the index")
    try:
        return (gzip.decompress(data) if name.endswith(".gz") else data).decode("ascii")
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        raise DataFormatError(f"damaged: {exc}") from None


def _position_of(item: dict) -> Position:
    text = item.get("position")
    if not isinstance(text, str) or item.get("value") not in VALUES:
        raise DataFormatError(f"an index entry without a position or value: {json.dumps(item)[:80]}")
    return parse_patashnik("" if text == "empty" else text)


def import_archive(
    book_path: str | os.PathLike, folder: str | os.PathLike, *, executor: Executor | None = None,
    jobs: int | None = None, verify: bool = True, progress: Callable[[int, int], None] | None = None,
    time_limit: float | None = None,
) -> ImportReport:
    """Import the archive at ``folder`` into the book at ``book_path`` (created if absent); see the module docstring.

    ``verify=False`` takes the proofs as they are (only for the package's own
    archive, which ``qubic book verify`` checks). ``time_limit``: seconds for the
    verification; proofs it did not reach are refused (as on Ctrl-C).
    """
    start = time.monotonic()
    src = Path(folder)
    index = read_index(src)
    report = ImportReport(str(book_path), str(src), verified=verify)
    proven: list[tuple[dict, Position, str]] = []
    listed: list[tuple[dict, Position]] = []
    for item in index["entries"]:
        try:
            position = _position_of(item)
        except QubicError as exc:
            report.refused.append((str(item.get("position")), str(exc)))
            continue
        if item["value"] in ("win", "loss") and item.get("how") == "solved":
            try:
                proven.append((item, position, _read_proof(src, item)))
            except DataFormatError as exc:
                report.refused.append((str(item.get("proof") or item["position"]), str(exc)))
                report.checks.append((item["position"], item["value"], int(item.get("proof_size") or 0),
                                      "damaged", 0, 0.0))
                listed.append(({"value": "open"}, position))
        else:
            listed.append((item, position))
    verdicts: dict[int, tuple[str, int, float]] = {}
    if verify and proven:
        own = executor is None
        executor = executor or make_executor("local", jobs)
        try:
            units = [(item["value"], format_patashnik(position), text) for item, position, text in proven]
            run = executor.run(verify_unit, units, time_limit=time_limit)
            try:
                for i, outcome in run:
                    verdicts[i] = outcome
                    if progress:
                        progress(len(verdicts), len(units))
            except KeyboardInterrupt:
                run.stopped = "interrupted"
            report.stopped = run.stopped
        finally:
            if own:
                executor.close()
    with OpeningBook.open(book_path, create=True, check=True) as book:
        if book.meta("root") is None:
            root = index.get("root") or "empty"
            book.set_meta(root="" if root == "empty" else root, stones=index.get("stones") or 0)
        with book.db:  # one transaction: every accepted entry, and what propagates from them
            for i, (item, position, text) in enumerate(proven):
                verdict, checked, spent = verdicts.get(i, ("not checked (stopped)", 0, 0.0) if verify
                                                       else ("verified", 0, 0.0))
                report.positions += checked
                report.checks.append((item["position"], item["value"], int(item.get("proof_size") or 0), verdict,
                                      checked, spent))
                if verdict != "verified":
                    report.refused.append((item["proof"], f"the proof does not hold ({verdict}): "
                                                          f"{item['value']} at {item['position']} is not shown"))
                    listed.append(({"value": "open"}, position))  # in the book, open: nothing shown
                    continue
                current = book.get(position)
                if current is not None and current.settled:
                    report.already += 1
                    continue
                move, size = item.get("move"), item.get("proof_size")
                if verify:  # what the book plays and reports comes from the verified proof, not the index
                    strategy = StrategyDictionary.parse(text, item["proof"])
                    size = len(strategy)
                    if item["value"] == "win" and strategy.move_for(position) is not None:
                        move = strategy.move_for(position)
                book.write(BookEntry(position, item["value"], move, size, int(item.get("nodes") or 0),
                                     float(item.get("seconds") or 0.0), "solved", item.get("budget"), text))
                report.imported += 1
            for item, position in listed:  # open until shown; an open one with what its searches reached
                report.unproven += item["value"] == "no win"
                current = book.get(position)
                searched = item["value"] == "open" and item.get("nodes")
                if current is None or (searched and not current.settled and not current.nodes):
                    book.write(BookEntry(position, "open", nodes=int(item.get("nodes") or 0) if searched else 0,
                                         seconds=float(item.get("seconds") or 0.0) if searched else 0.0,
                                         budget=item.get("budget") if searched else None))
            for e in sorted(book.entries(value="open"), key=lambda e: -e.stones):
                found = derived(book, e.position)
                if found is not None:
                    book.write(found)
                    report.derived += 1
        report.open = sum(1 for _ in book.entries(value="open"))
    report.seconds = time.monotonic() - start
    return report


def verify_archive(folder: str | os.PathLike, *, executor: Executor | None = None, jobs: int | None = None,
                   progress: Callable[[int, int], None] | None = None,
                   time_limit: float | None = None) -> BookVerification:
    """Verify every proof of the archive at ``folder`` (``qubic book verify`` with no book: the shipped one).

    Each proof file is checked by the native verifier; a position settled by
    propagation is shown by its replies' proofs, so it is listed as verified
    when they are and its value follows from theirs.
    """
    with tempfile.TemporaryDirectory(prefix="qubic-archive-") as work:
        path = Path(work) / "book.sqlite"
        report = import_archive(path, folder, executor=executor, jobs=jobs, progress=progress,
                                time_limit=time_limit)
        with OpeningBook.open(path) as book:
            entries = list(book.entries())
    result = BookVerification(str(folder), results=report.checks, total=len(report.checks), stopped=report.stopped)
    result.derived = [(position_name(e.position), e.value, e.proof_size or 0) for e in entries
                      if e.settled and e.how in ("replies", "over")]
    for value in ("no win", "open"):
        result.unchecked[value] = sum(e.value == value for e in entries)
    return result
