"""Damaged and foreign books and brains: every command answers with one line naming the file
(never "internal error"), and a refused file is left exactly as it was.

The corpus is made from a real book and a real brain: truncations, flipped bytes, zeroed
pages, foreign databases, dropped tables, broken zlib blobs, bad JSON and text that is not
UTF-8. The whole corpus is slow; a sample of every kind runs in the quick suite.
"""

from __future__ import annotations

import hashlib
import random
import shutil
import sqlite3
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest

from qubic_logic.book import build_book
from qubic_logic.cli import main
from qubic_logic.notation import parse_position
from qubic_logic.players.doake.store import Brain
from qubic_logic.players.doake.train import train

ROOT = "1-2,22-52,27"  # O to move: 59 replies, each an X win (a small book with strategies)


@dataclass(frozen=True)
class Variant:
    name: str
    make: Callable[[Path, Path], None]  # (the good file, the damaged one to write)
    refused: bool = False  # by every command (not ours at all, or its schema broken)


def _copy(good: Path, bad: Path) -> None:
    shutil.copyfile(good, bad)


def truncated(size: int | float) -> Callable[[Path, Path], None]:
    def make(good: Path, bad: Path) -> None:
        data = good.read_bytes()
        bad.write_bytes(data[: int(size * len(data)) if isinstance(size, float) else size])
    return make


def flipped(offset: int | float, mask: int) -> Callable[[Path, Path], None]:
    def make(good: Path, bad: Path) -> None:
        data = bytearray(good.read_bytes())
        at = int(offset * len(data)) if isinstance(offset, float) else offset
        data[at % len(data)] ^= mask
        bad.write_bytes(bytes(data))
    return make


def zeroed_page(page: int) -> Callable[[Path, Path], None]:
    def make(good: Path, bad: Path) -> None:
        data = bytearray(good.read_bytes())
        size = int.from_bytes(data[16:18], "big") or 65536
        start = (page * size) % len(data)
        data[start:start + size] = bytes(len(data[start:start + size]))
        bad.write_bytes(bytes(data))
    return make


def sql(*statements: str) -> Callable[[Path, Path], None]:
    def make(good: Path, bad: Path) -> None:
        shutil.copyfile(good, bad)
        db = sqlite3.connect(bad)
        for statement in statements:
            db.execute(statement)
        db.commit()
        db.execute("PRAGMA journal_mode = DELETE")  # one file: the variant is what is on disk
        db.close()
    return make


def raw(data: bytes) -> Callable[[Path, Path], None]:
    def make(good: Path, bad: Path) -> None:
        bad.write_bytes(data)
    return make


def foreign(*statements: str) -> Callable[[Path, Path], None]:
    def make(good: Path, bad: Path) -> None:
        db = sqlite3.connect(bad)
        for statement in statements:
            db.execute(statement)
        db.commit()
        db.close()
    return make


