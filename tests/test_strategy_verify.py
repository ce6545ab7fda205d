"""The strategy verifier: rule order (1)-(4), every defender reply, counts, failures, certificates."""

from __future__ import annotations

import json
import random
import threading
from array import array

import pytest

from qubic_logic.cli import main
from qubic_logic.core import shortest_forced_win, threats
from qubic_logic.notation import format_patashnik, parse_patashnik
from qubic_logic.position import Position
from qubic_logic.referee import replay_forced_win
from qubic_logic.shipped import dictionary_path
from qubic_logic.strategy import StrategyDictionary, patashnik_dictionary, patashnik_path
from qubic_logic.strategy.certificate import load_certificate
from qubic_logic.strategy.verify import VERIFY_NATIVE, plain_entries, traverse_python, verify
from qubic_logic.strategy.witness_check import check_witnesses
from qubic_logic.symmetry import canonical_masks

ROOT = parse_patashnik("x2x1o6x14o20o")  # a position of Patashnik's tree (its move: 60)
native = pytest.mark.skipif(VERIFY_NATIVE is None, reason="qubic_logic._verify is not built")


def _key(p: Position) -> tuple[int, int]:
    return canonical_masks(p.x, p.o)[:2]


def _without(d: StrategyDictionary, position: Position) -> StrategyDictionary:
    gone = d.lookup(position)[1]
    return StrategyDictionary([e for e in d if e is not gone], d.header, d.separator)


def _strategic_child(d: StrategyDictionary, root: Position) -> Position:
    """A position one X move and one O reply below ``root`` that needs its dictionary entry."""
    after = root.play(d.move_for(root))
    for reply in after.legal_moves():
        child = after.play(reply)
        t = threats(child)
        if not t.x and not t.o and child in d and not shortest_forced_win(child).found:
            return child
    raise AssertionError("no strategic child")


def test_subtree_is_verified_and_every_witness_replays():
    v = verify(patashnik_dictionary(), ROOT, jobs=1)
    assert v.verdict == "verified" and not v.failures
    assert v.by_rule["dictionary"] >= 2 and v.positions == sum(v.by_rule.values())
    assert len(v.witnesses) == v.by_rule["forced"]
    for w in v.witnesses:
        assert replay_forced_win(w.position, w.sequence) == w.length
    # rule-(4) positions are distinct up to symmetry
    assert len({_key(w.position) for w in v.witnesses}) == len(v.witnesses)


@native
@pytest.mark.parametrize("root", [ROOT, parse_patashnik("x2x1o6o20o14x"), parse_patashnik("x2x16o4o")])
def test_native_and_python_traversals_agree(root):
    entries = plain_entries(patashnik_dictionary())
    a, d = root.x, root.o
    nat = VERIFY_NATIVE.traverse(entries, a, d)
    py = traverse_python(entries, a, d)
    for field in ("positions", "by_rule", "defender_positions", "complete", "used"):
        assert nat[field] == py[field]
    keys = [{_key(Position(la, ld)) for la, ld, _ in r["leaves"]} for r in (nat, py)]
    assert keys[0] == keys[1] and len(keys[0]) == nat["by_rule"][3]


@pytest.mark.slow
def test_python_engine_gives_the_native_figures():
    nat = verify(patashnik_dictionary(), ROOT, jobs=1)
    py = verify(patashnik_dictionary(), ROOT, engine="python", jobs=1)
    assert (py.verdict, py.positions, py.by_rule, py.longest) == (nat.verdict, nat.positions, nat.by_rule, nat.longest)


@pytest.mark.parametrize("engine", [pytest.param("python", marks=pytest.mark.slow), pytest.param("native", marks=native)])
def test_deleted_entry_is_reported_with_the_uncovered_position(engine):
    d = patashnik_dictionary()
    child = _strategic_child(d, ROOT)
    v = verify(_without(d, child), ROOT, engine=engine, jobs=1)
    assert v.verdict == "refuted"
    (failure,) = v.failures
    assert _key(failure.position) == _key(child)
    assert failure.reason == "no dictionary move and no forced win"
    reached = ROOT
    for move in failure.moves:
        reached = reached.play(move)
    assert reached == failure.position


def test_two_defender_threats_fail_at_once():
    # O holds two open threes (cells 3 and 19 complete them); X has none
    p = Position.from_cells([32, 0, 58, 1, 21, 2, 10, 16, 39, 17, 5, 18])
    assert not threats(p).x and bin(threats(p).o).count("1") == 2
    v = verify(StrategyDictionary([]), p, jobs=1)
    assert v.verdict == "refuted" and v.failures[0].reason == "the defender has two threats"


