"""The opening book: build through the executors, propagate, resume after SIGKILL, query, verify."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from qubic_logic.bench.interrupts import ctrl_c_as_in_a_terminal
from qubic_logic.book import OpeningBook, build_book, children
from qubic_logic.book.build import BookTree, propagated
from qubic_logic.book.store import SCHEMA_VERSION, BookEntry
from qubic_logic.book.verify import verify_book
from qubic_logic.errors import DataFormatError, QubicError
from qubic_logic.executor import make_executor
from qubic_logic.players import make_player
from qubic_logic.notation import format_patashnik, parse_patashnik, parse_position
from qubic_logic.position import Game, Position
from qubic_logic.strategy import StrategyDictionary
from qubic_logic.proof.split import reply_classes
from qubic_logic.strategy.verify import verify
from qubic_logic.symmetry import TRANSFORMS, map_mask

# O to move after X's 5 in Patashnik's x2x16o4o: every one of O's 59 reply classes is an X win (his proof),
# found by searches of a few seconds in all: a book to 6 stones from here has 60 positions.
ROOT = parse_patashnik("x2x1x14o4o")
QUBIC = [sys.executable, "-m", "qubic_logic.cli"]
TIGHT = "moves:1,24"  # X to move, won in about a second (353,022 nodes): open at a 0.05 s budget


def qubic(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run([*QUBIC, *args], capture_output=True, text=True, timeout=600)
    if check:
        assert done.returncode == 0, done.stderr
    return done


@pytest.fixture(scope="module")
def small_book(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("book") / "b.sqlite"
    report = build_book(path, 6, root=ROOT, jobs=2)
    assert (report.settled, report.total, report.units, report.stopped) == (60, 60, 59, None)
    return path


def test_the_tree_has_one_position_per_class_and_searches_the_x_to_move_frontier():
    assert [len(level) for level in BookTree(Position(), 2).levels] == [1, 2, 35]
    assert len(children(Position.from_cells([0]))) == len(reply_classes(Position(), 0)) == 12
    # O to move at N stones is settled through its replies: the frontier is one level deeper
    tree = BookTree(Position(), 1)
    assert [len(level) for level in tree.levels] == [1, 2, 35] and len(tree.frontier) == 35
    with pytest.raises(QubicError, match="more than --stones"):
        BookTree(ROOT, 4)


def test_propagation_is_minimax_over_proven_values():
    p = Position.from_cells([0])                       # O to move
    kids = children(p)
    won = {k: BookEntry(Position(*k), "win", 1, 10 + i, how="solved")
           for i, k in enumerate(kids)}
    lost = propagated(p, won, kids)
    assert lost.value == "loss" and lost.how == "replies"
    longest = max(won, key=lambda k: won[k].proof_size)
    assert lost.move == kids[longest]                  # the reply that holds out longest
    one_open = {**won, longest: BookEntry(Position(*longest), "open")}
    assert propagated(p, one_open, kids) is None       # never guessed
    no_win = {**won, longest: BookEntry(Position(*longest), "no win", how="solved")}
    assert propagated(p, no_win, kids) is None
    # X to move: one move to a loss wins, the smallest proof is chosen
    e = Position()
    first = children(e)
    losses = {k: BookEntry(Position(*k), "loss", 5, size, how="replies")
              for k, size in zip(first, (7, 3))}
    win = propagated(e, losses, first)
    assert (win.value, win.move) == ("win", 1)         # the cell-1 class has the smaller proof


def test_a_build_settles_every_position_and_the_root_by_propagation(small_book):
    with OpeningBook.open(small_book) as book:
        counts = book.counts()
        assert counts == {(5, "loss"): 1, (6, "win"): 59}
        assert book.solves() == 59                    # the root was not searched: it was propagated
        root = book.get(ROOT)
        assert root.how == "replies"
        kids = [book.get(Position(*k)) for k in children(ROOT)]
        assert root.move in ROOT.legal_moves()
        assert root.proof_size == len(root.strategy())
        assert root.nodes == sum(k.nodes for k in kids)
        assert max(k.proof_size for k in kids) == book.get(ROOT.play(root.move)).proof_size


def test_lookup_maps_the_best_move_into_the_query_orientation(small_book):
    with OpeningBook.open(small_book) as book:
        child = ROOT.play(10)
        here = book.lookup(child)
        assert here.value == "win"
        for t in (5, 77, 191):
            image = Position(map_mask(t, child.x), map_mask(t, child.o))
            there = book.lookup(image)
            assert there.move == TRANSFORMS[t][here.move]
            assert there.move in image.legal_moves()
        assert book.lookup(Position.from_cells([0])) is None


def test_show_and_stats_print_values_moves_and_proof_sizes(small_book):
    out = qubic("book", "show", str(small_book), format_patashnik(ROOT)).stdout
    assert "O to move LOSES" in out and "strategic positions" in out
    assert out.count("  win") == 59                   # one line per class of replies
    data = json.loads(qubic("book", "show", str(small_book), "moves:0,20,3,25,5,10", "--json").stdout)
    assert data["value"] == "win" and data["in_book"] and data["move"] in range(64)
    missing = qubic("book", "show", str(small_book), "moves:0", check=False)
    assert missing.returncode == 1 and "not in the book" in missing.stdout
    stats = qubic("book", "stats", str(small_book)).stdout
    assert "60 positions" in stats and "largest proofs" in stats
    data = json.loads(qubic("book", "stats", str(small_book), "--json").stdout)
    assert data["by_stones"] == {"5": {"loss": 1}, "6": {"win": 59}} and data["searches"] == 59


def test_show_writes_the_stored_strategy_for_the_verifier(small_book, tmp_path):
    out = tmp_path / "won.dict"
    won = parse_position("moves:0,20,3,25,5,10")
    printed = qubic("book", "show", str(small_book), "moves:0,20,3,25,5,10", "-o", str(out)).stdout
    assert f"strategy written to {out}" in printed
    stored = OpeningBook.open(small_book).lookup(won).entry
    written = StrategyDictionary.load(out)
    assert stored.value == "win" and len(written) == stored.proof_size
    assert verify(written, won, jobs=1).verdict == "verified"
    loss = qubic("book", "show", str(small_book), format_patashnik(ROOT), "-o", str(tmp_path / "l.dict"), check=False)
    assert loss.returncode == 1 and "answers each move" in loss.stdout and not (tmp_path / "l.dict").exists()
    bad = qubic("book", "show", str(small_book), format_patashnik(ROOT), "-o", str(tmp_path / "no" / "x"),
                check=False)
    assert bad.returncode == 2 and "does not exist" in bad.stderr


def test_a_second_run_searches_nothing_and_a_larger_budget_retries_only_open(small_book, tmp_path):
    report = build_book(small_book, 6, root=ROOT, jobs=1)
    assert (report.units, report.settled) == (0, 60)
    with OpeningBook.open(small_book) as book:
        assert book.solves() == 59
    with pytest.raises(QubicError, match="from the root"):
        build_book(small_book, 6, root=Position())
    # a budget too small to settle anything leaves positions open; a larger one searches them again
    path = tmp_path / "tight.sqlite"
    tight = parse_position(TIGHT)
    first = build_book(path, 2, root=tight, budget=0.05, jobs=1)
    assert (first.open, first.units) == (1, 1)
    again = build_book(path, 2, root=tight, budget=0.05, jobs=1)
    assert again.units == 0
    more = build_book(path, 2, root=tight, budget=60, jobs=1)
    assert (more.units, more.settled) == (1, 1)


def test_an_open_position_keeps_its_search_table_and_a_larger_budget_goes_on_from_it(tmp_path):
    path = tmp_path / "b.sqlite"
    tight = parse_position(TIGHT)
    first = build_book(path, 2, root=tight, budget=0.05, jobs=1)
    assert (first.open, first.units) == (1, 1)
    with OpeningBook.open(path) as book:
        count, size = book.saved_tables()
        assert count == 1 and size > 0 and book.saved_table(tight) is not None
        before = book.get(tight)
    assert "saved search tables of open positions: 1 (" in qubic("book", "stats", str(path)).stdout
    shown = qubic("book", "show", str(path), TIGHT).stdout
    assert re.search(r"search in build 1: unknown \(time limit\), [\d,]+ nodes, [\d.]+ s, root proof number "
                     r"[\d,]+, disproof number [\d,]+$", shown, re.M), shown
    assert "its search table is saved" in shown
    more = build_book(path, 2, root=tight, budget=60, jobs=1)
    assert (more.units, more.settled) == (1, 1)
    with OpeningBook.open(path) as book:
        entry = book.get(tight)
        assert entry.value == "win" and entry.budget == 60 and book.saved_tables() == (0, 0)
        runs = book.db.execute("SELECT status, nodes, seconds FROM solves ORDER BY id").fetchall()
    assert [status for status, *_ in runs] == ["unknown (time limit)", "won (went on)"]
    assert entry.nodes == sum(nodes for _, nodes, _ in runs) and runs[0][1] == before.nodes > 0
    assert entry.seconds == pytest.approx(sum(seconds for *_, seconds in runs))


def test_the_build_s_time_limit_cuts_its_searches_and_the_same_command_goes_on(tmp_path):
    path = tmp_path / "b.sqlite"
    command = ["book", "build", str(path), "--stones", "2", "--root", TIGHT, "--budget", "60",
               "--jobs", "1"]
    done = qubic(*command, "--time-limit", "0.05")
    assert "0 of 1 position settled, 1 open" in done.stdout and "time limit: every settled position" in done.stdout
    with OpeningBook.open(path) as book:
        entry = book.get(parse_position(TIGHT))
        assert entry.value == "open" and 0 < entry.budget <= 0.05 and book.saved_tables()[0] == 1
    done = qubic(*command)
    assert "1 of 1 position settled" in done.stdout and "complete: every position is settled" in done.stdout
    with OpeningBook.open(path) as book:
        assert book.get(parse_position(TIGHT)).budget == 60
        assert [s for s, in book.db.execute("SELECT status FROM solves ORDER BY id")] == \
               ["unknown (time limit)", "won (went on)"]
    # a build whose time is up before a unit starts searches nothing and records nothing
    report = build_book(tmp_path / "late.sqlite", 2, root=parse_position(TIGHT), jobs=1, time_limit=1e-9)
    assert (report.searched, report.open, report.stopped) == (0, 1, "time limit")


def test_a_build_runs_in_rounds_each_going_on_from_the_last_one_s_table(tmp_path):
    """--first-round 0.05 --budget 60: rounds of 0.05, 0.4, 3.2, 25.6 and 60 s; TIGHT (about 1 s) is
    open after the first and settles in a later one, going on from the saved table; no round after it searches
    (nor says anything)."""
    path = tmp_path / "b.sqlite"
    done = qubic("book", "build", str(path), "--stones", "2", "--root", TIGHT, "--budget", "60",
                 "--first-round", "0.05", "--jobs", "1")
    rounds = re.findall(r"^round (\d) of 5 \(([\d.]+) s a position\): searched (\d) of (\d)", done.stderr, re.M)
    assert rounds[0] == ("1", "0.05", "0", "1") and ("1", "0.05", "1", "1") in rounds, done.stderr
    with OpeningBook.open(path) as book:
        entry = book.get(parse_position(TIGHT))
        statuses = [s for s, in book.db.execute("SELECT status FROM solves ORDER BY id")]
    assert entry.value == "win" and 2 <= len(statuses) <= 5
    assert statuses[0] == "unknown (time limit)" and statuses[-1] == "won (went on)"
    assert all(s == "unknown (time limit) (went on)" for s in statuses[1:-1])
    assert entry.budget == pytest.approx([0.05, 0.4, 3.2, 25.6, 60][len(statuses) - 1])  # the round it settled in
    assert max(int(r) for r, *_ in rounds) == len(statuses)  # the rounds after it had nothing to search
    assert f"{len(statuses)} of {len(statuses)} searches run this time" in done.stdout


def test_a_version_1_book_is_upgraded_in_place(tmp_path):
    path = tmp_path / "old.sqlite"
    with OpeningBook.open(path, create=True) as book:
        book.settle(BookEntry(parse_position("moves:0"), "loss", move=21, proof_size=3))
    db = sqlite3.connect(path)  # version 1: no saved tables, no numbers of open searches, no search tree
    db.executescript("""DROP TABLE tables; DROP TABLE solves; DROP TABLE tree_nodes; DROP TABLE tree_edges;
        DROP TABLE tree_roots; DROP TABLE tree_jobs; DROP TABLE tree_trace;
        CREATE TABLE solves (id INTEGER PRIMARY KEY, build INTEGER NOT NULL, x INTEGER NOT NULL,
            o INTEGER NOT NULL, status TEXT NOT NULL, nodes INTEGER NOT NULL, seconds REAL NOT NULL,
            budget REAL, finished_at TEXT NOT NULL);
        INSERT INTO solves VALUES (1, 1, 1, 0, 'unknown (time limit)', 5, 0.5, 0.5, '2026-01-01');
        PRAGMA user_version = 1;""")
    db.close()
    with OpeningBook.open(path) as book:
        assert book.saved_tables() == (0, 0) and book.get(parse_position("moves:0")).move == 21
        assert book.searches(parse_position("moves:0")) == [(1, "unknown (time limit)", 5, 0.5, None, None)]
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 3


def _settled(path: Path) -> int:
    try:
        db = sqlite3.connect(path)
        return db.execute("SELECT count(*) FROM positions WHERE value != 'open'").fetchone()[0]
    except sqlite3.Error:
        return 0


@pytest.mark.slow
def test_sigkill_then_rerun_finishes_without_searching_settled_positions_again(tmp_path):
    path = tmp_path / "b.sqlite"
    args = [*QUBIC, "book", "build", str(path), "--stones", "6", "--root", format_patashnik(ROOT), "--jobs", "1"]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 120
    while _settled(path) < 15 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)               # the build and its workers, no chance to clean up
    proc.wait()
    before = _settled(path)
    assert 15 <= before < 60
    with OpeningBook.open(path) as book:
        searched_before = book.solves()
    qubic("book", "build", str(path), "--stones", "6", "--root", format_patashnik(ROOT), "--jobs", "1")
    with OpeningBook.open(path) as book:
        assert book.counts() == {(5, "loss"): 1, (6, "win"): 59}
        # every position was searched once; the re-run searched only the ones not settled before the kill
        rows = book.db.execute("SELECT x, o, count(*) FROM solves GROUP BY x, o").fetchall()
        assert len(rows) == 59 and all(n == 1 for *_, n in rows)
        assert book.solves() - searched_before == 59 - before
        assert book.solves(2) == 59 - before


@pytest.mark.slow
def test_ctrl_c_keeps_settled_positions_and_says_how_to_continue(tmp_path):
    path = tmp_path / "b.sqlite"
    proc = subprocess.Popen([*QUBIC, "book", "build", str(path), "--stones", "6", "--root",
                             format_patashnik(ROOT), "--jobs", "1"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=ctrl_c_as_in_a_terminal)
    while _settled(path) < 10 and proc.poll() is None:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)                 # Ctrl-C reaches the whole process group
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err  # as every command after Ctrl-C
    assert "interrupted" in out and "run the same command to continue" in out
    # stderr is no terminal here, so each search is logged as a line instead of the bar being drawn
    assert re.search(r"^round 1 of 1 \(60 s\): searched \d+ of 59: settled \d+ · open \d+ · remaining \d+ search(es)?$",
                     err, re.M), err
    kept = _settled(path)
    assert 10 <= kept < 60
    with OpeningBook.open(path) as book:
        assert book.db.execute("SELECT stopped FROM builds").fetchone()[0] == "interrupted"


def test_ctrl_c_lets_a_running_search_hand_in_its_table(tmp_path):
    """A search of about a minute (moves:0,21), interrupted after 3 s: it ends at once and keeps its work."""
    path = tmp_path / "b.sqlite"
    proc = subprocess.Popen([*QUBIC, "book", "build", str(path), "--stones", "2", "--root", "moves:0,21",
                             "--budget", "600", "--jobs", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True, preexec_fn=ctrl_c_as_in_a_terminal)
    time.sleep(3)
    start = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130 and time.monotonic() - start < 30, err
    assert "the searches then running kept their tables" in out
    with OpeningBook.open(path) as book:
        entry = book.get(parse_position("moves:0,21"))
        status, nodes, seconds = book.db.execute("SELECT status, nodes, seconds FROM solves").fetchone()
        assert entry.value == "open" and book.saved_tables()[0] == 1
        assert status == "unknown (interrupted)" and nodes == entry.nodes > 0
        assert entry.budget == pytest.approx(seconds) and seconds < 600  # the time it had, not its budget


def test_foreign_corrupt_and_newer_files_are_refused_with_one_line(small_book, tmp_path):
    text = tmp_path / "notes.sqlite"
    text.write_text("not a database at all, just some text that is long enough to have a header\n" * 20)
    with pytest.raises(DataFormatError, match="not an SQLite database"):
        OpeningBook.open(text)
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE t (a)").connection.commit()
    with pytest.raises(DataFormatError, match="not a qubic-logic opening book"):
        OpeningBook.open(other, create=True)
    newer = tmp_path / "newer.sqlite"
    OpeningBook.open(newer, create=True).close()
    db = sqlite3.connect(newer)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(DataFormatError, match="schema version"):
        OpeningBook.open(newer)
    with pytest.raises(QubicError, match="no opening book"):
        OpeningBook.open(tmp_path / "absent.sqlite")
    done = qubic("book", "show", str(other), "empty", check=False)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "not a qubic-logic opening book" in done.stderr
    # a damaged page is caught by the integrity check of build, stats and verify
    damaged = tmp_path / "damaged.sqlite"
    raw = bytearray(small_book.read_bytes())
    page = 4096
    assert len(raw) >= 3 * page
    raw[2 * page: 2 * page + 400] = b"\xff" * 400
    damaged.write_bytes(bytes(raw))
    done = qubic("book", "stats", str(damaged), check=False)
    assert done.returncode == 2 and ("damaged" in done.stderr or "not a readable" in done.stderr), done.stderr
    done = qubic("book", "build", str(tmp_path / "missing" / "b.sqlite"), "--stones", "1", check=False)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "folder" in done.stderr
    assert "searching" not in done.stderr  # refused before any search starts


def test_verify_checks_every_strategy_and_catches_a_tampered_one(small_book, tmp_path):
    out = qubic("book", "verify", str(small_book), "--jobs", "2")
    lines = out.stdout.splitlines()
    assert sum("VERIFIED" in line for line in lines[:-1]) == 60
    assert "VERIFIED — 60 of 60 strategies verified" in lines[-1]
    tampered = tmp_path / "t.sqlite"
    tampered.write_bytes(small_book.read_bytes())
    with OpeningBook.open(tampered, write=True) as book:
        root = book.get(ROOT)
        book.settle(BookEntry(root.position, "loss", root.move, 1, how="replies", strategy_text="x\n---\n"))
    result = verify_book(tampered, jobs=1)
    assert not result.verified
    assert [r[3] for r in result.results if r[0] == format_patashnik(ROOT)] == ["refuted"]
    assert qubic("book", "verify", str(tampered), "--jobs", "1", check=False).returncode == 1


def test_the_solver_player_plays_the_book(small_book):
    game = Game([0, 20, 3, 25, 5])
    with OpeningBook.open(small_book) as book:
        best = book.lookup(game.position).move
    move = make_player(f"solver:book={small_book}").choose(game)
    assert move.cell == best and "opening book" in move.explanation
    out = qubic("reply", f"solver:book={small_book}", "moves:0,20,3,25,5,10", "--json").stdout
    assert "opening book: wins" in json.loads(out)["explanation"]


@pytest.mark.slow
def test_dask_local_cluster_gives_the_local_build(small_book, tmp_path):
    path = tmp_path / "dask.sqlite"
    with make_executor("dask", jobs=2) as ex:
        report = build_book(path, 6, root=ROOT, executor=ex)
    assert report.executor == "dask" and report.settled == 60
    _same_values(small_book, path)


def _same_values(a: Path, b: Path) -> None:
    with OpeningBook.open(a) as one, OpeningBook.open(b) as two:
        assert [(format_patashnik(e.position), e.value) for e in one.entries()] == \
               [(format_patashnik(e.position), e.value) for e in two.entries()]


@pytest.fixture
def dask_cluster(tmp_path):
    """A scheduler and two workers started with Dask's own commands, as separate processes on loopback."""
    scheduler_file = tmp_path / "scheduler.json"
    dask = [sys.executable, "-m", "dask"]
    procs = [subprocess.Popen([*dask, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                               "--scheduler-file", str(scheduler_file)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)]
    try:
        deadline = time.monotonic() + 60
        while not scheduler_file.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        address = json.loads(scheduler_file.read_text())["address"]
        for _ in range(2):
            procs.append(subprocess.Popen([*dask, "worker", address, "--nthreads", "1", "--nworkers", "1",
                                           "--host", "127.0.0.1", "--no-dashboard"],
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                          start_new_session=True))
        from dask.distributed import Client
        with Client(address, timeout=30) as client:
            client.wait_for_workers(2, timeout=60)
        yield address
    finally:
        for proc in reversed(procs):
            os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)


