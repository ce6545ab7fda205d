"""The minimising pass: fewer strategic positions, and the verifier still accepts the strategy."""

from __future__ import annotations

import json

import pytest

from qubic_logic.notation import parse_patashnik
from qubic_logic.position import Position
from qubic_logic.strategy import StrategyDictionary
from qubic_logic.book import OpeningBook
from qubic_logic.book.archive import export_archive, import_archive
from qubic_logic.executor import make_executor
from qubic_logic.proof.alternatives import STRONG_CELLS, alternative_units, prove_alternatives
from qubic_logic.proof.alternatives import main as alternatives_main
from qubic_logic.strategy.dictionary import Entry, patashnik_dictionary
from qubic_logic.proof.minimise import main as minimise_main
from qubic_logic.core import core_module
from qubic_logic.errors import QubicError
from qubic_logic.proof.minimise import ProofGraph, _key, canonical_moves, minimised, smallest
from qubic_logic.proof.solve import solve
from qubic_logic.strategy.verify import pruned, verify


def test_patashniks_strategy_below_a_position_gets_smaller_and_still_wins():
    root = parse_patashnik("x2x1o6x14o20o")
    before = pruned(patashnik_dictionary(), verify(patashnik_dictionary(), root, jobs=1))
    after = minimised(patashnik_dictionary(), root)
    assert len(after) < len(before) == 3
    v = verify(after, root, jobs=1)
    assert v.verdict == "verified" and v.by_rule["dictionary"] == len(after)


def test_root_comes_from_the_header_and_the_header_is_kept():
    root = parse_patashnik("x2x16o4o")
    d = StrategyDictionary(patashnik_dictionary(), ["root: x2x16o4o", "made by hand"])
    after = minimised(d)
    assert after.header == d.header
    assert verify(after, root, jobs=1).verdict == "verified"


def test_unreached_entries_are_dropped():
    root = parse_patashnik("x2x1o6x14o20o")
    d = StrategyDictionary([Entry(root, 21), Entry(parse_patashnik("1x"), 5)], ["root: x2x1o6x14o20o"])
    assert [e.text() for e in minimised(d)] == ["x2x1o6x14o20o 21"]


def test_an_entry_whose_move_does_not_win_is_refused_by_name():
    root = parse_patashnik("x2x1o6x14o20o")
    d = StrategyDictionary([Entry(root, 60)], ["root: x2x1o6x14o20o"])
    with pytest.raises(QubicError, match="move 60.*does not win.*verified"):
        minimised(d)


def test_an_entry_with_a_forced_sequence_is_dropped_for_the_verifiers_rule_4():
    """An entry where the attacker already forces a win is not needed: the verifier plays the sequence."""
    root = parse_patashnik("x2x1o6x14o20o")
    core = core_module()
    after_21 = root.play(21)
    forced = next(q for q in map(after_21.play, after_21.legal_moves())
                  if not core.threat_cells(q.x, q.o) and not core.threat_cells(q.o, q.x))
    found = solve(forced)
    assert found.status == "won"
    d = StrategyDictionary([Entry(root, 21), Entry(forced, found.move)], ["root: x2x1o6x14o20o"])
    after = minimised(d)
    assert [e.text() for e in after] == ["x2x1o6x14o20o 21"]
    assert verify(after, root, jobs=1).verdict == "verified"


def test_no_single_switch_makes_the_minimised_strategy_smaller(two_strategies):
    """The local search ends in a local minimum: every other known-winning move at every position is no smaller."""
    root = parse_patashnik("x2x16o4o")
    union = StrategyDictionary.union(two_strategies, two_strategies[0].header)
    graph = ProofGraph(canonical_moves(union))
    start = graph.start(root.x, root.o)
    chosen = smallest(graph, start)
    assert chosen == smallest(graph, start)   # seeded: the same inputs give the same strategy

    def size(pick: dict) -> int:
        seen, stack = set(), list(start)
        while stack:
            key = stack.pop()
            if key not in seen:
                seen.add(key)
                stack.extend(graph.options(key)[pick.get(key, graph.own(key))][1])
        return len(seen)

    pick = {key: _key(key[0] | 1 << move, key[1]) for key, move in chosen.items()}
    assert size(pick) == len(chosen)
    for key in chosen:
        for outcome in graph.options(key):
            assert size({**pick, key: outcome}) >= len(chosen)


