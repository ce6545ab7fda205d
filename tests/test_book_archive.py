"""Book archives: export, import (every proof verified first), refusals by name, propagation across imports,
and the book shipped in the package."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from qubic_logic.book import OpeningBook, build_book
from qubic_logic.book.archive import INDEX, export_archive, import_archive, read_index, shipped_archive
from qubic_logic.book.store import canonical_key
from qubic_logic.book.verify import verify_book
from qubic_logic.errors import QubicError
from qubic_logic.notation import format_patashnik, parse_patashnik, parse_position

ROOT = parse_position("1-2,22-52,27")  # O to move: 59 reply classes, each an X win found in a few seconds in all
QUBIC = [sys.executable, "-m", "qubic_logic.cli"]


def qubic(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*QUBIC, *args], capture_output=True, text=True, timeout=900)


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("archive")
    build_book(folder / "b.sqlite", 6, root=ROOT, jobs=1)
    export_archive(folder / "b.sqlite", folder / "proofs")
    return folder


def _values(path: Path) -> dict[str, tuple]:
    with OpeningBook.open(path) as book:
        return {format_patashnik(e.position): (e.value, e.move, e.proof_size) for e in book.entries()}


@pytest.mark.slow
def test_export_writes_one_proof_per_searched_position_and_import_gives_the_same_book(archive, tmp_path):
    index = read_index(archive / "proofs")
    files = sorted(p.name for p in (archive / "proofs").iterdir() if p.name != INDEX)
    assert len(index["entries"]) == 60 and len(files) == 59
    assert sorted(e["proof"] for e in index["entries"] if e["proof"]) == files
    report = import_archive(tmp_path / "c.sqlite", archive / "proofs", jobs=1)
    assert (report.imported, report.derived, report.refused, report.open) == (59, 1, [], 0)
    assert report.positions > 59  # the verifier walked every proof
    assert _values(tmp_path / "c.sqlite") == _values(archive / "b.sqlite")
    with OpeningBook.open(tmp_path / "c.sqlite") as book:
        assert book.lookup(ROOT).value == "loss"
    assert verify_book(tmp_path / "c.sqlite", jobs=1).verified


def test_export_of_chosen_positions_writes_only_them_and_they_import_verified(archive, tmp_path):
    classes: dict = {}
    for reply in ROOT.legal_moves():
        classes.setdefault(canonical_key(ROOT.play(reply))[:2], reply)
    named = [format_patashnik(ROOT.play(reply)) for reply in list(classes.values())[:2]]  # found up to symmetry
    done = qubic("book", "export", str(archive / "b.sqlite"), str(tmp_path / "two"), *named)
    assert done.returncode == 0 and "2 positions, 2 proof files" in done.stdout, done.stderr
    chosen = [e["position"] for e in read_index(tmp_path / "two")["entries"]]
    assert len(chosen) == 2 and set(chosen) <= set(e["position"] for e in read_index(archive / "proofs")["entries"])
    report = import_archive(tmp_path / "c.sqlite", tmp_path / "two", jobs=1)
    assert (report.imported, report.refused) == (2, [])
    missing = qubic("book", "export", str(archive / "b.sqlite"), str(tmp_path / "none"), "moves:5")
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1 and "is not in" in missing.stderr
    assert not (tmp_path / "none").exists()


def _damage(folder: Path) -> str:
    """Flip two bytes inside one proof file (its index unchanged); returns its name."""
    name = next(e["proof"] for e in read_index(folder)["entries"] if e["proof"])
    data = bytearray((folder / name).read_bytes())
    data[30] ^= 0xFF
    data[31] ^= 0xFF
    (folder / name).write_bytes(bytes(data))
    return name


def test_import_refuses_a_damaged_proof_names_it_and_keeps_its_parent_open(archive, tmp_path):
    bad = tmp_path / "bad"
    shutil.copytree(archive / "proofs", bad)
    name = _damage(bad)
    done = qubic("book", "import", str(tmp_path / "d.sqlite"), str(bad), "--jobs", "1")
    assert done.returncode == 1
    assert f"refused {name}: damaged" in done.stdout
    assert "58 proofs" in done.stdout and "1 refused" in done.stdout
    shown = qubic("book", "show", str(tmp_path / "d.sqlite"), format_patashnik(ROOT))
    assert "O to move: open" in shown.stdout  # one reply unshown: the loss is not claimed


@pytest.mark.slow
def test_import_refuses_a_proof_that_does_not_win_even_with_a_matching_checksum(archive, tmp_path):
    wrong = tmp_path / "wrong"
    shutil.copytree(archive / "proofs", wrong)
    index = read_index(wrong)
    first, second = [e for e in index["entries"] if e["proof"]][:2]
    data = (wrong / second["proof"]).read_bytes()
    (wrong / first["proof"]).write_bytes(data)  # another position's proof under this one's name
    first["sha256"] = hashlib.sha256(data).hexdigest()
    (wrong / INDEX).write_text(json.dumps(index))
    report = import_archive(tmp_path / "e.sqlite", wrong, jobs=1)
    assert [name for name, _ in report.refused] == [first["proof"]]
    assert "does not hold" in report.refused[0][1]
    with OpeningBook.open(tmp_path / "e.sqlite") as book:
        assert book.get(parse_patashnik(first["position"])).value == "open"
        assert book.lookup(ROOT).value == "open"


@pytest.mark.slow
def test_a_sub_position_archive_settles_the_parent_when_imported_later(archive, tmp_path):
    """Work from separate runs adds up: the main archive lacks one reply, a second run's archive has it."""
    partial = tmp_path / "partial"
    shutil.copytree(archive / "proofs", partial)
    index = read_index(partial)
    missing = next(e for e in index["entries"] if e["proof"])
    index["entries"].remove(missing)
    (partial / INDEX).write_text(json.dumps(index))
    book = tmp_path / "main.sqlite"
    import_archive(book, partial, jobs=1)
    with OpeningBook.open(book) as b:
        assert b.lookup(ROOT).value == "open"
    sub = parse_patashnik(missing["position"])
    build_book(tmp_path / "sub.sqlite", sub.count, root=sub, jobs=1)  # the reply searched on its own
    export_archive(tmp_path / "sub.sqlite", tmp_path / "sub")
    report = import_archive(book, tmp_path / "sub", jobs=1)
    assert (report.imported, report.derived) == (1, 1)
    with OpeningBook.open(book) as b:
        assert b.lookup(ROOT).value == "loss"