@pytest.mark.slow
def test_build_and_verify_on_a_separate_dask_scheduler_with_two_workers(small_book, tmp_path, dask_cluster):
    path = tmp_path / "cluster.sqlite"
    out = qubic("book", "build", str(path), "--stones", "6", "--root", format_patashnik(ROOT),
                "--scheduler", dask_cluster).stdout
    assert "60 of 60 positions settled" in out and "2 dask workers" in out
    _same_values(small_book, path)
    verified = qubic("book", "verify", str(path), "--scheduler", dask_cluster).stdout
    assert "VERIFIED — 60 of 60" in verified


@pytest.mark.slow
def test_the_bench_section_builds_on_one_and_two_workers_and_times_lookups():
    import io

    from rich.console import Console

    from qubic_logic import bench

    out = io.StringIO()
    bench.load("book").run(Console(file=out, width=120), quick=True)
    text = out.getvalue()
    assert "speed-up" in text and "lookups: 114" in text and "median" in text


def test_a_build_that_leaves_positions_open_says_so_in_its_last_line(tmp_path):
    done = qubic("book", "build", str(tmp_path / "b.sqlite"), "--stones", "2", "--root", TIGHT,
                 "--budget", "0.01", "--first-round", "inf", "--jobs", "1")
    last = done.stdout.strip().splitlines()[-1]
    assert "0 of 1 position settled, 1 open" in done.stdout
    assert last.startswith("done, 1 position left open within the budget of 0.01 s each")
    assert "complete" not in done.stdout


