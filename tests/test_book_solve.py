"""The two-level proof-number search kept in the book: its tree, every stop, workers that die, Dask."""

from __future__ import annotations

import json
import os
import resource
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from qubic_logic.bench.interrupts import ctrl_c_as_in_a_terminal
from qubic_logic.book import OpeningBook
from qubic_logic.book.archive import export_archive, import_archive, read_index
from qubic_logic.book.prooftree import ProofTree, evaluate
from qubic_logic.book.store import SCHEMA_VERSION, canonical_key
from qubic_logic.book.twolevel import SearchPlan, solve_in_book
from qubic_logic.book.verify import verify_book
from qubic_logic.executor import make_executor
from qubic_logic.notation import parse_position
from qubic_logic.proof.solve import INFINITY, solve

from .test_book import dask_cluster  # noqa: F401 - the fixture: a scheduler and two workers of Dask's own commands

QUBIC = [sys.executable, "-m", "qubic_logic.cli"]
# O to move after X's 0 and 3 around O's 27: 33 classes of replies, each an X win within 100,000 nodes
SMALL = "moves:0,27,3"
SMALL_JOBS = ["--job-nodes", "100000"]


def qubic(*args: str, check: bool = True, **options) -> subprocess.CompletedProcess:
    done = subprocess.run([*QUBIC, *args], capture_output=True, text=True, timeout=900, **options)
    if check:
        assert done.returncode == 0, done.stderr + done.stdout
    return done


def _jobs(path: Path) -> list[tuple]:
    """Every job row: id, x, o, kind, state, went_on, status, note, worker, proof number, disproof number."""
    try:
        with sqlite3.connect(path, timeout=30) as db:
            return db.execute("SELECT id, x, o, kind, state, went_on, status, note, worker, proof_number, "
                              "disproof_number FROM tree_jobs ORDER BY id").fetchall()
    except sqlite3.Error:  # not created yet
        return []


def _finished(path: Path) -> int:
    return sum(row[4] == "done" for row in _jobs(path))


# ---------------------------------------------------------------------- the tree


def test_a_new_node_gets_the_checks_the_df_pn_makes():
    assert evaluate(*_masks("moves:0,16,1,17,2,18")) == (0, INFINITY, "threats")   # X completes four
    assert evaluate(*_masks("moves:0,16,1,17,2,18,63")) == (INFINITY, 0, "threats")  # O to move completes four
    assert evaluate(*_masks("moves:0,63,1,13,2,26,16,43,32")) == (0, INFINITY, "threats")  # two threes of X
    assert evaluate(*_masks("moves:0,27,3,12")) == (1, 1, "new")                     # a search's work
    assert evaluate(*_masks("moves:0")) == (20, 1, "new")  # O to move, no threat sequence even after a pass
    p = parse_position("moves:0,27,3,12")
    assert solve(p, node_limit=1).status == "unknown"      # (what a job is for)


def _masks(text: str) -> tuple[int, int]:
    p = parse_position(text)
    return p.x, p.o


def test_values_propagate_and_a_running_leaf_counts_as_the_policy_says():
    for policy in ("win", "loss", "equal"):
        tree = ProofTree(policy)
        root = tree.root(parse_position(SMALL))
        tree.expand(root)
        kids = [c for _, _, c in root.edges]
        assert root.pn == sum(c.pn for c in kids) and root.dn == min(c.dn for c in kids) == 1
        first = tree.select(root).node
        assert first in kids
        tree.set_busy(first, True)
        second = tree.select(root).node
        assert second is not first          # a running leaf is never chosen twice
        assert (root.pn, root.dn) == (sum(c.pn for c in kids), 1)  # the true numbers do not change
        expected = {"win": (root.pn - first.pn, 1), "loss": (INFINITY, 0), "equal": (root.pn, 1)}[policy]
        assert (root.vpn, root.vdn) == expected
        tree.set_busy(first, False)
        tree.take_settled()
        for child in kids:  # every reply proven: the root (O to move) is proven at once
            tree.set_leaf(child, 0, INFINITY, "search")
        assert root.pn == 0 and root.dn == INFINITY
        assert tree.take_settled()[-1] is root                     # children first, the root last
        assert tree.select(root) is None


