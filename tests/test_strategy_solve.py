"""The proof-number solver: its strategies are checked by the verifier and the declarative rules."""

from __future__ import annotations

import json

import pytest

from qubic_logic.cli import main
from qubic_logic.core import shortest_forced_win, threats
from qubic_logic.notation import parse_patashnik, parse_position
from qubic_logic.position import Position
from qubic_logic.strategy import StrategyDictionary
from qubic_logic.proof.solve import best_move, solve
from qubic_logic.strategy.verify import verify
from qubic_logic.strategy.witness_check import check_witnesses

MID_GAME = parse_patashnik("x2x1o6x14o20o")  # from Patashnik's tree; no forced sequence for X yet
O_TO_MOVE = parse_patashnik("o2o1x6o14x20x13x")  # the same attack with colours swapped, X one mark up


def test_mid_game_strategy_is_accepted_by_the_verifier_and_the_asp_rules():
    assert not shortest_forced_win(MID_GAME).found
    r = solve(MID_GAME, time_limit=60)
    assert r.status == "won" and r.strategy_size >= 1
    v = verify(r.strategy, MID_GAME, jobs=1)
    assert v.verdict == "verified" and v.by_rule["dictionary"] == r.strategy_size
    assert check_witnesses(v.witnesses, "asp") == []
    assert r.move in MID_GAME.legal_moves()


def test_o_to_move_is_solved_and_verified():
    assert O_TO_MOVE.to_move == "o"
    r = solve(O_TO_MOVE, time_limit=60)
    assert r.status == "won"
    v = verify(r.strategy, O_TO_MOVE, jobs=1)
    assert v.verdict == "verified"


def test_two_defender_threats_are_a_proven_non_win():
    p = Position.from_cells([32, 0, 58, 1, 21, 2, 10, 16, 39, 17, 5, 18])
    assert not threats(p).x and bin(threats(p).o).count("1") == 2
    assert solve(p).status == "not won"


@pytest.mark.parametrize("core", ["auto", "python"])
def test_a_forced_sequence_needs_no_strategy(core):
    p = parse_position("1-2,22-52,27-4")
    r = solve(p, core=core)
    win = shortest_forced_win(p)
    assert r.status == "won" and r.strategy_size == 0 and r.move == win.sequence[0]


@pytest.mark.slow
def test_python_core_agrees():
    assert solve(MID_GAME, core="python", time_limit=120).status == "won"


@pytest.mark.parametrize("method", ["native", "python"])
def test_limits_give_unknown_with_a_move(method):
    r = solve(parse_position("empty"), time_limit=0.5, method=method)
    assert r.status == "unknown" and r.stopped_by == "time limit" and r.move in range(64)
    r = solve(parse_position("empty"), node_limit=500, method=method)
    assert r.status == "unknown" and r.stopped_by == "node limit" and r.move in range(64)


def test_python_search_stops_at_its_memory_cap():
    r = solve(parse_position("empty"), memory_limit=0.2, method="python")
    assert r.status == "unknown" and r.stopped_by == "memory limit"


def test_best_move_wins_by_force_in_a_won_position():
    r = best_move(MID_GAME, time_limit=30)
    assert r.status == "won"
    after = MID_GAME.play(r.move)
    # every O reply leaves X a won position: spot-check with the solver itself on a few replies
    for reply in after.legal_moves()[:5]:
        assert solve(after.play(reply), time_limit=30).status == "won"


def test_cli_solve_writes_a_dictionary_the_verifier_accepts(tmp_path, capsys):
    out = tmp_path / "mid.dictionary"
    assert main(["solve", "patashnik:o2o1x6o14x20x13x", "-o", str(out), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["status"] == "won" and result["output"] == str(out)
    d = StrategyDictionary.load(out)
    assert d.root == O_TO_MOVE and len(d) == result["strategic_positions"]
    assert main(["verify", "dictionary", str(out), "--check-with", "asp", "--json", "--jobs", "1"]) == 0
    check = json.loads(capsys.readouterr().out)
    assert check["verdict"] == "verified" and check["check"]["rejected"] == 0


@pytest.mark.slow
def test_four_mark_position_of_patashniks_tree():
    p = parse_patashnik("x2x16o4o")
    r = solve(p, time_limit=300)
    assert r.status == "won"
    assert verify(r.strategy, p).verdict == "verified"


def test_split_solve_merges_verified_strategies(tmp_path, capsys):
    from qubic_logic.proof.split import reply_classes

    p = parse_patashnik("x2x16o4o")
    classes = reply_classes(p, 5)
    keys = {canonical(q) for q in classes}
    assert len(keys) == len(classes)
    # every legal reply is equivalent to one of the classes
    after = p.play(5)
    assert {canonical(after.play(c)) for c in after.legal_moves()} == keys
    out = tmp_path / "split.dictionary"
    assert main(["solve", "patashnik:x2x16o4o", "--split", "--move", "5", "--jobs", "2", "-o", str(out),
                 "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["status"] == "won"
    v = verify(StrategyDictionary.load(out), p, jobs=1)
    assert v.verdict == "verified" and v.by_rule["dictionary"] == result["strategic_positions"]


def canonical(p: Position) -> tuple[int, int]:
    from qubic_logic.symmetry import canonical_masks

    return canonical_masks(p.x, p.o)[:2]
