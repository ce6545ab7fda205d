"""Proofs that outlive a run: a book as a folder of proof files that another book imports after checking them.

``qubic book export BOOK DIR`` writes one proof file per position settled by
its own search — a strategy dictionary in Patashnik's format rooted at that
position, gzip-compressed (``x1o.dict.gz``) — and ``index.json``, which lists
every position of the book: its value, best move, proof size, nodes and
seconds, how it was settled, and the proof's file and SHA-256. Positions
settled by propagation (``replies``) and open ones are listed without a file:
an open one with the nodes, time and the root's proof and disproof numbers
its searches reached. The archive is written whole to a temporary folder
beside ``DIR`` and renamed into place; ``DIR`` must be new, empty, or an
archive, and only the files of the archive it replaces are deleted
(:mod:`~qubic_logic.book.archive_folder`). ``qubic book export BOOK DIR
POSITION...`` writes only the positions named (each up to symmetry): the
settled replies of a long search, say, while its other positions stay in the
book.

``qubic book import BOOK DIR`` trusts nothing in the archive. The index is
checked whole against its schema before anything is written
(:mod:`~qubic_logic.book.archive_index`: one bad field refuses the archive,
the book unchanged); proof files are read only as regular files inside the
archive, within what a proof of their size can take
(:mod:`~qubic_logic.book.archive_files`); every proof is verified by the
native verifier (:func:`~qubic_logic.book.verify.verify_unit`, in parallel)
before it counts, and a claim about a finished game must be how it ended. A
proof that is missing, damaged, larger than its size allows or that does not
hold is refused and named, and the rest are imported. The move the book
plays for a win is the one its verified proof plays there; a loss's move
from the index is kept only if it is an empty cell. Values then propagate
(:func:`~qubic_logic.book.build.settle_upwards`): a position listed as
settled by its replies is settled only when the replies imported settle it.
``no win`` claims carry no certificate and are not imported. Positions the
book has settled already are not checked again.

The writing is one SQLite transaction (a Ctrl-C during it comes once it is
committed). Stopped during the verification (Ctrl-C, or its time limit), an
import keeps every proof verified by then and what follows from them, and
leaves out the proofs it did not check, so the same command goes on with
them. So work done in separate runs, sittings or machines adds up: a hard
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
import signal
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Sequence
from typing import Callable

from ..errors import DataFormatError, QubicError
from ..executor import Executor, make_executor
from ..notation import format_patashnik
from ..position import Position
from ..saving import write_atomically
from ..supervisor import sigint_held
from ..wording import counted
from .archive_files import read_proof
from .archive_folder import discard, export_target, new_work_folder, proof_file, replace_folder
from .archive_index import FORMAT, INDEX, VERSION, ArchiveEntry, load_index, read_index
from .build import derived, settle_upwards
from .store import SETTLED, BookEntry, OpeningBook, book_order, canonical_key, position_name
from .verify import BookVerification, Check, verify_unit

__all__ = ["FORMAT", "INDEX", "VERSION", "ExportReport", "ImportReport", "export_archive", "import_archive",
           "proof_file", "read_index", "shipped_archive", "verify_archive"]

Progress = Callable[[str, int, int], None]  # (stage: 'verifying' or 'importing', done, total)
PROGRESS_EVERY = 500  # entries imported between two progress calls


def shipped_archive() -> Path:
    """The archive in the package: the book to two stones with its proofs."""
    return Path(__file__).resolve().parent.parent / "data" / "book"


@dataclass
class ExportReport:
    """What an export wrote (``kept``: where files that appeared in the replaced archive during the export
    were left, None when there were none)."""

    folder: str
    entries: int = 0
    proofs: int = 0
    bytes: int = 0
    kept: str | None = None


def _entry_json(book: OpeningBook, e: BookEntry, proof: str | None, digest: str | None) -> dict:
    item = {"position": position_name(e.position), "stones": e.stones, "to_move": e.position.to_move,
            "value": e.value, "move": e.move, "proof_size": e.proof_size, "nodes": e.nodes,
            "seconds": round(e.seconds, 3), "how": e.how, "budget": e.budget, "proof": proof, "sha256": digest}
    if e.value == "open":  # what its searches established
        item["searches"] = [{"status": s.status, "nodes": s.nodes, "seconds": round(s.seconds, 3),
                             "proof_number": s.proof_number, "disproof_number": s.disproof_number}
                            for s in book.searches(e.position)]
    return item


def export_archive(book_path: str | os.PathLike, folder: str | os.PathLike,
                   positions: Sequence[Position] | None = None) -> ExportReport:
    """Write ``book_path``'s positions and proofs (only those of ``positions`` when given, each one up to
    symmetry) to ``folder``, a new or empty folder or an archive replaced as a whole
    (:func:`~qubic_logic.book.archive_folder.export_target`); see the module docstring."""
    real, old = export_target(folder, book_path)
    report = ExportReport(os.fspath(folder))
    with OpeningBook.open(book_path, check=True) as book:
        chosen = None if positions is None else _chosen(book, book_path, positions)
        work = new_work_folder(real)
        try:
            items = []
            for e in book.entries() if chosen is None else chosen:
                proof = digest = None
                if e.how == "solved" and e.value in ("win", "loss") and e.strategy_text:
                    proof = proof_file(e.position)
                    data = gzip.compress(e.strategy_text.encode("ascii"), 9, mtime=0)
                    write_atomically(work / proof, data)
                    digest = hashlib.sha256(data).hexdigest()
                    report.proofs += 1
                    report.bytes += len(data)
                items.append(_entry_json(book, e, proof, digest))
            index = {"format": FORMAT, "version": VERSION, "root": position_name(book.root),
                     "stones": book.stones or 0, "entries": items}
            text = json.dumps(index, indent=1) + "\n"
            write_atomically(work / INDEX, text)
            report.entries = len(items)
            report.bytes += len(text)
            kept = replace_folder(work, real, old)
        finally:
            discard(work)
    report.kept = None if kept is None else str(kept)
    return report


def _chosen(book: OpeningBook, book_path: str | os.PathLike, positions: Sequence[Position]) -> list[BookEntry]:
    """The entries of ``positions``, fewest stones first; a position the book does not hold is an error."""
    entries = {}
    for position in positions:
        entry = book.get(position)
        if entry is None:
            raise QubicError(f"{position_name(position)} is not in {os.fspath(book_path)}; expected positions the "
                             "book holds (qubic book show BOOK POSITION tells)")
        entries[canonical_key(position)[:2]] = entry
    return sorted(entries.values(), key=book_order)


@dataclass
class ImportReport:
    """What an import took, refused and derived, and how it stopped."""

    book: str
    folder: str
    imported: int = 0  # proofs verified and stored
    already: int = 0  # proofs of positions the book had settled (not checked again)
    derived: int = 0  # positions settled by propagation, or finished games by their result
    open: int = 0  # open positions in the book after the import
    unproven: int = 0  # 'no win' claims: no certificate to check
    refused: list[tuple[str, str]] = field(default_factory=list)  # (file or position, why)
    positions: int = 0  # checked by the verifier
    seconds: float = 0.0
    verified: bool = True  # False: taken as they are (the package's own archive)
    stopped: str | None = None  # the verification's time limit or Ctrl-C: the proofs not reached are not imported
    unchecked: int = 0  # proofs the verification did not reach (stopped): not imported, not refused
    proofs: int = 0  # proofs the archive lists for positions the book had not settled
    checks: list[tuple[str, str, int, str, int, float]] = field(default_factory=list)  # as BookVerification's

    def lines(self) -> list[str]:
        out = [f"refused {name}: {why}" for name, why in self.refused]
        checked = (f"verified and imported ({counted(self.positions, 'position')} checked, {self.seconds:.1f} s)"
                   if self.verified else f"imported unverified ({self.seconds:.1f} s)")
        out.append(f"{self.book}: {counted(self.imported, 'proof')} from {self.folder} {checked}, {self.already:,} "
                   f"already settled, {counted(self.derived, 'position')} settled by propagation, {self.open:,} open"
                   + (f", {self.unproven:,} 'no win' claims skipped (no certificate)" if self.unproven else "")
                   + (f"; {len(self.refused):,} refused" if self.refused else ""))
        if self.stopped:
            out.append(f"{self.stopped}: the proofs verified are kept, with what follows from them; "
                       f"{self.unchecked:,} not reached are left out: run the same command to go on with them")
        return out




def _settled_keys(book_path: Path) -> set[tuple[int, int]]:
    """The positions the book at ``book_path`` has settled (none when it is new); the book is checked
    whole first, so that a damaged one is refused before any proof is read."""
    if not book_path.exists() or book_path.stat().st_size == 0:
        return set()
    with OpeningBook.open(book_path, check=True) as book:
        return set(book.keys(*SETTLED))


def _verify(units: list[tuple[str, str, str]], report: ImportReport, executor: Executor | None, jobs: int | None,
            progress: Progress | None, time_limit: float | None) -> dict[int, Check]:
    """Each proof's :class:`Check`, in parallel; on Ctrl-C or past ``time_limit`` those reached
    (``report.stopped`` says why)."""
    checks: dict[int, Check] = {}
    own = executor is None
    executor = executor or make_executor("local", jobs)
    try:
        run = executor.run(verify_unit, units, time_limit=time_limit)
        try:
            for i, outcome in run:
                checks[i] = outcome
                if progress:
                    progress("verifying", len(checks), len(units))
        except KeyboardInterrupt:
            run.stopped = "interrupted"
        report.stopped = run.stopped
    finally:
        if own:
            executor.close()
    return checks


def _why(item: ArchiveEntry, check: Check) -> str:
    if check.reason:
        return f"the claim does not hold ({check.verdict}): {check.reason}"
    return f"the proof does not hold ({check.verdict}): {item.value} at {item.position} is not shown"


class _Importer:
    """The writing half of an import, inside one transaction of ``book``."""

    def __init__(self, book: OpeningBook, report: ImportReport, total: int, progress: Progress | None) -> None:
        self.book, self.report, self.total, self.progress = book, report, total, progress
        self.done = 0

    def step(self) -> None:
        self.done += 1
        if self.progress and (self.done % PROGRESS_EVERY == 0 or self.done == self.total):
            self.progress("importing", self.done, self.total)

    def unsettled(self, position: Position) -> None:
        """A position the archive does not settle: a finished game gets its result, anything else is open."""
        current = self.book.get(position)
        if current is not None and current.settled:
            return
        if position.is_over:
            self.book.write(derived(self.book, position))
            self.report.derived += 1
        elif current is None:
            self.book.write(BookEntry(position, "open"))

    def proof(self, item: ArchiveEntry, text: str, check: Check | None) -> None:
        """A proof the verifier checked (``check``; None: not reached) or, unverified, taken as it is."""
        report = self.report
        if check is None:
            report.unchecked += 1
            return
        report.positions += check.positions
        report.checks.append((item.position, item.value, item.proof_size or 0, check.verdict, check.positions,
                              check.seconds))
        position = item.board
        if check.verdict != "verified":
            report.refused.append((item.proof or item.position, _why(item, check)))
            self.unsettled(position)
            return
        if position.is_over:  # a finished game, claimed as it ended: its result, without a proof
            self.unsettled(position)
            return
        current = self.book.get(position)
        if current is not None and current.settled:
            report.already += 1
            return
        # what the book plays comes from the verified proof, or is checked legal: never the index's word alone
        move = check.move if report.verified and item.value == "win" else item.move
        if move is not None and position.at(move) != ".":
            report.refused.append((item.proof or item.position, f"its move {move} is not an empty cell of "
                                                                f"{item.position}; expected a legal move"))
            self.unsettled(position)
            return
        size = check.size if report.verified else item.proof_size
        self.book.write(BookEntry(position, item.value, move, size, item.nodes, item.seconds, "solved", item.budget,
                                  text))
        report.imported += 1

    def listed(self, item: ArchiveEntry) -> None:
        """An entry without a proof: open until shown (an open one with what its searches reached)."""
        self.report.unproven += item.value == "no win"
        position = item.board
        current = self.book.get(position)
        searched = item.value == "open" and item.nodes and not position.is_over
        if searched and (current is None or (not current.settled and not current.nodes)):
            self.book.write(BookEntry(position, "open", nodes=item.nodes, seconds=item.seconds, budget=item.budget))
        else:
            self.unsettled(position)


def import_archive(
    book_path: str | os.PathLike, folder: str | os.PathLike, *, executor: Executor | None = None,
    jobs: int | None = None, verify: bool = True, progress: Progress | None = None,
    time_limit: float | None = None,
) -> ImportReport:
    """Import the archive at ``folder`` into the book at ``book_path`` (created if absent); see the module docstring.

    ``verify=False`` takes the proofs as they are (only for the package's own
    archive, which ``qubic book verify`` checks). ``time_limit``: seconds for the
    verification. Stopped by it or by Ctrl-C, the import keeps every proof
    verified by then (and what follows from them) and leaves out the rest
    (``stopped``, ``unchecked``), so the same call goes on. ``progress(stage,
    done, total)``: stage ``'verifying'`` (proofs) then ``'importing'`` (entries).
    """
    start = time.monotonic()
    src, book_path = Path(folder), Path(book_path)
    try:
        index = load_index(src)
    except DataFormatError as exc:
        raise DataFormatError(f"{exc} (nothing was imported)") from None
    report = ImportReport(str(book_path), str(src), verified=verify)
    settled = _settled_keys(book_path)
    proofs: list[tuple[ArchiveEntry, str]] = []
    listed: list[ArchiveEntry] = []
    damaged: list[Position] = []
    for item in index.entries:
        if not item.proven:
            listed.append(item)
        elif canonical_key(item.board)[:2] in settled:
            report.already += 1
        else:
            report.proofs += 1
            try:
                proofs.append((item, read_proof(src, item.proof, item.sha256, item.proof_size)))
            except DataFormatError as exc:
                report.refused.append((item.proof, str(exc)))
                report.checks.append((item.position, item.value, item.proof_size, "damaged", 0, 0.0))
                damaged.append(item.board)  # in the book, open: nothing shown
    if verify and proofs:
        units = [(item.value, format_patashnik(item.board), text) for item, text in proofs]
        checks = _verify(units, report, executor, jobs, progress, time_limit)
    else:
        checks = {i: Check("verified", 0, 0.0) for i in range(len(proofs))}
    with OpeningBook.open(book_path, create=True) as book:
        if book.meta("root") is None:
            book.set_meta(root="" if index.root == "empty" else index.root, stones=index.stones)
        importer = _Importer(book, report, len(proofs) + len(listed) + len(damaged), progress)
        committed = False
        try:
            with sigint_held(signal.SIGTERM), book.db:  # one transaction; a Ctrl-C now comes once it is committed
                for i, (item, text) in enumerate(proofs):
                    importer.proof(item, text, checks.get(i))
                    importer.step()
                for item in listed:
                    importer.listed(item)
                    importer.step()
                for position in damaged:
                    importer.unsettled(position)
                    importer.step()
                report.derived += len(settle_upwards(book, book.keys("win", "loss")))
                committed = True
        except KeyboardInterrupt:
            if not committed:  # (a signal the hold does not cover) rolled back: nothing of it was written
                raise
            report.stopped = "interrupted"
        report.open = sum(n for (_, value), n in book.counts().items() if value == "open")
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
    def verifying(stage: str, done: int, total: int) -> None:
        if progress and stage == "verifying":
            progress(done, total)

    with tempfile.TemporaryDirectory(prefix="qubic-archive-") as work:
        path = Path(work) / "book.sqlite"
        report = import_archive(path, folder, executor=executor, jobs=jobs, progress=verifying,
                                time_limit=time_limit)
        with OpeningBook.open(path) as book:
            entries = list(book.entries())
    result = BookVerification(str(folder), results=report.checks, total=report.proofs, stopped=report.stopped)
    result.derived = [(position_name(e.position), e.value, e.proof_size or 0) for e in entries
                      if e.settled and e.how in ("replies", "over")]
    for value in ("no win", "open"):
        result.unchecked[value] = sum(e.value == value for e in entries)
    return result
