"""Book archives from a hostile hand: an export that can delete nothing it did not write, an import that
checks every field and every claim, reads only the archive's own regular files within a bound, refuses
a bad proof by name and imports the rest, and keeps what it verified when stopped.

The whole hostile-archive corpus (links, FIFOs, bombs, every bad field, false claims on finished
boards, a forced sequence with a wrong move) runs under ``pytest -m slow``; a sample of every kind
runs in the quick suite.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import psutil
import pytest

from qubic_logic.bench.archive import open_archive
from qubic_logic.bench.interrupts import QUBIC, ctrl_c_as_in_a_terminal, qubic as run_qubic
from qubic_logic.book import OpeningBook, build_book
from qubic_logic.book.archive import INDEX, export_archive, import_archive, read_index, shipped_archive
from qubic_logic.book.verify import verify_book, verify_unit
from qubic_logic.cli import main
from qubic_logic.errors import QubicError
from qubic_logic.notation import format_patashnik, parse_patashnik, parse_position
from qubic_logic.position import Position
from qubic_logic.supervisor import Supervisor

ROOT = parse_position("1-2,22-52,27")  # O to move: 59 reply classes, each an X win found in a few seconds in all
FORCED = parse_position("1-2,22-52,27-4")  # X to move wins by a forced sequence: no strategic entry at the root
DRAWN = parse_patashnik("oxxooxoxxoxxxxoxoxoxxxxooxxoooxxoxoxooxoxoxoxoxoxooooxxoxoooxoox")  # full board, no line
WON = parse_position("moves:0,16,1,17,2,18,3")  # X completed four: O to move has lost


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> Path:
    """``b.sqlite`` (the book below ROOT) and its export ``proofs/``: 59 proofs and ROOT, a loss by its replies."""
    folder = tmp_path_factory.mktemp("archive")
    build_book(folder / "b.sqlite", 6, root=ROOT, jobs=1)
    export_archive(folder / "b.sqlite", folder / "proofs")
    return folder


@pytest.fixture(scope="module")
def forced(tmp_path_factory) -> Path:
    """``b.sqlite`` (the one-position book of FORCED) and its export ``proofs/``: one proof, checked in a moment."""
    folder = tmp_path_factory.mktemp("forced")
    build_book(folder / "b.sqlite", 6, root=FORCED, jobs=1)
    export_archive(folder / "b.sqlite", folder / "proofs")
    return folder


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    """``qubic ARGV`` in this process: exit status, stdout, stderr."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def tree(folder: Path) -> dict[str, bytes | str]:
    """Every entry under ``folder`` (not following links) with its bytes, link target or kind."""
    found: dict[str, bytes | str] = {}
    for path in sorted(folder.rglob("*")):
        name = str(path.relative_to(folder))
        found[name] = (f"-> {os.readlink(path)}" if path.is_symlink() else "folder" if path.is_dir()
                       else path.read_bytes())
    return found


def book_bytes(path: Path) -> dict[str, bytes]:
    """The book file and any journal beside it, byte for byte."""
    return {p.name: p.read_bytes() for p in sorted(path.parent.glob(path.name + "*"))}


def edited(source: Path, target: Path, change: Callable[[dict], None]) -> Path:
    """A copy of the archive ``source`` at ``target`` whose index ``change`` edited."""
    shutil.copytree(source, target)
    index = json.loads((target / INDEX).read_text())
    change(index)
    (target / INDEX).write_text(json.dumps(index))
    return target


def add_proof(folder: Path, name: str, text: str) -> tuple[str, str]:
    """Write a gzip-compressed proof file; its name and SHA-256."""
    data = gzip.compress(text.encode("ascii"), mtime=0)
    (folder / name).write_bytes(data)
    return name, hashlib.sha256(data).hexdigest()


def entry(position: Position, value: str, proof: tuple[str, str] | None = None, move: int | None = None) -> dict:
    """An index entry as `qubic book export` writes it; with ``proof``, one its own search settled."""
    name, digest = proof or (None, None)
    return {"position": format_patashnik(position) or "empty", "stones": position.count,
            "to_move": position.to_move, "value": value, "move": move, "proof_size": 0 if proof else None,
            "nodes": 0, "seconds": 0.0, "how": "solved" if proof else "", "budget": None, "proof": name,
            "sha256": digest, **({"searches": []} if value == "open" else {})}