@pytest.mark.parametrize("checker", ["asp", "prolog", "referee"])
def test_checkers_accept_the_witnesses_and_reject_corrupted_ones(checker):
    v = verify(patashnik_dictionary(), ROOT, jobs=1)
    good = v.witnesses
    assert check_witnesses(good, checker, batch=150) == []
    rng = random.Random(3)
    bad = []
    for w in rng.sample(good, 40):
        seq = list(w.sequence)
        k = rng.randrange(len(seq))
        empty = [c for c in w.position.legal_moves() if c not in seq]
        seq[k] = rng.choice(empty)
        bad.append(type(w)(w.position, tuple(seq)))
    rejected = {i for i, _, _ in check_witnesses(bad, checker, batch=150)}
    expected = set()
    for i, w in enumerate(bad):
        try:
            replay_forced_win(w.position, w.sequence)
        except Exception:
            expected.add(i)
    assert rejected == expected and expected


def test_cli_verify_writes_a_certificate_and_checks_it(tmp_path, capsys):
    cert = tmp_path / "cert.txt"
    status = main(["verify", "dictionary", str(patashnik_path()), "--root", "patashnik:" + format_patashnik(ROOT),
                   "--certificate", str(cert), "--check-with", "asp", "--json", "--jobs", "1"])
    out = json.loads(capsys.readouterr().out)
    assert status == 0 and out["verdict"] == "verified" and out["failures"] == []
    assert out["check"]["rejected"] == 0 and out["check"]["witnesses"] == out["by_rule"]["forced"]
    witnesses = load_certificate(cert)
    assert len(witnesses) == out["by_rule"]["forced"]
    assert main(["verify", "certificate", str(cert), "--check-with", "prolog", "--jobs", "1"]) == 0


def test_cli_reports_the_uncovered_position(tmp_path, capsys):
    d = patashnik_dictionary()
    child = _strategic_child(d, ROOT)
    path = tmp_path / "mutant.dictionary"
    _without(d, child).save(path)
    status = main(["verify", "dictionary", str(path), "--root", "patashnik:" + format_patashnik(ROOT)])
    text = capsys.readouterr().out
    assert status == 1 and "REFUTED" in text and "FAILS at" in text


@pytest.mark.slow
@native
def test_patashnik_dictionary_is_verified_and_a_deletion_is_caught():
    d = patashnik_dictionary()
    v = verify(d)
    assert v.verdict == "verified" and v.by_rule["dictionary"] == len(d)
    entry = random.Random(1).choice(d.entries[1:])
    mutant = StrategyDictionary([e for e in d if e is not entry], d.header, d.separator)
    m = verify(mutant)
    assert m.verdict == "refuted"
    assert _key(entry.position) in {_key(f.position) for f in m.failures}


def test_time_limit_gives_an_incomplete_verdict():
    v = verify(patashnik_dictionary(), time_limit=0.05, jobs=1)
    assert v.verdict == "incomplete" and not v.failures


@native
@pytest.mark.parametrize("name", ["qubic-logic-solved", "qubic-logic-smallest"])
def test_shipped_strategies_are_first_player_wins_smaller_than_patashniks(name):
    """The shipped strategies (our searches; the smallest takes Patashnik's second moves) win from the empty board,
    use every entry, and have fewer strategic positions than Patashnik's dictionary (about 9 s each on 2 cores)."""
    d = StrategyDictionary.load(dictionary_path(name))
    assert d.root == Position()
    assert len(d) < len(patashnik_dictionary())
    v = verify(d)
    assert v.verdict == "verified" and v.by_rule["dictionary"] == len(d)


def test_the_smallest_shipped_strategy_has_at_most_1800_positions_and_takes_only_second_moves_from_patashnik():
    """Its moves at two marks are Patashnik's (credited in qubic_logic/data/README.md), and it is smaller than the
    project's other strategy."""
    smallest = StrategyDictionary.load(dictionary_path("qubic-logic-smallest"))
    solved = StrategyDictionary.load(dictionary_path("qubic-logic-solved"))
    assert len(smallest) <= 1800 < len(solved)
    patashnik = patashnik_dictionary()
    seconds = [e for e in smallest if e.position.count == 2]
    assert len(seconds) == 12 and all(patashnik.move_for(e.position) is not None for e in seconds)
    assert all(_key(e.position.play(e.move)) == _key(e.position.play(patashnik.move_for(e.position)))
               for e in seconds)


@native
def test_each_native_traversal_has_its_own_stop_flag():
    """Stopping one traversal leaves one in another thread running to the end (the flag was process-wide)."""
    entries = plain_entries(patashnik_dictionary())
    stopped, running = array("i", [1]), array("i", [0])  # one stopped before it starts
    results: dict = {}
    threads = [threading.Thread(target=lambda k, f: results.__setitem__(k, VERIFY_NATIVE.traverse(entries, 0, 0, stop=f)),
                                args=(k, f)) for k, f in (("stopped", stopped), ("running", running))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not results["stopped"]["complete"] and results["running"]["complete"]
    assert results["running"]["positions"] > results["stopped"]["positions"]
    with pytest.raises(TypeError, match="array"):
        VERIFY_NATIVE.traverse(entries, 0, 0, stop=bytearray(4))