@pytest.fixture(scope="module")
def two_strategies() -> tuple[StrategyDictionary, StrategyDictionary]:
    """X's wins from x2x16o4o found by the native and by the Python search (different moves)."""
    root = parse_patashnik("x2x16o4o")
    return solve(root, method="native").strategy, solve(root, method="python").strategy


def test_a_union_of_two_strategies_minimises_no_larger_than_either(two_strategies):
    root = parse_patashnik("x2x16o4o")
    native, python = two_strategies
    union = StrategyDictionary.union([native, python], native.header)
    sizes = [len(minimised(s, root)) for s in (native, python)]
    after = minimised(union, root)
    assert len(after) <= min(sizes)
    v = verify(after, root, jobs=1)
    assert v.verdict == "verified" and v.by_rule["dictionary"] == len(after)


def test_the_minimise_command_writes_a_verified_union_no_larger_than_either(two_strategies, tmp_path, capsys):
    paths = []
    for name, strategy in zip(("native", "python"), two_strategies):
        strategy.save(tmp_path / f"{name}.dict")
        paths.append(str(tmp_path / f"{name}.dict"))
    out = tmp_path / "union.dict"
    assert minimise_main([str(out), *paths]) == 0
    union = StrategyDictionary.load(out)
    assert union.root == parse_patashnik("x2x16o4o")
    assert len(union) <= min(len(minimised(s)) for s in two_strategies)
    assert verify(union, union.root, jobs=1).verdict == "verified"
    assert f"VERIFIED, {len(union):,} strategic positions" in capsys.readouterr().out


def test_the_minimise_command_refuses_strategies_from_different_roots(two_strategies, tmp_path, capsys):
    two_strategies[0].save(tmp_path / "a.dict")
    StrategyDictionary([Entry(Position(), 0)]).save(tmp_path / "b.dict")
    out = tmp_path / "union.dict"
    assert minimise_main([str(out), str(tmp_path / "a.dict"), str(tmp_path / "b.dict")]) == 2
    assert "different roots" in capsys.readouterr().err and not out.exists()
    assert minimise_main([str(tmp_path / "no" / "u.dict"), str(tmp_path / "a.dict")]) == 2
    assert "is not a folder" in capsys.readouterr().err
    (tmp_path / "bad.dict").write_text("xo 5\n")
    assert minimise_main([str(out), str(tmp_path / "bad.dict")]) == 2
    assert "no separator line" in capsys.readouterr().err and not out.exists()
    assert minimise_main([str(out), str(tmp_path / "a.dict"), "--sweeps", "0"]) == 2
    assert "expected a positive number of sweeps" in capsys.readouterr().err and not out.exists()


def test_kept_moves_are_never_rechosen_and_the_union_can_be_written_as_it_is(two_strategies, tmp_path, capsys):
    """--keep FILE: the moves chosen beforehand stay wherever the strategy reaches them; --union-only: every entry."""
    root = parse_patashnik("x2x16o4o")
    paths = []
    for name, strategy in zip(("native", "python"), two_strategies):
        strategy.save(tmp_path / f"{name}.dict")
        paths.append(str(tmp_path / f"{name}.dict"))
    free = minimised(StrategyDictionary.union(two_strategies, two_strategies[0].header), root)
    graph = ProofGraph(canonical_moves(StrategyDictionary.union(two_strategies)))
    key = _key(root.x, root.o)
    other_move = next(move for move, _ in graph.options(key).values()
                      if _key(root.x | 1 << move, root.o) != _key(root.x | 1 << free.move_for(root), root.o))
    StrategyDictionary([Entry(root, other_move)], ["root: x2x16o4o"]).save(tmp_path / "keep.dict")
    out = tmp_path / "kept.dict"
    assert minimise_main([str(out), *paths, "--keep", str(tmp_path / "keep.dict"), "--keep-marks", "4"]) == 0
    kept = StrategyDictionary.load(out)
    assert kept.move_for(root) == other_move and len(kept) >= len(free)
    assert verify(kept, root, jobs=1).verdict == "verified"
    assert "keep.dict: 1 moves kept" in capsys.readouterr().out
    assert any(line.startswith("  kept: 1 moves of keep.dict") for line in kept.header)

    assert minimise_main([str(out), *paths, "--union-only"]) == 0
    union = StrategyDictionary.load(out)
    assert len(union) == len(StrategyDictionary.union(two_strategies))
    assert union.move_for(root) == two_strategies[0].move_for(root)

    losing = next(m for m in root.legal_moves() if _key(root.x | 1 << m, root.o) not in
                  {_key(root.x | 1 << move, root.o) for move, _ in graph.options(key).values()})
    StrategyDictionary([Entry(root, losing)]).save(tmp_path / "bad-keep.dict")
    assert minimise_main([str(tmp_path / "no.dict"), *paths, "--keep", str(tmp_path / "bad-keep.dict")]) == 2
    assert "kept, is not proven by the dictionaries given" in capsys.readouterr().err
    assert not (tmp_path / "no.dict").exists()
    assert minimise_main([str(out), *paths, "--keep-marks", "2"]) == 2
    assert "expected 0 or more, with --keep FILE" in capsys.readouterr().err