def common_variants(size: int, seed: int) -> list[Variant]:
    """Damage any SQLite file can suffer, and files that are not ours."""
    rng = random.Random(seed)
    out = [Variant(f"truncated to {n} bytes", truncated(n), 0 < n < 100) for n in (0, 1, 15, 16, 50, 99, 100, 101, 512,
                                                                                1024, 4095, 4096, 4097, 8192)]
    out += [Variant(f"truncated to {f:.0%}", truncated(f)) for f in (0.1, 0.25, 0.5, 0.75, 0.9, 0.99)]
    out += [Variant(f"header byte {i} flipped", flipped(i, 0xFF)) for i in range(0, 100, 4)]
    out += [Variant(f"byte {o} flipped ({m:#x})", flipped(o, m))
            for o, m in ((rng.randrange(100, size), rng.choice((1, 0x10, 0x80, 0xFF))) for _ in range(60))]
    out += [Variant(f"page {p} zeroed", zeroed_page(p)) for p in range(max(2, size // 4096))]
    out += [
        Variant("a text file", raw(b"hello, this is not a database\n" * 40), True),
        Variant("not UTF-8 bytes", raw(bytes(range(256)) * 16), True),
        Variant("an SQLite header and nothing else", raw(b"SQLite format 3\x00" + bytes(84)), True),
        Variant("a PNG", raw(b"\x89PNG\r\n\x1a\n" + bytes(200)), True),
        Variant("another program's database", foreign("CREATE TABLE positions (a, b)",
                                                       "INSERT INTO positions VALUES (1, 2)"), True),
        Variant("another program's database with a meta table",
                foreign("CREATE TABLE meta (key TEXT, value TEXT)", "INSERT INTO meta VALUES ('format', 'x')"), True),
        Variant("a database with a view only", foreign("CREATE VIEW v AS SELECT 1")),
        Variant("an empty database in WAL mode", foreign("PRAGMA journal_mode = WAL")),
    ]
    return out


def book_variants(size: int) -> list[Variant]:
    out = common_variants(size, 31)
    out += [Variant(f"table {t} dropped", sql(f"DROP TABLE {t}"), True) for t in ("meta", "positions", "builds",
                                                                                  "solves", "tables")]
    out += [
        Variant("column how dropped", sql("ALTER TABLE positions DROP COLUMN how"), True),
        Variant("schema version 7", sql("PRAGMA user_version = 7"), True),
        Variant("schema version 0", sql("PRAGMA user_version = 0"), True),
        Variant("application id of another program", sql("PRAGMA application_id = 12345"), True),
        Variant("strategies not zlib", sql("UPDATE positions SET strategy = x'0102030405' WHERE strategy IS NOT NULL")),
        Variant("strategies cut short", sql("UPDATE positions SET strategy = substr(strategy, 1, 20) "
                                            "WHERE strategy IS NOT NULL")),
        Variant("strategies zlib of bytes not ASCII", sql("UPDATE positions SET strategy = x'789cfbff0f00020001ff' "
                                                          "WHERE strategy IS NOT NULL")),
        Variant("strategies zlib of a bad dictionary",
                sql("UPDATE positions SET strategy = x'789ccbcb2f51c8c8cf4fcd0100162a03f6' "
                    "WHERE strategy IS NOT NULL")),
        Variant("root not UTF-8", sql("UPDATE meta SET value = CAST(x'ff41fe' AS TEXT) WHERE key = 'root'"), True),
        Variant("root not a position", sql("UPDATE meta SET value = 'zz' WHERE key = 'root'"), True),
        Variant("stones not a number", sql("UPDATE meta SET value = 'many' WHERE key = 'stones'"), True),
        Variant("value not UTF-8", sql("PRAGMA ignore_check_constraints = 1",
                                       "UPDATE positions SET value = CAST(x'ff' AS TEXT)")),
        Variant("the positions index dropped", sql("DROP INDEX positions_by_stones")),
        Variant("meta emptied", sql("DELETE FROM meta")),
    ]
    return out


def brain_variants(size: int) -> list[Variant]:
    out = common_variants(size, 72)
    out += [Variant(f"table {t} dropped", sql(f"DROP TABLE {t}"), True) for t in ("meta", "patterns", "games",
                                                                                  "evaluations")]
    out += [
        Variant("column lesson dropped", sql("ALTER TABLE games DROP COLUMN lesson"), True),
        Variant("format of another program", sql("UPDATE meta SET value = 'other' WHERE key = 'format'"), True),
        Variant("schema version 9", sql("UPDATE meta SET value = '9' WHERE key = 'schema_version'"), True),
        Variant("format not UTF-8", sql("UPDATE meta SET value = CAST(x'fffe' AS TEXT) WHERE key = 'format'"), True),
        Variant("moves not JSON", sql("UPDATE games SET moves = '[1, 2'")),
        Variant("moves JSON of the wrong kind", sql("UPDATE games SET moves = '{\"a\": 1}'")),
        Variant("lesson not UTF-8", sql("UPDATE games SET lesson = CAST(x'c328ff' AS TEXT)")),
        Variant("opponent not UTF-8", sql("UPDATE games SET opponent = CAST(x'ff' AS TEXT)")),
        Variant("patterns not the rule book", sql("UPDATE patterns SET e1 = 99 WHERE col = 1 AND kind = 'test'")),
        Variant("patterns emptied", sql("DELETE FROM patterns")),
        Variant("patterns of text", sql("UPDATE patterns SET e2 = 'many'")),
        Variant("meta emptied", sql("DELETE FROM meta")),
    ]
    return out


BOOK_COMMANDS = [["book", "show", "{f}", "empty"], ["book", "show", "{f}", ROOT],
                 ["book", "show", "{f}", ROOT + "-4", "-o", "{d}/won.dict"], ["book", "stats", "{f}"],
                 ["book", "build", "{f}", "--stones", "6", "--root", ROOT, "--jobs", "1", "--budget", "2"],
                 ["reply", "solver:book={f}", ROOT + "-4"]]
VERIFY = [["book", "verify", "{f}", "--jobs", "1"]]  # seconds on a book that opens: every 16th variant
BRAIN_COMMANDS = [["learn", "{f}", "--report"], ["learn", "{f}", "--export", "{d}/rules.pl"],
                  ["learn", "{f}", "--curve", "{d}/curve.csv"],
                  ["learn", "{f}", "--against", "random", "--games", "1"],
                  ["reply", "doake:brain={f}", "1-2"]]


@pytest.fixture(scope="module")
def good_files(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("good")
    book = folder / "book.sqlite"
    build_book(book, 6, jobs=1, root=parse_position(ROOT))
    brain = folder / "brain.sqlite"
    b = Brain(brain, create=True)
    try:
        train(b, "random", 12, 0, "plausible", None, None)
    finally:
        b.close()
    for path in (book, brain):  # one file on disk, as a user would copy it
        db = sqlite3.connect(path)
        db.execute("PRAGMA journal_mode = DELETE")
        db.close()
    return {"book": book, "brain": brain}


def digest(path: Path) -> str | None:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else None


def run_corpus(kind: str, variants: list[Variant], commands: list[list[str]], good: Path, tmp: Path,
               capsys) -> tuple[int, int]:
    """Every command on every variant; returns (runs, refusals)."""
    runs = refusals = 0
    for i, variant in enumerate(variants):
        for command in commands:
            folder = tmp / f"{kind}{i}-{commands.index(command)}"
            folder.mkdir()
            bad = folder / f"{kind}.sqlite"
            variant.make(good, bad)
            before = digest(bad)
            argv = [a.format(f=bad, d=folder) for a in command]
            status = main(argv)
            out, err = capsys.readouterr()
            where = f"{variant.name}: qubic {' '.join(command)}"
            assert "internal error" not in out + err, where + "\n" + err
            assert status in (0, 1, 2), where
            assert status == 2 or not variant.refused, where + ": not refused"
            if status == 2:
                refusals += 1
                lines = err.strip().splitlines()
                assert len(lines) == 1 and (str(bad) in lines[0] or "doake" in lines[0] or "solver" in lines[0]), \
                    (where, err)
                assert digest(bad) == before, where + ": a refused file was changed"
            runs += 1
    return runs, refusals


def _sample(variants: list[Variant], every: int) -> list[Variant]:
    """A few of each kind: the first, and every ``every``-th."""
    seen, out = set(), []
    for i, v in enumerate(variants):
        kind = v.name.split()[0]
        if kind not in seen or i % every == 0:
            seen.add(kind)
            out.append(v)
    return out


def test_a_sample_of_damaged_books_and_brains_is_refused_in_one_line(good_files, tmp_path, capsys):
    book = good_files["book"]
    runs, refused = run_corpus("book", _sample(book_variants(book.stat().st_size), 20), BOOK_COMMANDS[:4], book,
                               tmp_path, capsys)
    brain = good_files["brain"]
    more, refused_more = run_corpus("brain", _sample(brain_variants(brain.stat().st_size), 20), BRAIN_COMMANDS[:3],
                                    brain, tmp_path, capsys)
    assert refused and refused_more


@pytest.mark.slow
def test_the_whole_damaged_file_corpus_never_ends_in_an_internal_error(good_files, tmp_path, capsys):
    book, brain = good_files["book"], good_files["brain"]
    books, brains = book_variants(book.stat().st_size), brain_variants(brain.stat().st_size)
    assert len(books) + len(brains) >= 250
    runs, refused = run_corpus("book", books, BOOK_COMMANDS, book, tmp_path, capsys)
    verified, refused_verify = run_corpus("verify", books[::16], VERIFY, book, tmp_path, capsys)
    more, refused_more = run_corpus("brain", brains, BRAIN_COMMANDS, brain, tmp_path, capsys)
    assert runs + more == len(books) * len(BOOK_COMMANDS) + len(brains) * len(BRAIN_COMMANDS)
    assert refused and refused_verify and refused_more


def test_a_failing_command_leaves_a_0_byte_file_empty_and_a_foreign_one_unchanged(tmp_path, capsys):
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    assert main(["learn", str(empty), "--report"]) == 2
    assert main(["book", "show", str(empty), "empty"]) == 2
    assert empty.stat().st_size == 0 and not Path(f"{empty}-wal").exists()
    assert capsys.readouterr().err.count("is empty, not an opening book") == 1
    other = tmp_path / "other.sqlite"
    db = sqlite3.connect(other)
    db.execute("CREATE TABLE t (a)")
    db.commit()
    db.close()
    before = other.read_bytes()
    assert main(["learn", str(other), "--report"]) == 2
    assert main(["learn", str(other), "--against", "random", "--games", "1"]) == 2
    assert main(["book", "build", str(other), "--stones", "1", "--jobs", "1"]) == 2
    err = capsys.readouterr().err
    assert other.read_bytes() == before and err.count("not a Doake brain") == 2, err
    assert sqlite3.connect(other).execute("PRAGMA journal_mode").fetchone()[0] == "delete"


def test_a_second_writer_of_a_brain_or_a_book_is_told_so(good_files, tmp_path, capsys):
    brain = tmp_path / "brain.sqlite"
    shutil.copyfile(good_files["brain"], brain)
    holder = Brain(brain, write=True)
    try:
        games = holder.game_count()
        assert main(["learn", str(brain), "--against", "random", "--games", "1"]) == 2
        err = capsys.readouterr().err
        assert "being written by another qubic process" in err and len(err.strip().splitlines()) == 1
        assert main(["learn", str(brain), "--report"]) == 0  # readers are never stopped
    finally:
        holder.close()
    assert main(["learn", str(brain), "--against", "random", "--games", "1"]) == 0
    assert Brain(brain).game_count() == games + 1
    book = tmp_path / "book.sqlite"
    shutil.copyfile(good_files["book"], book)
    from qubic_logic.book import OpeningBook

    with OpeningBook.open(book, create=True):
        assert main(["book", "build", str(book), "--stones", "6", "--root", ROOT, "--jobs", "1"]) == 2
        assert "being written by another qubic process" in capsys.readouterr().err
        assert main(["book", "show", str(book), ROOT]) == 0


@pytest.mark.slow
def test_two_learn_runs_at_once_one_trains_the_other_is_refused(tmp_path):
    brain = tmp_path / "brain.sqlite"
    command = [sys.executable, "-m", "qubic_logic.cli", "learn", str(brain), "--against", "random"]
    assert subprocess.run(command + ["--games", "1"], capture_output=True).returncode == 0
    first = subprocess.Popen(command + ["--games", "400"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        while Brain(brain).game_count() < 3:  # the first is training
            assert first.poll() is None, first.stderr.read()
        second = subprocess.run(command + ["--games", "5"], capture_output=True, text=True)
    finally:
        first.terminate()
        first.wait(30)
    assert second.returncode == 2 and "being written by another qubic process" in second.stderr
    assert "internal error" not in second.stderr and len(second.stderr.strip().splitlines()) == 1
    count = Brain(brain).game_count()
    assert [g.number for g in Brain(brain).games()] == list(range(1, count + 1))