def test_a_win_counts_only_once_the_verifier_passed_its_proof(tmp_path):
    """The build records a search as a leaf job: the df-pn's result and the verifier's verdict from the
    worker. A proof the verifier did not pass is logged as refuted, leaves the position open, and stops."""
    from qubic_logic.book.build import Builder, BuildReport, _units
    from qubic_logic.book.leafjobs import LeafSearch, run_job

    root = parse_position("1-2,22-52,27")          # O to move: its replies are the frontier, each an X win
    with OpeningBook.open(tmp_path / "b.sqlite", create=True) as book:
        tree = BookTree(root, root.count)
        book.add_positions(tree.positions())
        builder = Builder(book, tree, book.start_build(root.count, None, "local", 1), BuildReport("b"))
        first, second = _units(book, tree, None)[:2]
        searches = [run_job(LeafSearch(unit.work(None))) for unit in (first, second)]
        assert [(s.result.status, s.verdict) for s in searches] == [("won", "verified")] * 2
        builder.record(first, searches[0])
        assert book.get(Position(*first.key)).value == "win"
        with pytest.raises(QubicError, match="the verifier does not pass the proof .* refuted: please report it"):
            builder.record(second, searches[1]._replace(verdict="refuted"))
        assert book.get(Position(*second.key)).value == "open"
        assert "refuted by the verifier (refuted)" in book.searches(Position(*second.key))[-1].status