def test_a_time_limit_keeps_the_smallest_strategy_found_and_writes_it_verified(two_strategies, tmp_path, capsys):
    two_strategies[0].save(tmp_path / "a.dict")
    out = tmp_path / "kept.dict"
    assert minimise_main([str(out), str(tmp_path / "a.dict"), "--time-limit", "0.001"]) == 0
    printed = capsys.readouterr().out
    assert "time limit at sweep 1: keeping the smallest" in printed
    kept = StrategyDictionary.load(out)
    assert verify(kept, kept.root, jobs=1).verdict == "verified"
    assert len(kept) <= len(two_strategies[0])


def test_proving_alternative_moves_gives_a_verified_strategy_no_larger(tmp_path):
    """python -m qubic_logic.proof.alternatives: the strong-cell alternatives of a 4-mark proof."""
    p = parse_patashnik("x2x16o4o")
    source = tmp_path / "s.dict"
    solve(p).strategy.save(source)
    units = alternative_units(StrategyDictionary.load(source), marks=4, strong_only=True)
    assert units and all(move in STRONG_CELLS for _, move in units)
    out = tmp_path / "alt.dict"
    proofs = tmp_path / "proofs.dict"
    assert alternatives_main([str(out), str(source), "--marks", "4", "--strong-only", "--time-limit", "3",
                              "--jobs", "2", "--proofs", str(proofs)]) == 0
    result = StrategyDictionary.load(out)
    assert verify(result, p, jobs=1).verdict == "verified"
    assert len(result) <= len(StrategyDictionary.load(source))
    kept = StrategyDictionary.load(proofs)          # the proofs, kept: minimised again, the same result
    assert kept.root == p and len(kept) > 0
    again = tmp_path / "again.dict"
    assert minimise_main([str(again), str(source), str(proofs)]) == 0
    assert [e.text() for e in StrategyDictionary.load(again)] == [e.text() for e in result]
    store = out.with_suffix(".sqlite")   # every alternative's search, kept: the next run searches none again
    with OpeningBook.open(store) as book:
        logged = book.db.execute("SELECT count(*) FROM solves").fetchone()[0]
        proven = book.counts()
    assert logged == len(units) and sum(n for (_, v), n in proven.items() if v == "loss") > 0
    found = prove_alternatives(store, StrategyDictionary.load(source), marks=4, strong_only=True, time_limit=3,
                               executor=make_executor("local", 1))
    assert (found.units, found.searched) == (len(units), 0) and found.won + found.not_won + found.open == len(units)
    fewer, again_fewer = tmp_path / "fewer.dict", tmp_path / "again-fewer.dict"  # --sweeps reaches the minimiser
    assert alternatives_main([str(fewer), str(source), "--marks", "4", "--strong-only", "--time-limit", "3",
                              "--store", str(store), "--sweeps", "1"]) == 0
    assert minimise_main([str(again_fewer), str(source), str(proofs), "--sweeps", "1"]) == 0
    texts = [[e.text() for e in StrategyDictionary.load(path)] for path in (fewer, again_fewer)]
    assert texts[0] == texts[1]
    assert alternatives_main([str(fewer), str(source), "--sweeps", "0"]) == 2
    export_archive(store, tmp_path / "archive")         # the proofs as an archive: each verified on import
    imported = import_archive(tmp_path / "imported.sqlite", tmp_path / "archive", jobs=1)
    assert not imported.refused and imported.imported == found.won
    assert alternatives_main([str(out), str(source), "--proofs", str(tmp_path / "no" / "p.dict")]) == 2
    assert alternatives_main([str(tmp_path / "no" / "x.dict"), str(source)]) == 2
    other_root = tmp_path / "other.dict"
    solve(parse_patashnik("x2x1o6x14o20o")).strategy.save(other_root)
    assert alternatives_main([str(out), str(source), "--with", str(other_root), "--marks", "0"]) == 2