def one_line_error(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "internal error" not in err and "Traceback" not in err
    return lines[0]


# ---------------------------------------------------------------------- export: nothing it did not write


def _foreign_project(tmp: Path, archive: Path) -> Path:
    """The folder of a project that happens to hold an ``index.json``."""
    folder = tmp / "proj"
    (folder / "src").mkdir(parents=True)
    (folder / INDEX).write_text("{}")
    (folder / "src" / "main.js").write_text("x")
    return folder


def _archive_with_notes(tmp: Path, archive: Path) -> Path:
    folder = tmp / "notes"
    shutil.copytree(archive / "proofs", folder)
    (folder / "todo.txt").write_text("keep me")
    return folder


def _archive_holding_the_book(tmp: Path, archive: Path) -> Path:
    folder = tmp / "withbook"
    shutil.copytree(archive / "proofs", folder)
    shutil.copyfile(archive / "b.sqlite", folder / "b.sqlite")
    return folder


@pytest.mark.parametrize("make", [_foreign_project, _archive_with_notes, _archive_holding_the_book])
def test_export_into_a_folder_holding_foreign_files_refuses_in_one_line_and_deletes_nothing(
        archive, tmp_path, capsys, make):
    folder = make(tmp_path, archive)
    book = folder / "b.sqlite" if (folder / "b.sqlite").exists() else archive / "b.sqlite"
    before = tree(tmp_path)
    status, out, err = cli(capsys, "book", "export", str(book), str(folder))
    assert status == 2 and out == ""
    line = one_line_error(err)
    assert str(folder) in line and "nothing was changed" in line
    assert tree(tmp_path) == before


def test_export_replaces_an_archive_through_a_link_and_the_link_stays(archive, tmp_path, capsys):
    real = tmp_path / "real"
    shutil.copytree(archive / "proofs", real)
    link = tmp_path / "link"
    link.symlink_to(real)
    status, out, err = cli(capsys, "book", "export", str(archive / "b.sqlite"), str(link))
    assert status == 0, err
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert read_index(real)["entries"] == read_index(archive / "proofs")["entries"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link", "real"]  # nothing left beside them


def test_export_to_a_dangling_link_writes_the_archive_where_it_points(archive, tmp_path, capsys):
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "new")
    status, out, err = cli(capsys, "book", "export", str(archive / "b.sqlite"), str(link))
    assert status == 0, err
    assert link.is_symlink() and (tmp_path / "new" / INDEX).is_file()
    assert len(read_index(link)["entries"]) == 60
    lost = tmp_path / "lost"
    lost.symlink_to(tmp_path / "no" / "such" / "folder")
    status, out, err = cli(capsys, "book", "export", str(archive / "b.sqlite"), str(lost))
    assert status == 2 and "the folder" in one_line_error(err) and ".tmp" not in err and "/." not in err


def test_export_to_the_current_folder_is_refused_in_one_line_and_leaves_nothing(archive, tmp_path):
    folder = tmp_path / "proofs"
    shutil.copytree(archive / "proofs", folder)
    before = tree(tmp_path)
    run = run_qubic("book", "export", str(archive / "b.sqlite"), ".", cwd=folder, timeout=120)
    assert run.code == 2, run.out + run.err
    line = one_line_error(run.err)
    assert "the folder this command runs in" in line and "Device or resource busy" not in line
    assert tree(tmp_path) == before


# ---------------------------------------------------------------------- false values


def parent_of(position: Position) -> Position:
    """A position one move before ``position`` that is still in play."""
    mover = "x" if position.to_move == "o" else "o"
    for cell in range(64):
        if position.at(cell) == mover:
            masks = {"x": position.x, "o": position.o}
            masks[mover] &= ~(1 << cell)
            try:
                parent = Position(masks["x"], masks["o"])
            except QubicError:
                continue
            if not parent.is_over:
                return parent
    raise AssertionError(f"no parent in play for {format_patashnik(position)}")


def _finished_claims(tmp: Path, claims: list[tuple[Position, str]]) -> Path:
    """An archive holding, for each ``(finished position, value)``, a proof claiming it, and its parent, open."""
    folder = tmp / "finished"
    folder.mkdir()
    entries = []
    for i, (position, value) in enumerate(claims):
        proof = add_proof(folder, f"claim{i}.dict.gz", "a proof that checks nothing\n---\n")
        entries += [entry(parent_of(position), "open"), entry(position, value, proof)]
    index = {"format": "qubic-logic book archive", "version": 1, "root": entries[0]["position"],
             "stones": 64, "entries": entries}
    (folder / INDEX).write_text(json.dumps(index))
    return folder


def test_a_false_claim_on_a_finished_board_is_refused_and_its_result_kept(tmp_path, capsys):
    folder = _finished_claims(tmp_path, [(DRAWN, "loss"), (WON, "win")])
    book = tmp_path / "b.sqlite"
    status, out, err = cli(capsys, "book", "import", str(book), str(folder), "--jobs", "1")
    assert status == 1 and "internal error" not in err, out + err
    assert "refused claim0.dict.gz" in out and "a draw" in out
    assert "refused claim1.dict.gz" in out and "four in a row" in out
    with OpeningBook.open(book) as b:
        assert b.lookup(DRAWN).value == "no win"  # its result: a draw, nobody wins
        assert b.lookup(WON).value == "loss"  # its result: O has lost, whatever the index said
        assert b.lookup(parent_of(DRAWN)).value != "win"  # its only move does not win
    assert verify_book(book, jobs=1).verified


def test_a_claim_about_a_finished_position_must_match_its_result():
    empty = "---\n"
    assert verify_unit(("loss", format_patashnik(DRAWN), empty))[0] != "verified"
    assert verify_unit(("win", format_patashnik(WON), empty))[0] != "verified"
    verdict, positions, *_ = verify_unit(("loss", format_patashnik(WON), empty))
    assert verdict == "verified" and positions == 1  # the result itself was checked


def test_a_book_holding_a_false_loss_on_a_finished_board_is_not_verified(tmp_path):
    from qubic_logic.book.store import BookEntry

    path = tmp_path / "b.sqlite"
    with OpeningBook.open(path, create=True) as book:
        book.settle(BookEntry(DRAWN, "loss", proof_size=0, how="solved", strategy_text="---\n"))
    assert not verify_book(path, jobs=1).verified


def test_the_move_of_a_forced_sequence_comes_from_its_verified_proof(forced, tmp_path):
    taken = next(c for c in range(64) if FORCED.at(c) != ".")
    folder = edited(forced / "proofs", tmp_path / "wrong", lambda index: index["entries"][0].update(move=taken))
    report = import_archive(tmp_path / "c.sqlite", folder, jobs=1)
    assert (report.imported, report.refused) == (1, [])
    with OpeningBook.open(tmp_path / "c.sqlite") as book:
        found = book.lookup(FORCED)
    assert found.value == "win" and found.move is not None and FORCED.at(found.move) == "."
    text = gzip.decompress((folder / read_index(folder)["entries"][0]["proof"]).read_bytes()).decode()
    after = FORCED.play(found.move)  # every reply loses to the proof: the move wins
    assert verify_unit(("loss", format_patashnik(after), text))[0] == "verified"


# ---------------------------------------------------------------------- untrusted archives


def test_one_bad_proof_is_refused_by_name_and_the_rest_imported(archive, tmp_path, capsys):
    folder = tmp_path / "mixed"
    shutil.copytree(archive / "proofs", folder)
    index = read_index(folder)
    proven = [e for e in index["entries"] if e["proof"]]
    finished = add_proof(folder, "over.dict.gz", "---\n")
    index["entries"].append(entry(WON, "win", finished))  # the game is over: nobody is to win it
    (folder / INDEX).write_text(json.dumps(index))
    data = bytearray((folder / proven[0]["proof"]).read_bytes())
    data[30] ^= 0xFF
    (folder / proven[0]["proof"]).write_bytes(bytes(data))
    status, out, err = cli(capsys, "book", "import", str(tmp_path / "c.sqlite"), str(folder), "--jobs", "1")
    assert status == 1 and err == "", err
    assert f"refused {proven[0]['proof']}: damaged" in out
    assert "refused over.dict.gz" in out and format_patashnik(WON) in out
    assert f"{len(proven) - 1} proofs" in out and "2 refused" in out
    with OpeningBook.open(tmp_path / "c.sqlite") as book:
        assert book.get(parse_patashnik(proven[1]["position"])).value == "win"


def test_an_archive_member_that_is_a_link_or_a_fifo_is_refused_by_name(archive, tmp_path):
    folder = tmp_path / "members"
    shutil.copytree(archive / "proofs", folder)
    proven = [e for e in read_index(folder)["entries"] if e["proof"]]
    outside = tmp_path / "outside.dict.gz"
    os.rename(folder / proven[0]["proof"], outside)  # the right bytes, but outside the archive
    (folder / proven[0]["proof"]).symlink_to(outside)
    (folder / proven[1]["proof"]).unlink()
    os.mkfifo(folder / proven[1]["proof"])
    run = run_qubic("book", "import", str(tmp_path / "c.sqlite"), str(folder), "--jobs", "1", timeout=60)
    assert run.code == 1 and "internal error" not in run.err, run.out + run.err
    assert f"refused {proven[0]['proof']}: a symbolic link" in run.out
    assert f"refused {proven[1]['proof']}: a FIFO" in run.out
    assert f"{len(proven) - 2} proofs" in run.out


def test_a_proof_larger_than_its_size_allows_is_refused_without_reading_it_whole(forced, tmp_path):
    folder = tmp_path / "bomb"
    shutil.copytree(forced / "proofs", folder)
    index = read_index(folder)
    name = index["entries"][0]["proof"]
    data = gzip.compress(b"x" * (64 << 20), 9, mtime=0)  # 64 MB of text in 64 KB: not a proof of 0 positions
    (folder / name).write_bytes(data)
    index["entries"][0]["sha256"] = hashlib.sha256(data).hexdigest()
    (folder / INDEX).write_text(json.dumps(index))
    report = import_archive(tmp_path / "c.sqlite", folder, jobs=1)
    assert report.imported == 0 and [n for n, _ in report.refused] == [name]
    assert "larger than a proof of 0 strategic positions" in report.refused[0][1]


def _set(field: str, value: object) -> Callable[[dict], None]:
    return lambda index: index["entries"][0].update({field: value})


BAD_FIELDS: list[tuple[str, Callable[[dict], None], str]] = [
    ("entries of lists", lambda index: index.update(entries=[[1, "x"]]), "entries[0]"),
    ("proof_size of text", _set("proof_size", "abc"), "entries[0].proof_size"),
    ("nodes past 64 bits", _set("nodes", 2 ** 70), "entries[0].nodes"),
    ("seconds of text", _set("seconds", "soon"), "entries[0].seconds"),
    ("budget an object", _set("budget", {}), "entries[0].budget"),
    ("budget of text", _set("budget", "abc"), "entries[0].budget"),
    ("move 999", _set("move", 999), "entries[0].move"),
    ("move -1", _set("move", -1), "entries[0].move"),
    ("a NUL in a position", _set("position", "x14x4o\x00xo15o"), "entries[0].position"),
    ("a NUL in a proof's name", _set("proof", "x\x00.dict.gz"), "entries[0].proof"),
    ("a proof outside the archive", _set("proof", "../b.sqlite"), "entries[0].proof"),
    ("a checksum of text", _set("sha256", "soon"), "entries[0].sha256"),
    ("a position past cell 63", _set("position", "x99"), "entries[0].position"),
    ("stones not the position's", _set("stones", 60), "entries[0].stones"),
    ("an unknown field", _set("colour", "blue"), "entries[0].colour"),
    ("root zz9", lambda index: index.update(root="zz9"), "root"),
    ("stones lots", lambda index: index.update(stones="lots"), "stones"),
    ("a loss with a move 999", lambda index: index["entries"][0].update(value="loss", move=999), "entries[0].move"),
]


def _nested(folder: Path) -> None:
    text = (folder / INDEX).read_text().rstrip()
    (folder / INDEX).write_text(text[:-1] + ', "deep": ' + "[" * 100_000 + "]" * 100_000 + "}")


@pytest.fixture(scope="module")
def imported(forced, tmp_path_factory) -> Path:
    """A book holding the forced archive: an import that refuses its archive must leave it byte for byte."""
    path = tmp_path_factory.mktemp("imported") / "b.sqlite"
    import_archive(path, forced / "proofs", jobs=1)
    return path


@pytest.mark.parametrize("name, change, field", BAD_FIELDS, ids=[c[0] for c in BAD_FIELDS])
def test_every_bad_index_field_is_named_in_one_line_before_anything_is_written(
        forced, imported, tmp_path, capsys, name, change, field):
    folder = edited(forced / "proofs", tmp_path / "bad", change)
    book = tmp_path / "b.sqlite"
    shutil.copyfile(imported, book)
    before = book_bytes(book)
    status, out, err = cli(capsys, "book", "import", str(book), str(folder), "--jobs", "1")
    assert status == 2 and out == ""
    assert field in one_line_error(err)
    assert book_bytes(book) == before
    status, _, err = cli(capsys, "book", "import", str(tmp_path / "new.sqlite"), str(folder), "--jobs", "1")
    assert status == 2 and not (tmp_path / "new.sqlite").exists()


def test_a_deeply_nested_index_is_one_line(forced, tmp_path, capsys):
    folder = tmp_path / "deep"
    shutil.copytree(forced / "proofs", folder)
    _nested(folder)
    status, out, err = cli(capsys, "book", "import", str(tmp_path / "b.sqlite"), str(folder))
    assert status == 2 and "nested" in one_line_error(err)


def _raise_memory_error() -> None:
    raise MemoryError


def test_a_worker_out_of_memory_without_a_memory_limit_is_one_error():
    with Supervisor(memory_limit=None) as worker, pytest.raises(QubicError, match="ran out of memory"):
        worker.call(_raise_memory_error, what="the proof's check")


# ---------------------------------------------------------------------- limits over all the work


def test_ctrl_c_during_an_import_keeps_what_was_verified_and_the_same_command_goes_on(archive, tmp_path):
    book = tmp_path / "c.sqlite"

    def stop_after_five(*args: object) -> None:  # Ctrl-C once five proofs are verified
        stage, done = (args[0] if len(args) == 3 else "verifying"), args[-2]
        if stage == "verifying" and done == 5:
            raise KeyboardInterrupt

    report = import_archive(book, archive / "proofs", jobs=1, progress=stop_after_five)
    assert report.stopped == "interrupted" and report.refused == []
    assert report.imported == 5 and report.unchecked == 54
    assert not any(line.startswith("refused") for line in report.lines())
    assert "54 not reached are left out" in report.lines()[-1]
    with OpeningBook.open(book) as b:
        assert sum(e.value == "win" for e in b.entries()) == 5
        assert b.lookup(ROOT) is None or b.lookup(ROOT).value == "open"
    assert verify_book(book, jobs=1).verified
    again = import_archive(book, archive / "proofs", jobs=1)
    assert (again.stopped, again.already, again.imported, again.refused) == (None, 5, 54, [])
    with OpeningBook.open(book) as b:
        assert b.lookup(ROOT).value == "loss"


def test_ctrl_c_during_book_import_exits_130_and_names_no_proof_it_did_not_check(tmp_path):
    """The shipped archive: its proofs take a minute to verify on one worker, so Ctrl-C comes in the middle."""
    book, folder = tmp_path / "c.sqlite", shipped_archive()
    proofs = sum(1 for item in read_index(folder)["entries"] if item.get("proof"))
    proc = subprocess.Popen([*QUBIC, "book", "import", str(book), str(folder), "--jobs", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=ctrl_c_as_in_a_terminal)
    command = psutil.Process(proc.pid)
    while proc.poll() is None and not command.children():  # its verifying worker has started
        time.sleep(0.05)
    workers = command.children(recursive=True)
    time.sleep(1.0)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, out + err
    assert "refused" not in out and "not checked" not in out and "Traceback" not in err
    assert "interrupted: the proofs verified are kept" in out
    assert not any(w.is_running() and w.status() != psutil.STATUS_ZOMBIE for w in workers)
    with OpeningBook.open(book) as b:  # what it kept (the proofs verified in that second) holds
        kept = sum(e.settled for e in b.entries())
    assert kept < proofs and verify_book(book, jobs=1).verified


def test_an_import_of_many_open_positions_reports_its_progress(tmp_path):
    folder = open_archive(tmp_path / "open", 3000)
    calls = []
    report = import_archive(tmp_path / "b.sqlite", folder, jobs=1, progress=lambda *a: calls.append(a))
    assert report.open == 3000
    assert calls and calls[-1][-2:] == (3000, 3000) and len(calls) > 2


# ---------------------------------------------------------------------- the whole corpus


@dataclass(frozen=True)
class Hostile:
    """An archive made hostile one way; ``whole``: the archive itself is refused (the book left as it was)."""

    name: str
    make: Callable[[Path, Path], None]  # (a copy of the good archive to change, a scratch folder)
    whole: bool = False
    refuses: bool = True  # a proof, by name (else the archive imports whole: what it claims falsely is not used)


def _member(kind: str) -> Callable[[Path, Path], None]:
    def make(folder: Path, scratch: Path) -> None:
        name = next(e["proof"] for e in read_index(folder)["entries"] if e["proof"])
        target = folder / name
        target.unlink()
        if kind == "fifo":
            os.mkfifo(target)
        elif kind == "folder":
            target.mkdir()
        else:
            target.symlink_to({"zero": "/dev/zero", "outside": str(scratch / "outside"), "dangling": "/no/such",
                               "index": INDEX}[kind])
            (scratch / "outside").write_bytes(b"\x1f\x8b" + b"\0" * 100)
    return make


def _index_member(kind: str) -> Callable[[Path, Path], None]:
    def make(folder: Path, scratch: Path) -> None:
        os.rename(folder / INDEX, scratch / INDEX)
        if kind == "fifo":
            os.mkfifo(folder / INDEX)
        elif kind == "zero":
            (folder / INDEX).symlink_to("/dev/zero")
        else:
            (folder / INDEX).symlink_to(scratch / INDEX)
    return make


def _proof_text(text: bytes, *, compressed: bool = True, size: int | None = None) -> Callable[[Path, Path], None]:
    def make(folder: Path, scratch: Path) -> None:
        index = read_index(folder)
        item = next(e for e in index["entries"] if e["proof"])
        data = gzip.compress(text, 6, mtime=0) if compressed else text
        (folder / item["proof"]).write_bytes(data)
        item["sha256"] = hashlib.sha256(data).hexdigest()
        if size is not None:
            item["proof_size"] = size
        (folder / INDEX).write_text(json.dumps(index))
    return make


def _cut(folder: Path) -> None:
    """One proof cut in half, its checksum made to match."""
    index = read_index(folder)
    item = next(e for e in index["entries"] if e["proof"])
    data = (folder / item["proof"]).read_bytes()[:-40]
    (folder / item["proof"]).write_bytes(data)
    item["sha256"] = hashlib.sha256(data).hexdigest()
    (folder / INDEX).write_text(json.dumps(index))


def _claims(claims: list[tuple[Position, str]]) -> Callable[[Path, Path], None]:
    def make(folder: Path, scratch: Path) -> None:
        made = _finished_claims(scratch, claims)
        index = read_index(folder)
        extra = read_index(made)["entries"]
        for item in extra:
            if item["proof"]:
                shutil.copyfile(made / item["proof"], folder / item["proof"])
        index["entries"] += extra
        (folder / INDEX).write_text(json.dumps(index))
    return make


def _wrong_move(folder: Path, scratch: Path) -> None:
    index = read_index(folder)
    for item in index["entries"]:
        if item["proof"]:
            p = parse_patashnik(item["position"])
            item["move"] = next(c for c in range(64) if p.at(c) != ".")
    (folder / INDEX).write_text(json.dumps(index))


def _raw_index(text: str) -> Callable[[Path, Path], None]:
    return lambda folder, scratch: (folder / INDEX).write_text(text)


def _fields(change: Callable[[dict], None]) -> Callable[[Path, Path], None]:
    def make(folder: Path, scratch: Path) -> None:
        index = json.loads((folder / INDEX).read_text())
        change(index)
        (folder / INDEX).write_text(json.dumps(index))
    return make


CORPUS = [
    Hostile("proof: link to /dev/zero", _member("zero")),
    Hostile("proof: link outside", _member("outside")),
    Hostile("proof: dangling link", _member("dangling")),
    Hostile("proof: link to the index", _member("index")),
    Hostile("proof: FIFO", _member("fifo")),
    Hostile("proof: a folder", _member("folder")),
    Hostile("index: FIFO", _index_member("fifo"), whole=True),
    Hostile("index: link to /dev/zero", _index_member("zero"), whole=True),
    Hostile("index: link outside", _index_member("outside"), whole=True),
    Hostile("bomb: 500 MB of zeros", _proof_text(b"\0" * (500 << 20))),
    Hostile("bomb: 300 MB of newlines", _proof_text(b"\n" * (300 << 20), size=2000)),
    Hostile("bomb: 300 MB of newlines, uncompressed", _proof_text(b"\n" * (300 << 20), compressed=False)),
    Hostile("proof: empty file", _proof_text(b"", compressed=False)),
    Hostile("proof: not ASCII", _proof_text("---\nxo 5 é\n".encode())),
    Hostile("proof: a line of 1 MB", _proof_text(b"x" * (1 << 20) + b"\n---\n")),
    Hostile("proof: gzip cut short", lambda folder, scratch: _cut(folder)),
    Hostile("false: a drawn board lost", _claims([(DRAWN, "loss")])),
    Hostile("false: a won board won by the loser", _claims([(WON, "win")])),
    Hostile("false: a drawn board won", _claims([(DRAWN, "win")])),
    Hostile("forced sequence with a taken cell as its move", _wrong_move, refuses=False),
    Hostile("index: empty", _raw_index(""), whole=True),
    Hostile("index: a list", _raw_index("[]"), whole=True),
    Hostile("index: 5,000 digits", _raw_index('{"format": "qubic-logic book archive", "version": ' + "9" * 5000 + "}"),
            whole=True),
    Hostile("index: NaN", _fields(lambda index: index["entries"][0].update(seconds=float("nan"))), whole=True),
    Hostile("index: nested 100,000 deep", lambda folder, scratch: _nested(folder), whole=True),
    Hostile("index: another format", _fields(lambda index: index.update(format="zip")), whole=True),
    Hostile("index: version 2", _fields(lambda index: index.update(version=2)), whole=True),
    *(Hostile(f"field: {name}", _fields(change), whole=True) for name, change, _ in BAD_FIELDS),
]


@pytest.mark.slow
def test_the_hostile_archive_corpus_never_ends_in_an_internal_error_nor_changes_a_book_it_refuses(
        archive, forced, tmp_path, capsys):
    base = tmp_path / "base.sqlite"  # a book with entries of its own, none of the archive's: every proof is read
    import_archive(base, forced / "proofs", jobs=2)
    for case in CORPUS:
        work = tmp_path / case.name.replace(" ", "_").replace("/", "_")
        folder, scratch = work / "archive", work / "scratch"
        scratch.mkdir(parents=True)
        shutil.copytree(archive / "proofs", folder)
        case.make(folder, scratch)
        book = work / "b.sqlite"
        shutil.copyfile(base, book)
        before = book_bytes(book)
        status, out, err = cli(capsys, "book", "import", str(book), str(folder), "--jobs", "2")
        assert "internal error" not in err and "Traceback" not in err, (case.name, err)
        if case.whole:
            assert status == 2 and out == "" and len(err.strip().splitlines()) == 1, (case.name, out, err)
            assert book_bytes(book) == before, case.name
        else:
            assert (status, "refused" in out) == ((1, True) if case.refuses else (0, False)), (case.name, out, err)
            assert err == "", (case.name, err)
            assert verify_book(book, jobs=2).verified, case.name  # whatever it kept holds
            with OpeningBook.open(book) as b:  # and every move it plays is an empty cell
                assert all(e.move is None or e.position.at(e.move) == "." for e in b.entries()), case.name
        fresh = work / "new.sqlite"
        status, out, err = cli(capsys, "book", "import", str(fresh), str(folder), "--jobs", "2")
        assert "internal error" not in err and (status != 2 or not fresh.exists()), (case.name, err)
        shutil.rmtree(work)