def test_export_replaces_an_archive_but_not_another_folder(archive, tmp_path):
    other = tmp_path / "notes"
    other.mkdir()
    (other / "todo.txt").write_text("keep me")
    with pytest.raises(QubicError, match="not part of a book archive"):
        export_archive(archive / "b.sqlite", other)
    assert (other / "todo.txt").read_text() == "keep me"
    again = tmp_path / "again"
    export_archive(archive / "b.sqlite", again)
    export_archive(archive / "b.sqlite", again)  # an archive is replaced as a whole
    (again / "stale.dict.gz").write_bytes(b"old")  # a file its index does not list: not the export's to delete
    with pytest.raises(QubicError, match="stale.dict.gz"):
        export_archive(archive / "b.sqlite", again)
    assert (again / "stale.dict.gz").read_bytes() == b"old" and (again / INDEX).exists()
    assert again.stat().st_mode & 0o777 == (tmp_path / "notes").stat().st_mode & 0o777  # as mkdir makes it
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary folder left


def test_import_of_a_folder_without_an_index_is_one_line(tmp_path):
    done = qubic("book", "import", str(tmp_path / "b.sqlite"), str(tmp_path))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"no {INDEX}" in done.stderr


def test_the_shipped_book_answers_without_a_build():
    index = read_index(shipped_archive())
    assert {e["position"] for e in index["entries"]} >= {"empty", "x", "1x"}
    corner = qubic("book", "show", "moves:0")
    assert corner.returncode == 0
    assert "O to move LOSES" in corner.stdout and "strategic positions" in corner.stdout
    empty = qubic("book", "show", "empty")
    assert "X to move WINS with 0" in empty.stdout
    weak = qubic("book", "show", "moves:1")
    settled = {e["position"]: e["value"] for e in index["entries"]}
    assert ("O to move LOSES" in weak.stdout) == (settled["1x"] == "loss")


