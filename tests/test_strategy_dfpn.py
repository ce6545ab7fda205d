"""The native df-pn search (solvers/dfpn.c) against the Python reference, its limits and its table."""

from __future__ import annotations

import os
import signal
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from qubic_logic.bench._positions import random_prefixes
from qubic_logic.bench.verify import SOLVES
from qubic_logic.errors import DataFormatError, EngineUnavailableError
from qubic_logic.notation import parse_patashnik, parse_position
from qubic_logic.proof.solve import DFPN_NATIVE, solve
from qubic_logic.strategy.verify import verify
from qubic_logic.symmetry import canonical

pytestmark = pytest.mark.skipif(DFPN_NATIVE is None, reason="the native solver is not built")

QUICK = [(name, p, known) for name, p, known in SOLVES if p.count > 4]


@pytest.mark.parametrize("name,position,known", QUICK, ids=[s[0] for s in QUICK])
def test_native_and_python_agree_on_the_bench_set(name, position, known):
    native = solve(position, time_limit=120, method="native")
    python = solve(position, time_limit=120, method="python")
    assert native.status == python.status == known
    assert native.extra["solver"] == "native"
    if known == "won":
        assert native.move in position.legal_moves() or native.strategy_size == 0
        for r in (native, python):
            assert verify(r.strategy, position, jobs=1).verdict == "verified"


@pytest.mark.slow
def test_native_and_python_agree_on_the_four_mark_position():
    p = parse_patashnik("x2x16o4o")
    native, python = solve(p, method="native"), solve(p, method="python")
    assert native.status == python.status == "won"
    assert verify(native.strategy, p, jobs=1).verdict == "verified"


def test_native_and_python_agree_on_generated_positions():
    settled = 0
    for p in random_prefixes(14, 40, min_marks=14, max_marks=30):
        native = solve(p, node_limit=20_000, method="native")
        python = solve(p, node_limit=20_000, method="python")
        if "unknown" not in (native.status, python.status):
            settled += 1
            assert native.status == python.status, p
            if native.status == "won":
                assert verify(native.strategy, p, jobs=1).verdict == "verified", p
    assert settled >= 20


def test_a_fixed_first_move_is_proven_or_refuted_alone():
    """A position is won exactly when one of its moves, fixed, is proven to win; each such proof verifies."""
    checked = 0
    for p in random_prefixes(15, 12, min_marks=16, max_marks=30):
        free = solve(p, node_limit=20_000)
        fixed = {m: solve(p, move=m, node_limit=20_000) for m in p.legal_moves()}
        if free.status == "unknown" or any(r.status == "unknown" for r in fixed.values()):
            continue
        checked += 1
        assert (free.status == "won") == any(r.status == "won" for r in fixed.values()), p
        for m, r in fixed.items():
            assert r.move == m
            if r.status == "won" and r.strategy_size:
                played = r.strategy.move_for(p)  # m, or a cell equivalent to it where p is symmetric
                assert canonical(p.play(played)) == canonical(p.play(m)), (p, m)
                assert verify(r.strategy, p, jobs=1).verdict == "verified", (p, m)
    assert checked >= 6


def test_a_fixed_first_move_s_progress_reports_the_position_after_it():
    """Progress shows the numbers of the searched position (once stuck at 1/1: the bypassed root)."""
    seen: list[tuple[int, int]] = []
    r = solve(parse_position("moves:1,12"), move=0, time_limit=1.0, progress=lambda n, pn, dn: seen.append((pn, dn)))
    assert r.status == "unknown" and len(seen) >= 2
    assert any(numbers != (1, 1) for numbers in seen), seen


def test_a_fixed_first_move_must_be_legal_and_native():
    p = parse_position("moves:0,16,1,17,2,18")
    assert solve(p, move=3).status == "won" and solve(p, move=60).status == "not won"
    with pytest.raises(ValueError, match="not a legal move"):
        solve(p, move=16)
    with pytest.raises(EngineUnavailableError, match="native solver"):
        solve(p, move=5, method="python")


def test_the_table_grows_with_its_load_not_to_its_limit():
    """Doubling at a quarter full (a full bucket below that replaces one of its four entries), not at the
    first full bucket: that had grown small searches' tables to their limit."""
    r = solve(parse_patashnik("x2x16o4o"), memory_limit=1024, method="native")
    assert r.status == "won"
    assert r.extra["table_entries"] <= 8 * r.extra["table_used"]
    assert r.extra["replaced"] <= 0.02 * r.extra["table_used"]


def test_a_small_table_replaces_entries_and_still_extracts_a_verified_proof():
    p = parse_patashnik("x2x1o6o20o14x")
    r = solve(p, memory_limit=0.03, method="native")
    assert r.extra["entry_bytes"] <= 64
    assert r.extra["table_entries"] * r.extra["entry_bytes"] <= 0.03e6
    assert r.status == "won" and r.extra["replaced"] > 0
    assert verify(r.strategy, p, jobs=1).verdict == "verified"


def test_searches_in_threads_give_the_same_results():
    positions = [p for _, p, _ in QUICK]
    alone = [solve(p, method="native") for p in positions]
    with ThreadPoolExecutor(2) as pool:
        together = list(pool.map(lambda p: solve(p, method="native"), positions))
    assert [(r.status, r.move, r.nodes, r.strategy_size) for r in alone] == \
           [(r.status, r.move, r.nodes, r.strategy_size) for r in together]


