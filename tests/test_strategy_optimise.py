"""The smallest strategy as an optimisation: clingo's #minimize over the proof graph, checked against every choice."""

from __future__ import annotations

import itertools

import clingo
import pytest

from qubic_logic.engines.rulefiles import rule_path
from qubic_logic.notation import parse_patashnik
from qubic_logic.strategy import StrategyDictionary
from qubic_logic.strategy.dictionary import patashnik_path
from qubic_logic.proof.minimise import ProofGraph, canonical_moves, chosen_strategy, smallest
from qubic_logic.proof.optimise import Choices, main as optimise_main, optimised, proof_graph_facts
from qubic_logic.proof.solve import solve
from qubic_logic.strategy.compress import compressed
from qubic_logic.strategy.verify import verify

SHIPPED = patashnik_path().with_name("qubic-logic-solved.dictionary")
ROOT = "x2x6o10o"  # four marks in: the shipped strategy and a search of its own give three real choices


def fewest_by_trying_every_choice(choices: Choices) -> int:
    """The fewest positions reached over every combination of moves (the positions with one move have no choice)."""
    open_ = [p for p, moves in enumerate(choices.options) if len(moves) > 1]
    best = None
    for combination in itertools.product(*(sorted(choices.options[p]) for p in open_)):
        pick = dict(zip(open_, combination))
        seen, stack = set(), list(choices.start)
        while stack:
            p = stack.pop()
            if p not in seen:
                seen.add(p)
                moves = choices.options[p]
                stack.extend(moves[pick.get(p, next(iter(moves)))])
        best = len(seen) if best is None else min(best, len(seen))
    return best


@pytest.fixture(scope="module")
def union() -> StrategyDictionary:
    """The shipped strategy and a search's own strategy from ROOT, united with ROOT as the root."""
    root = parse_patashnik(ROOT)
    shipped = StrategyDictionary.load(SHIPPED)
    return StrategyDictionary.union([solve(root).strategy, shipped], [f"root: {ROOT}"])


@pytest.fixture(scope="module")
def graph(union) -> tuple[ProofGraph, frozenset, Choices]:
    """The union's proof graph from ROOT, where it starts and its facts."""
    root = parse_patashnik(ROOT)
    graph = ProofGraph(canonical_moves(union))
    start = graph.start(root.x, root.o)
    return graph, start, proof_graph_facts(graph, start)


def test_the_optimiser_finds_the_fewest_positions_of_every_choice_no_more_than_the_local_search(union, graph):
    proofs, start, choices = graph
    assert sum(len(moves) > 1 for moves in choices.options) >= 2  # a real choice
    local = smallest(proofs, start)
    root = parse_patashnik(ROOT)
    found = optimised(union, root, time_limit=300)
    assert found.proven and found.lower == found.size == len(found.strategy)
    assert found.size == fewest_by_trying_every_choice(choices) <= len(local)
    assert found.local == len(local)
    v = verify(found.strategy, root, jobs=1)
    assert v.verdict == "verified" and v.by_rule["dictionary"] == found.size


def test_a_dropped_move_reaches_a_superset_of_a_kept_ones_positions(graph):
    proofs, _, choices = graph
    for p, key in enumerate(choices.positions):
        kept = [frozenset(choices.positions[q] for q in after) for after in choices.options[p].values()]
        for move, after in proofs.options(key).values():
            assert move in choices.options[p] or any(mine <= after for mine in kept)


@pytest.mark.parametrize("opt_strategy", ["usc", "bb", "both"])
def test_each_optimisation_strategy_proves_the_optimum(union, graph, opt_strategy):
    found = optimised(union, parse_patashnik(ROOT), opt_strategy=opt_strategy, sweeps=1, time_limit=300)
    assert found.proven and found.size == fewest_by_trying_every_choice(graph[2])


@pytest.fixture(scope="module")
def union_file(union, tmp_path_factory) -> str:
    """The union as a file (its header names ROOT)."""
    path = tmp_path_factory.mktemp("union") / "union.dict"
    union.save(path)
    return str(path)


def test_the_optimise_command_writes_a_verified_strategy_and_the_facts_clingo_reads(union_file, tmp_path, capsys):
    out, facts = tmp_path / "small.dict", tmp_path / "graph.lp"
    assert optimise_main([str(out), union_file, "--facts", str(facts)]) == 0
    written = StrategyDictionary.load(out)
    assert written.root == parse_patashnik(ROOT)
    v = verify(written, written.root, jobs=1)
    assert v.verdict == "verified" and v.by_rule["dictionary"] == len(written)
    assert f"VERIFIED, {len(written):,} strategic positions: the optimum over these proofs" in capsys.readouterr().out
    ctl = clingo.Control(["--opt-mode=opt"])  # the rules and the facts alone, as on clingo's command line
    ctl.load(str(rule_path("smallest-strategy", "lp")))
    ctl.load(str(facts))
    ctl.ground([("base", [])])
    costs = []
    assert ctl.solve(on_model=lambda m: costs.append(m.cost[0])).exhausted
    assert costs[-1] == len(written)