def test_the_tree_is_kept_in_the_book_and_read_again(tmp_path):
    path = tmp_path / "b.sqlite"
    with OpeningBook.open(path, create=True) as book:
        tree = ProofTree()
        root = tree.root(parse_position(SMALL))
        tree.expand(root)
        leaf = tree.select(root).node
        tree.set_leaf(leaf, 7, 3, "search")
        with book.db:
            tree.flush(book.db)
        numbers = {k: (n.pn, n.dn) for k, n in tree.nodes.items()}
    with OpeningBook.open(path) as book:
        again = ProofTree()
        again.load(book.db)
    assert {k: (n.pn, n.dn) for k, n in again.nodes.items()} == numbers
    assert [(p, m, c.key) for p, m, c in again.nodes[root.key].edges] == [(p, m, c.key) for p, m, c in root.edges]


def test_a_version_2_book_is_upgraded_in_place(tmp_path):
    path = tmp_path / "old.sqlite"
    OpeningBook.open(path, create=True).close()
    db = sqlite3.connect(path)
    db.executescript("DROP TABLE tree_nodes; DROP TABLE tree_edges; DROP TABLE tree_roots; DROP TABLE tree_jobs; "
                     "DROP TABLE tree_trace; PRAGMA user_version = 2;")
    db.close()
    assert "no two-level search" in qubic("book", "status", str(path)).stdout  # (a reader upgrades it too)
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 3


# ---------------------------------------------------------------------- a search