def test_replaying_the_sequences_found_gives_the_same_known_wins_as_searching_every_reply():
    """The proof graph replays a turn's forced sequences before searching a reply; searching every reply
    (the graph without the native replay) finds the same known-winning moves, leading to the same positions."""
    root = parse_patashnik("x2x16o4o")
    moves = canonical_moves(solve(root).strategy)
    fast, plain = ProofGraph(moves), ProofGraph(moves)
    plain.holds = None
    assert fast.start(root.x, root.o) == plain.start(root.x, root.o)
    for k in moves:
        assert fast.options(k) == plain.options(k)
    assert sum(len(fast.options(k)) for k in moves) > len(moves)  # alternatives were found


def test_polish_refuses_a_strategy_whose_entry_does_not_win_and_times_its_phases():
    from qubic_logic.proof.split import polish

    root = parse_patashnik("x2x1o6x14o20o")
    extra: dict = {}
    assert polish(StrategyDictionary([Entry(root, 60)], ["root: x2x1o6x14o20o"]), root, extra, jobs=1) is None
    assert extra["verified"] == "refuted"
    extra = {}
    kept = polish(StrategyDictionary([Entry(root, 21)], ["root: x2x1o6x14o20o"]), root, extra, jobs=1)
    assert [e.text() for e in kept] == ["x2x1o6x14o20o 21"] and extra["verified"] == "verified"
    assert list(extra["phases"]) == ["proof graph", "choosing", "verifying"]
    assert all(seconds >= 0 for seconds in extra["phases"].values())


def test_qubic_solve_prints_the_minimising_pass_by_phase(capsys):
    from qubic_logic.cli import main

    assert main(["solve", "patashnik:x2x16o4o"]) == 0
    out = capsys.readouterr().out
    assert "after minimising; VERIFIED" in out
    assert "minimising pass:" in out and "proof graph" in out and "choosing" in out and "verifying" in out
    assert main(["solve", "patashnik:x2x16o4o", "--json"]) == 0
    phases = json.loads(capsys.readouterr().out)["minimising"]
    assert list(phases) == ["proof graph", "choosing", "verifying"] and min(phases.values()) >= 0


def test_an_alternative_s_proof_is_stored_only_once_the_verifier_passed_it(tmp_path):
    from qubic_logic.book.unit import Unit
    from qubic_logic.book.leafjobs import LeafSearch, run_job
    from qubic_logic.proof.alternatives import _record

    text = "x2x16o4o"
    position = parse_patashnik(text)
    strategy = solve(position).strategy
    text_move = alternative_units(strategy, marks=4, strong_only=True)[:2]
    searches = [run_job(LeafSearch(Unit(t, 10.0, None, None, None, move=m))) for t, m in text_move]
    assert [(s.result.status, s.verdict) for s in searches] == [("won", "verified")] * 2
    with OpeningBook.open(tmp_path / "alt.sqlite", create=True) as book:
        build = book.start_build(5, 10.0, "local", 1)
        (t1, m1), (t2, m2) = text_move
        assert _record(book, build, parse_patashnik(t1), m1, None, searches[0]) == "won"
        assert book.get(parse_patashnik(t1).play(m1)).value == "loss"    # O to move after it: lost
        with pytest.raises(QubicError, match="does not pass the proof .* refuted: please report it"):
            _record(book, build, parse_patashnik(t2), m2, None, searches[1]._replace(verdict="refuted"))
        after = parse_patashnik(t2).play(m2)
        assert book.get(after).value == "open" and "refuted" in book.searches(after)[-1].status