def test_the_optimum_with_a_kept_move_never_changes_it_and_is_no_smaller(union_file, graph, tmp_path, capsys):
    """--keep FILE: the optimiser chooses among the other positions' moves only."""
    proofs, _, choices = graph
    root = parse_patashnik(ROOT)
    best = fewest_by_trying_every_choice(choices)
    key = choices.positions[next(iter(choices.start))]
    options = sorted(move for move, _ in proofs.options(key).values())
    results = []
    for move in options:
        keep = tmp_path / f"keep{move}.dict"
        StrategyDictionary([StrategyDictionary.parse(f"---\n{ROOT} {move}\n").entries[0]]).save(keep)
        out = tmp_path / f"kept{move}.dict"
        assert optimise_main([str(out), union_file, "--keep", str(keep), "--time-limit", "300"]) == 0
        written = StrategyDictionary.load(out)
        assert written.move_for(root) == move and verify(written, root, jobs=1).verdict == "verified"
        results.append(len(written))
    assert len(options) > 1 and min(results) == best
    assert "the optimum over these proofs" in capsys.readouterr().out


def test_a_time_limit_keeps_a_verified_strategy(union_file, tmp_path, capsys):
    out = tmp_path / "quick.dict"
    assert optimise_main([str(out), union_file, "--time-limit", "0.000001"]) == 0
    written = StrategyDictionary.load(out)
    assert verify(written, written.root, jobs=1).verdict == "verified"
    assert "time limit" in capsys.readouterr().out


def test_bad_input_is_one_line_and_nothing_is_written(union_file, tmp_path, capsys):
    out = tmp_path / "never.dict"
    assert optimise_main([str(out), union_file, str(SHIPPED)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "different roots" in err and not out.exists()
    assert optimise_main([str(out), union_file, "--time-limit", "-1"]) == 2
    assert optimise_main([str(out), str(tmp_path / "missing.dict")]) == 2
    assert "missing.dict" in capsys.readouterr().err and not out.exists()


@pytest.mark.slow
def test_over_patashniks_and_our_proofs_the_optimum_is_smaller_than_the_local_search():
    """Patashnik's dictionary (credited in qubic_logic/data/README.md) and ours united: the local search ends in a
    local minimum that clingo's optimum undercuts (about 2 CPU minutes)."""
    union = StrategyDictionary.union([StrategyDictionary.load(patashnik_path()), StrategyDictionary.load(SHIPPED)],
                                     ["root: "])
    found = optimised(union, time_limit=3600)
    assert found.proven and found.size < found.local
    v = verify(found.strategy)
    assert v.verdict == "verified" and v.by_rule["dictionary"] == found.size


def test_the_lines_objective_needs_no_more_lines_than_compressing_the_smallest_strategy(union):
    """--objective lines: clingo's exact cover of its strategy by wildcard lines is no larger than the greedy
    cover of the fewest-positions strategy or of its own, and the strategy verifies."""
    root = parse_patashnik(ROOT)
    fewest_lines = optimised(union, root, time_limit=300, objective="lines")
    fewest_positions = optimised(union, root, time_limit=300)
    assert fewest_lines.proven and fewest_lines.lower == fewest_lines.lines
    assert fewest_lines.lines <= min(len(compressed(fewest_positions.strategy)), len(compressed(fewest_lines.strategy)))
    assert fewest_lines.size >= fewest_positions.size and fewest_lines.size == len(fewest_lines.strategy)
    assert verify(fewest_lines.strategy, root, jobs=1).verdict == "verified"
    assert "wildcard lines" in fewest_lines.summary()


def test_the_greedy_cover_rewrites_a_strategy_in_fewer_lines_with_no_more_positions(union, graph):
    """The lines objective's starting point: each position reached may take any known-winning move that reaches
    no new position, and the fullest lines are taken first. It needs fewer lines than compressing the local
    search's strategy, and the strategy it writes verifies."""
    proofs, start, _ = graph
    choices = proof_graph_facts(proofs, start, lines=True)
    local = smallest(proofs, start)
    number = choices.number
    pick, lines = choices.cover({number[key]: move for key, move in local.items()})
    assert pick.keys() == choices.reached(pick) and len(pick) <= len(local)
    assert all(any(line in choices.fitting[p][move] for line in lines) for p, move in pick.items())
    before = chosen_strategy(local, "x", union)
    after = chosen_strategy({choices.positions[p]: move for p, move in pick.items()}, "x", union)
    assert len(lines) < len(compressed(before))
    v = verify(after, parse_patashnik(ROOT), jobs=1)
    assert v.verdict == "verified" and v.by_rule["dictionary"] == len(pick)