def test_ctrl_c_returns_promptly_with_the_partial_result(ctrl_c):
    seen = []
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        r = solve(parse_position("empty"), time_limit=60, progress=lambda n, pn, dn: seen.append(n))
    finally:
        timer.cancel()
    assert r.status == "unknown" and r.stopped_by == "interrupted"
    assert r.seconds < 10 and r.nodes > 0 and seen and r.move in range(64)


def test_either_side_to_move():
    r = solve(parse_patashnik("o2o1x6o14x20x13x"), method="native")
    assert r.status == "won" and r.root.to_move == "o"
    assert verify(r.strategy, r.root, jobs=1).verdict == "verified"


def test_the_minimising_pass_keeps_a_verified_strategy_when_its_time_runs_out(tmp_path, capsys):
    """``qubic solve --time-limit`` bounds the whole command: the minimiser gets what the search left."""
    from qubic_logic.cli import main
    from qubic_logic.proof.split import polish

    p = parse_patashnik("x2x16o4o")
    found = solve(p)
    said: list[str] = []
    hurried = polish(found.strategy, p, {}, jobs=1, time_limit=0.0, report=said.append)
    unhurried = polish(found.strategy, p, {}, jobs=1)
    assert any("time limit" in text for text in said), said
    assert verify(hurried, p, jobs=1).verdict == verify(unhurried, p, jobs=1).verdict == "verified"
    assert len(unhurried) < len(hurried) <= found.strategy_size
    assert main(["solve", "patashnik:x2x16o4o", "--time-limit", "120"]) == 0
    assert f"{len(unhurried)} after minimising; VERIFIED" in capsys.readouterr().out


def test_cli_solve_verifies_the_minimised_strategy_with_either_solver(tmp_path, capsys):
    from qubic_logic.cli import main
    from qubic_logic.strategy import StrategyDictionary

    p = parse_patashnik("x2x1o6x14o20o")
    for solver in ("native", "python"):
        out = tmp_path / f"{solver}.dictionary"
        assert main(["solve", "patashnik:x2x1o6x14o20o", "--solver", solver, "-o", str(out)]) == 0
        printed = capsys.readouterr().out
        assert "X to move WINS" in printed and "VERIFIED" in printed
        assert verify(StrategyDictionary.load(out), p, jobs=1).verdict == "verified"
    assert main(["solve", "empty", "--node-limit", "300", "--json"]) == 0
    assert '"stopped_by": "node limit"' in capsys.readouterr().out


@pytest.mark.parametrize("stop", [0.1, 0.5, 0.9])
def test_a_saved_table_goes_on_where_the_search_stopped(stop):
    """A search stopped part-way and continued from its saved table costs about what one search costs:
    the nodes of both together are the fresh search's within 2% (without the table: 1 + stop times)."""
    p = parse_patashnik("x2x16o4o")
    fresh = solve(p)
    first = solve(p, node_limit=int(stop * fresh.nodes), save_table=True)
    assert first.status == "unknown" and first.table and fresh.table is None
    went_on = solve(p, table=first.table, save_table=True)
    assert went_on.status == "won" and went_on.extra["loaded"] > 0 and went_on.table is None
    assert first.nodes + went_on.nodes <= 1.02 * fresh.nodes
    assert verify(went_on.strategy, p, jobs=1).verdict == "verified"


def test_a_saved_table_keeps_the_most_worked_entries_and_refuses_another_root():
    p = parse_position("moves:0,21")
    first = solve(p, node_limit=200_000, save_table=True)
    header, entry = 56, first.extra["entry_bytes"]
    kept = (len(first.table) - header) // entry
    assert (len(first.table) - header) % entry == 0
    assert kept == max(16_384, first.extra["table_used"] // 1024) < first.extra["table_used"]
    with pytest.raises(DataFormatError, match="another position or first move"):
        solve(parse_position("moves:0,22"), table=first.table)
    with pytest.raises(DataFormatError, match="another position or first move"):
        solve(p, move=3, table=first.table)
    flipped = bytearray(first.table)
    flipped[header + 100 * entry + 20] ^= 1  # one bit of one entry's proof number
    for broken in (first.table[:-1], b"x" * 100, first.table[:30], bytes(flipped)):
        with pytest.raises(DataFormatError, match="not a table saved by this solver"):
            solve(p, table=broken)
    with pytest.raises(EngineUnavailableError, match="native solver"):
        solve(p, table=first.table, method="python")


def test_cli_solve_table_saves_an_unsettled_search_and_goes_on_from_it(tmp_path, capsys):
    from qubic_logic.cli import main

    table = tmp_path / "x.table"
    assert main(["solve", "patashnik:x2x16o4o", "--node-limit", "8000", "--table", str(table)]) == 0
    out = capsys.readouterr().out
    assert "not solved (node limit)" in out and f"search table saved to {table}" in out and table.exists()
    assert main(["solve", "patashnik:x2x16o4o", "--table", str(table)]) == 0
    out = capsys.readouterr().out
    assert "X to move WINS" in out and "VERIFIED" in out and f"entries of the search table {table}" in out
    assert main(["solve", "moves:0,21", "--node-limit", "10", "--table", str(table)]) == 2
    assert f"{table}: cannot go on from this saved table" in capsys.readouterr().err