@pytest.mark.slow
def test_the_shipped_book_verifies():
    done = qubic("book", "verify", "--jobs", "2")
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.strip().splitlines()
    assert all("VERIFIED" in line for line in lines)
    index = read_index(shipped_archive())
    assert len(lines) - 1 == sum(e["value"] in ("win", "loss") for e in index["entries"])


def test_the_shipped_book_settles_the_weak_opening_and_its_hardest_replies_import_verified(tmp_path):
    book = tmp_path / "all.sqlite"
    import_archive(book, shipped_archive(), jobs=2, verify=False)
    replies = {}  # O's replies to X's weak opening 1, one of each class up to symmetry
    for reply in range(64):
        if reply != 1:
            replies.setdefault(canonical_key(parse_position(f"moves:1,{reply}"))[:2], reply)
    with OpeningBook.open(book) as b:
        entries = {reply: b.lookup(parse_position(f"moves:1,{reply}")) for reply in replies.values()}
        weak = b.lookup(parse_position("moves:1")).value
    assert len(entries) == 23 and {e.value for e in entries.values()} <= {"win", "open"}
    assert weak == ("loss" if all(e.value == "win" for e in entries.values()) else "open")  # settled by its replies
    # the four replies that took the most nodes, exported alone from the book, import with their proofs verified
    hard = sorted(entries, key=lambda r: entries[r].entry.nodes)[-4:]
    done = qubic("book", "export", str(book), str(tmp_path / "hard"), *(f"moves:1,{r}" for r in hard))
    assert done.returncode == 0, done.stderr
    report = import_archive(tmp_path / "hard.sqlite", tmp_path / "hard", jobs=2)
    assert not report.refused and report.imported == sum(entries[r].value == "win" for r in hard)
    with OpeningBook.open(tmp_path / "hard.sqlite") as b:
        assert [b.lookup(parse_position(f"moves:1,{r}")).value for r in hard] == [entries[r].value for r in hard]


ALTERNATIVES = [shipped_archive().parent / name for name in ("alternatives", "alternatives-smallest")]


@pytest.mark.parametrize("folder", ALTERNATIVES, ids=lambda folder: folder.name)
def test_the_alternatives_archives_import_with_their_proofs_verified_as_far_as_a_time_limit_goes(folder, tmp_path):
    report = import_archive(tmp_path / "alt.sqlite", folder, jobs=1, time_limit=5)
    proven = sum(e["proof"] is not None for e in read_index(folder)["entries"])
    assert not report.refused and report.imported > 0 and report.positions > report.imported
    assert report.proofs == proven and report.imported + report.unchecked == proven
    again = import_archive(tmp_path / "alt.sqlite", folder, jobs=1, time_limit=5)  # goes on with the rest
    assert not again.refused and again.already == report.imported and again.imported > 0


@pytest.mark.slow
@pytest.mark.parametrize("folder", ALTERNATIVES, ids=lambda folder: folder.name)
def test_every_proof_of_the_alternatives_archives_verifies(folder, tmp_path):
    report = import_archive(tmp_path / "alt.sqlite", folder, jobs=2)
    proven = sum(e["proof"] is not None for e in read_index(folder)["entries"])
    assert (report.refused, report.imported, report.stopped) == ([], proven, None)