@pytest.fixture(scope="module")
def solved(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    path = tmp_path_factory.mktemp("solve") / "b.sqlite"
    return path, qubic("book", "solve", str(path), SMALL, *SMALL_JOBS, "--jobs", "2")


def test_solve_settles_a_root_and_verifies_its_proof(solved):
    path, done = solved
    assert "moves:0,27,3 (x2x20o): O to move LOSES (longest defence: " in done.stdout and "its proof VERIFIED" in done.stdout
    assert "complete: every position given is settled" in done.stdout
    assert done.stderr.count("\n") <= 3  # piped: a plain line at the start, and few after it
    with OpeningBook.open(path) as book:
        root = book.get(parse_position(SMALL))
        assert (root.value, root.how) == ("loss", "solved")   # its own (two-level) search: one proof file
        searched = book.db.execute("SELECT count(*), sum(nodes) FROM tree_jobs WHERE kind = 'search'").fetchone()
        assert root.nodes == searched[1] > 0
    result = verify_book(path, jobs=1)
    assert result.verified and result.results
    again = qubic("book", "solve", str(path), SMALL)
    assert "0 jobs this run" in again.stdout and "O to move LOSES" in again.stdout


def test_the_root_s_proof_goes_to_the_archive_and_imports_verified(solved, tmp_path):
    path, _ = solved
    export_archive(path, tmp_path / "proofs")
    index = read_index(tmp_path / "proofs")
    root = next(e for e in index["entries"] if e["position"] == "x2x20o")
    assert root["value"] == "loss" and root["how"] == "solved" and root["proof"]
    report = import_archive(tmp_path / "other.sqlite", tmp_path / "proofs", jobs=1)
    assert not report.refused
    with OpeningBook.open(tmp_path / "other.sqlite") as book:
        assert book.get(parse_position(SMALL)).value == "loss"


def test_status_tells_where_the_search_stands(solved, tmp_path):
    path, _ = solved
    out = qubic("book", "status", str(path), "--plot", str(tmp_path / "root.png")).stdout
    lines = out.splitlines()
    assert "a proof-number tree of" in lines[0] and "no search running" in lines[0]
    assert lines[1] == "  x2x20o: loss, proof verified, " + lines[1].split(", ")[-1]
    assert "jobs finished" in lines[2] and "0 running, 0 lost" in lines[2]
    assert (tmp_path / "root.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    data = json.loads(qubic("book", "status", str(path), "--json").stdout)
    root = data["roots"][0]
    assert root["value"] == "loss" and root["proof_number"] == 0 and root["disproof_number"] is None
    assert root["jobs"] == root["settled_jobs"] > 0 and data["running"] is False


def test_a_leaf_back_unsettled_gets_more_from_its_table_then_is_expanded(tmp_path):
    path = tmp_path / "b.sqlite"
    report = solve_in_book(path, [parse_position(SMALL)], jobs=1, plan=SearchPlan(job_nodes=5_000, growth=4))
    assert report.results[0].value == "loss" and report.results[0].verdict == "verified"
    rows = _jobs(path)
    searches = [r for r in rows if r[3] == "search"]
    first = {(r[1], r[2]): r for r in reversed(searches)}  # each position's first job
    assert all(r[5] == 0 for r in first.values())           # a first job starts afresh...
    again = [r for r in searches if r not in first.values()]
    assert again and all(r[5] == 1 for r in again)          # ...a second goes on from its table
    with OpeningBook.open(path) as book:
        budgets = dict(book.db.execute("SELECT went_on, max(budget) FROM tree_jobs WHERE kind = 'search' "
                                       "GROUP BY 1"))
        tree = ProofTree()
        tree.load(book.db)
        tables = book.saved_tables()
    assert budgets == {0: 5_000, 1: 20_000}
    assert sum(not n.leaf and n.x_to_move for n in tree.nodes.values()) > 0  # leaves that had 25,000 nodes
    # the root settled: no table is left, the ones of the expanded leaves deleted with the rest
    assert tables == (0, 0) and report.pruned_tables > 0 and report.pruned_bytes > 0


def test_several_roots_share_the_workers_equally(tmp_path):
    path = tmp_path / "b.sqlite"
    other = "1-2,22-52,27"  # O to move, another opening: 59 replies, each an X win in a few thousand nodes
    report = solve_in_book(path, [parse_position(SMALL), parse_position(other)], jobs=1,
                           plan=SearchPlan(job_nodes=5_000))
    assert [r.value for r in report.results] == ["loss", "loss"]
    # a root's time is the wall clock while one of its jobs ran: on one worker, the two add up to the run's
    assert all(r.seconds > 0 for r in report.results)
    assert sum(r.seconds for r in report.results) <= report.seconds
    with sqlite3.connect(path) as db:
        jobs = db.execute("SELECT root, nodes FROM tree_jobs WHERE kind = 'search' ORDER BY id").fetchall()
    roots = [root for root, _ in jobs]
    both_open = min(len(roots) - roots[::-1].index(r) for r in set(roots))  # jobs until one root's last
    assert len(set(roots)) == 2 and both_open > 2
    had = dict.fromkeys(roots, 0)
    for root, nodes in jobs[:both_open]:  # one worker: each job started after the one before ended
        assert had[root] == min(had.values()), (root, had)  # the root with the fewest nodes took the job
        had[root] += nodes


def test_a_job_stops_where_a_proof_in_the_book_already_goes(tmp_path):
    """Every job takes the book's proofs as known wins: a position deep in a settled root's proof (no entry of
    its own) is proven by its job at once, and its proof, carried over from the book's, verifies."""
    path = tmp_path / "b.sqlite"
    solve_in_book(path, [parse_position(SMALL)], jobs=1, plan=SearchPlan(job_nodes=100_000))
    with OpeningBook.open(path) as book:
        proof = book.get(parse_position(SMALL)).strategy()
        deep = [e.position for e in proof if e.position.count >= 7 and book.get(e.position) is None]
    assert len(deep) >= 2
    helped = solve_in_book(path, [deep[0]], jobs=1)
    unhelped = solve_in_book(path, [deep[1]], jobs=1, plan=SearchPlan(known_wins=False))
    fresh = solve_in_book(tmp_path / "fresh.sqlite", [deep[0]], jobs=1)
    assert [r.verdict for r in (helped.results[0], unhelped.results[0], fresh.results[0])] == ["verified"] * 3
    assert (helped.jobs, helped.nodes) == (1, 1)
    assert unhelped.nodes > 1 and fresh.nodes > 1


def test_a_stopped_search_keeps_the_tables_of_its_open_leaves_only(tmp_path):
    path = tmp_path / "b.sqlite"
    report = solve_in_book(path, [parse_position(SMALL)], jobs=1, plan=SearchPlan(job_nodes=2_000, growth=2),
                           time_limit=4)
    assert report.stopped == "time limit" and report.results[0].value is None
    with OpeningBook.open(path) as book:
        tree = ProofTree()
        tree.load(book.db)
        kept = {(x % 2**64, o % 2**64) for x, o in book.db.execute("SELECT x, o FROM tables")}
    open_leaves = tree.open_leaves([tree.nodes[canonical_key(parse_position(SMALL))[:2]]])
    assert kept and kept <= open_leaves


@pytest.mark.slow
@pytest.mark.parametrize("policy", ["loss", "equal"])
def test_every_policy_settles_the_same_value(tmp_path, policy):
    report = solve_in_book(tmp_path / "b.sqlite", [parse_position(SMALL)], jobs=2,
                           plan=SearchPlan(job_nodes=100_000, policy=policy))
    assert report.results[0].value == "loss" and report.results[0].verdict == "verified"


def test_bad_input_is_one_line(tmp_path):
    bad = qubic("book", "solve", str(tmp_path / "b.sqlite"), "moves:0,99", check=False)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "99" in bad.stderr
    over = qubic("book", "solve", str(tmp_path / "b.sqlite"), "moves:0,16,1,17,2,18,3", check=False)
    assert over.returncode == 2 and over.stderr.count("\n") == 1 and "over" in over.stderr
    growth = qubic("book", "solve", str(tmp_path / "b.sqlite"), SMALL, "--growth", "0", check=False)
    assert growth.returncode == 2 and "--growth" in growth.stderr
    missing = qubic("book", "status", str(tmp_path / "absent.sqlite"), check=False)
    assert missing.returncode == 2 and "no opening book" in missing.stderr
    assert not (tmp_path / "b.sqlite").exists()


# ---------------------------------------------------------------------- every stop


@pytest.mark.slow
def test_sigkill_of_the_master_then_the_next_run_finishes_searching_no_finished_job_again(tmp_path):
    path = tmp_path / "b.sqlite"
    command = [*QUBIC, "book", "solve", str(path), SMALL, *SMALL_JOBS, "--jobs", "2"]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 600
    while _finished(path) < 8 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None, "the search ended before it could be killed"
    assert "a search is running on it" in qubic("book", "status", str(path)).stdout
    os.killpg(proc.pid, signal.SIGKILL)  # the master and its workers, with no chance to clean up
    proc.wait()
    before = _jobs(path)
    finished = [r for r in before if r[4] == "done"]
    running = [r for r in before if r[4] == "running"]
    assert len(finished) >= 8 and 1 <= len(running) <= 2
    assert "no search running" in qubic("book", "status", str(path)).stdout
    done = qubic(*command[3:])
    assert "O to move LOSES" in done.stdout and "its proof VERIFIED" in done.stdout
    after = _jobs(path)
    assert [r for r in after if r[0] in {f[0] for f in finished}] == finished   # every finished job is kept
    assert all(r[4] == "lost" and r[7] == "the search stopped while it ran" for r in after
               if r[0] in {x[0] for x in running})
    settled = {(r[1], r[2]) for r in finished if 0 in (r[9], r[10])}
    later = [r for r in after if r[0] > before[-1][0] and r[3] == "search"]
    assert later and not [r for r in later if (r[1], r[2]) in settled]         # no finished job searched again
    fresh = [(r[1], r[2]) for r in after if r[3] == "search" and r[4] == "done" and not r[5]]
    assert len(fresh) == len(set(fresh))                                       # none started afresh twice


@pytest.mark.slow
@pytest.mark.parametrize("death", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_a_worker_that_dies_gives_its_job_back_and_ctrl_c_keeps_the_running_job_s_work(tmp_path, death):
    """moves:1,7 (X to move) needs one df-pn of about 4.5 M nodes: its first job runs for seconds. A worker's
    SIGTERM (``pkill -f "book solve"`` reaches the workers too) ends it quietly, as SIGKILL does."""
    path = tmp_path / "b.sqlite"
    proc = subprocess.Popen([*QUBIC, "book", "solve", str(path), "moves:1,7", "--job-nodes", "4000000", "--jobs", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=ctrl_c_as_in_a_terminal)
    deadline = time.monotonic() + 120
    while not [r for r in _jobs(path) if r[4] == "running"] and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(1.0)
    first = next(r for r in _jobs(path) if r[4] == "running")
    pid = int(first[8].split("pid ")[1])
    os.kill(pid, death)                              # the worker dies in the middle of its job
    while len(_jobs(path)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(2.0)
    os.killpg(proc.pid, signal.SIGINT)               # Ctrl-C: the job running hands in what it has
    out, err = proc.communicate(timeout=180)
    assert proc.returncode == 130, err
    assert "interrupted: every finished job is kept" in out and "Traceback" not in err
    lost, again = _jobs(path)[:2]
    assert lost[0] == first[0] and lost[4] == "lost" and lost[7] == f"its worker (pid {pid}) died"
    assert (again[1], again[2]) == (first[1], first[2]) and again[4] == "done"  # given back, to a new worker
    assert again[6] == "unknown (interrupted)" and int(again[8].split("pid ")[1]) != pid
    with OpeningBook.open(path) as book:
        assert book.saved_table(parse_position("moves:1,7")) is not None  # its work is kept to go on from


@pytest.mark.slow
def test_the_time_limit_stops_the_search_and_the_same_command_goes_on(tmp_path):
    path = tmp_path / "b.sqlite"
    command = ["book", "solve", str(path), SMALL, *SMALL_JOBS, "--jobs", "1"]
    first = qubic(*command, "--time-limit", "8")
    assert "time limit: every finished job is kept" in first.stdout and "open: root proof number" in first.stdout
    kept = [r for r in _jobs(path) if r[4] == "done"]
    assert kept and not [r for r in _jobs(path) if r[4] == "running"]
    done = qubic(*command)
    assert "O to move LOSES" in done.stdout
    assert [r for r in _jobs(path) if r[0] <= kept[-1][0] and r[4] == "done"] == kept


def _file_size_limit(size: int):
    def limit() -> None:  # in the child: writes past `size` bytes fail (EFBIG), as on a full disk
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    return limit


@pytest.mark.slow
def test_a_full_disk_stops_the_search_and_the_same_command_goes_on_when_there_is_room(tmp_path):
    path = tmp_path / "b.sqlite"
    command = ["book", "solve", str(path), SMALL, *SMALL_JOBS, "--jobs", "1"]
    full = qubic(*command, check=False, preexec_fn=_file_size_limit(400_000))
    assert full.returncode == 2, full.stderr + full.stdout
    assert "the disk is full" in full.stdout and "run the same command to go on" in full.stdout
    kept = [r for r in _jobs(path) if r[4] == "done"]
    assert kept                                              # what was written before is there, readable
    done = qubic(*command)
    assert "O to move LOSES" in done.stdout
    assert [r for r in _jobs(path) if r[0] <= kept[-1][0] and r[4] == "done"] == kept
    assert verify_book(path, jobs=1).verified


# ---------------------------------------------------------------------- Dask


@pytest.mark.slow
def test_solve_on_a_dask_scheduler_with_two_workers(tmp_path, dask_cluster):  # noqa: F811 - the fixture
    path = tmp_path / "b.sqlite"
    out = qubic("book", "solve", str(path), SMALL, *SMALL_JOBS, "--scheduler", dask_cluster).stdout
    assert "O to move LOSES" in out and "its proof VERIFIED" in out and "2 dask workers" in out
    workers = {r[8] for r in _jobs(path) if r[4] == "done"}
    assert len(workers) == 2                                 # each worker settled some of the leaves
    assert verify_book(path, jobs=1).verified


@pytest.mark.slow
def test_ctrl_c_on_a_dask_scheduler_keeps_the_running_job_s_work(tmp_path, dask_cluster):  # noqa: F811
    """As with local workers: the running job is told to wrap up, hands in its table, and is not lost."""
    path = tmp_path / "b.sqlite"
    proc = subprocess.Popen([*QUBIC, "book", "solve", str(path), "moves:1,7", "--job-nodes", "4000000",
                             "--scheduler", dask_cluster], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=ctrl_c_as_in_a_terminal)
    deadline = time.monotonic() + 120
    while not [r for r in _jobs(path) if r[4] == "running"] and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(2.0)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=180)
    assert proc.returncode == 130, err
    assert "interrupted: every finished job is kept" in out and "Traceback" not in err
    jobs = _jobs(path)
    assert jobs and all(r[4] == "done" and r[6] == "unknown (interrupted)" for r in jobs), jobs
    with OpeningBook.open(path) as book:
        assert book.saved_table(parse_position("moves:1,7")) is not None  # its work is kept to go on from


def test_a_local_stream_gives_back_the_unit_of_a_worker_that_died():
    with make_executor("local", jobs=1) as ex, ex.stream(time.sleep) as stream:
        job = stream.submit(30)
        time.sleep(0.5)
        os.kill(int(stream.running[job].split()[1]), signal.SIGKILL)
        outcomes = []
        while not outcomes:
            outcomes = stream.poll(1.0)
        assert [(o.job, o.kind) for o in outcomes] == [(job, "lost")] and "died" in outcomes[0].value
        again = stream.submit(0.01)                          # a new worker takes the next unit
        while not (found := stream.poll(1.0)):
            pass
        assert [(o.job, o.kind, o.value) for o in found] == [(again, "done", None)]


@pytest.mark.slow
def test_the_bench_section_compares_with_book_build_and_measures_the_options():
    import io

    from rich.console import Console

    from qubic_logic import bench

    out = io.StringIO()
    results = bench.load("twolevel").run(Console(file=out, width=160), quick=True)
    text = out.getvalue()
    assert "nodes: book build / two-level on 1 worker" in text and "wall clock: 1 worker / 2 workers" in text
    assert results["build"]["nodes"] > 0 and results["one"]["nodes"] > 0 and results["two"]["jobs"] > 0
    assert len(results["options"]) == 10 and all(r["nodes"] > 0 for r in results["options"].values())
