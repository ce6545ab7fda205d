"""Force trees: structure under docs/design.md §3, agreement with the engines and the referee."""

from __future__ import annotations

import random

import networkx as nx
import pytest

from qubic_logic.bitboard import threat_cells
from qubic_logic.core import shortest_forced_win
from qubic_logic.engines import get_engine
from qubic_logic.errors import EngineUnavailableError, IllegalPositionError
from qubic_logic.forcetree import EDGE_KINDS, ForceTree, force_tree
from qubic_logic.notation import parse_position
from qubic_logic.position import Position
from qubic_logic.referee import replay_forced_win

from .conftest import random_position

MCDANIEL = parse_position("1-2,22-52,27-4")  # McDaniel's plane-17 trap, O has answered 4


def bounded_positions(count: int, seed: int = 7) -> list[Position]:
    """Random mid-game positions (their trees are grown with a small bound)."""
    rng = random.Random(seed)
    return [random_position(rng, rng.choice([10, 12, 14, 16])) for _ in range(count)]


def shape(tree: ForceTree) -> set[tuple]:
    """The tree up to node order: every node as (moves from the root, status, length, edge kind)."""
    out = set()
    for node, d in tree.nodes(data=True):
        parents = list(tree.predecessors(node))
        kind = tree.edges[parents[0], node]["kind"] if parents else None
        out.add((tree.path_to(node), d["role"], d["status"], d["length"], kind,
                 d["x_threats"], d["o_threats"]))
    return out


def test_tree_is_a_tree_with_the_documented_attributes():
    tree = force_tree(MCDANIEL, engine="python")
    assert isinstance(tree, nx.DiGraph) and nx.is_arborescence(tree)
    assert tree.graph["truncated"] is None and tree.attacker == "x"
    for node, d in tree.nodes(data=True):
        assert d["status"] in ("win", "fail", "cut")
        assert (d["length"] is not None) == (d["status"] == "win")
        assert d["position"].to_move == d["to_move"]
        assert set(d["x_threats"]) == {c for c in range(64) if threat_cells(d["position"].x, d["position"].o) >> c & 1}
    assert {k for *_, k in tree.edges(data="kind")} <= set(EDGE_KINDS)


def test_every_root_to_win_path_replays_in_the_referee():
    tree = force_tree(MCDANIEL, engine="python")
    paths = list(tree.winning_paths())
    assert paths
    for path in paths:
        length = replay_forced_win(MCDANIEL, path)
        assert length >= tree.length
    assert {replay_forced_win(MCDANIEL, p) for p in tree.winning_paths(minimal_only=True)} == {tree.length}


@pytest.mark.parametrize("position", bounded_positions(12), ids=lambda p: f"n{p.count}")
def test_root_length_matches_the_search_and_paths_replay(position):
    bound = 4
    tree = force_tree(position, engine="python", max_length=bound, max_nodes=20000)
    assert tree.graph["truncated"] is None
    assert tree.length == shortest_forced_win(position, bound, core="python").length
    for path in tree.winning_paths():
        assert replay_forced_win(position, path) <= bound


def test_every_winning_attacker_node_knows_its_minimal_length():
    tree = force_tree(MCDANIEL, engine="python")
    for node, d in tree.nodes(data=True):
        if d["role"] == "attacker":
            expected = shortest_forced_win(d["position"], core="python").length
            assert d["length"] == expected, tree.path_to(node)


def test_edges_follow_the_rules_of_section_3():
    tree = force_tree(MCDANIEL, engine="python")
    a = tree.attacker
    for parent, child, e in tree.edges(data=True):
        p, c = tree.nodes[parent], tree.nodes[child]
        own = c["x_threats"] if a == "x" else c["o_threats"]
        theirs = p["o_threats"] if a == "x" else p["x_threats"]
        if e["kind"] == "block":
            assert e["move"] in (p["x_threats"] if a == "x" else p["o_threats"])
        elif e["kind"] == "counter":
            assert theirs == (e["move"],)
        elif e["kind"] == "double":
            assert len(own) >= 2 and tree.out_degree(child) == len(own)
        elif e["kind"] == "forcing":
            assert len(own) == 1 and tree.out_degree(child) <= 1
        else:
            assert c["role"] == "end" and c["position"].winner == a
        if p["role"] == "defender":
            assert c["position"].to_move == a


def test_only_winning_keeps_exactly_the_winning_part():
    full = force_tree(MCDANIEL, engine="python")
    winning = force_tree(MCDANIEL, engine="python", only_winning=True)
    assert set(winning.winning_paths()) == set(full.winning_paths())
    assert winning.length == full.length
    assert winning.winning_first_moves() == full.winning_first_moves()
    assert all(d["status"] == "win" for _, d in winning.nodes(data=True) if d["role"] != "defender")


def test_bound_cuts_and_node_cap_truncates():
    bounded = force_tree(MCDANIEL, engine="python", max_length=5)
    assert bounded.length is None and bounded.nodes[0]["status"] == "cut"
    assert "within 5 moves" in bounded.summary()
    capped = force_tree(MCDANIEL, engine="python", max_nodes=50)
    assert capped.graph["truncated"] == "max_nodes"
    assert capped.number_of_nodes() < 60
    assert "incomplete" in capped.summary()
    assert any(d["reason"] == "node cap reached" for _, d in capped.nodes(data=True))


def test_progress_is_reported():
    seen = []
    force_tree(MCDANIEL, engine="python", progress=seen.append)
    assert seen and seen == sorted(seen)


def test_interruption_keeps_a_consistent_partial_tree():
    def interrupt(nodes: int) -> None:
        if nodes >= 500:
            raise KeyboardInterrupt

    tree = force_tree(MCDANIEL, engine="python", progress=interrupt)
    assert tree.graph["truncated"] == "interrupted" and 500 <= tree.number_of_nodes() < 731
    assert all(d["reason"] != "not expanded" for _, d in tree.nodes(data=True))
    assert tree.length == 6 and "incomplete" in tree.summary()
    for path in tree.winning_paths():
        replay_forced_win(MCDANIEL, path)
    for node, d in tree.nodes(data=True):
        if d["status"] == "win" and d["role"] == "attacker":
            assert d["length"] >= shortest_forced_win(d["position"], core="python").length


def test_game_over_is_refused():
    with pytest.raises(IllegalPositionError, match="over"):
        force_tree(Position.from_cells([0, 16, 1, 17, 2, 18, 3]))


def test_o_can_be_the_attacker():
    p = parse_position("moves:63,0,62,1,60,2,40")  # O holds 0,1,2 and is to move; X threatens 61
    tree = force_tree(p, engine="python")
    assert tree.attacker == "o" and tree.length == 1
    assert [tree.edges[e]["move"] for e in tree.out_edges(0)] == [3]
    assert tree.nodes[0]["x_threats"] == (61,)


def _engine_or_skip(name: str):
    try:
        return get_engine(name)
    except EngineUnavailableError as exc:
        pytest.skip(str(exc))


@pytest.mark.parametrize("name", ["native", "asp", "prolog"])
def test_same_tree_from_each_engine(name):
    engine = _engine_or_skip(name)
    positions = bounded_positions(2, seed=11) + [MCDANIEL]
    for position in positions:
        reference = force_tree(position, engine="python", max_length=3)
        assert shape(force_tree(position, engine=engine, max_length=3)) == shape(reference)
    winning = force_tree(positions[1], engine=engine, only_winning=True, max_length=3)
    assert winning.length == 2
    assert shape(winning) == shape(force_tree(positions[1], engine="python", only_winning=True, max_length=3))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["native", "asp", "prolog"])
def test_same_winning_tree_of_mcdaniels_trap_from_each_engine(name):
    engine = _engine_or_skip(name)
    reference = force_tree(MCDANIEL, engine="python", only_winning=True, max_length=6)
    assert shape(force_tree(MCDANIEL, engine=engine, only_winning=True, max_length=6)) == shape(reference)


# ------------------------------------------------------------------ folded graphs


@pytest.mark.parametrize("position", [MCDANIEL, *bounded_positions(6, seed=11)], ids=lambda p: f"n{p.count}")
def test_folding_keeps_every_win_and_leaves_only_real_choices(position):
    from qubic_logic.forcegraph import fold_forced, force_graph

    tree = force_tree(position, engine="native", max_length=None if position is MCDANIEL else 5)
    for base, exact in ((tree, True), (force_graph(tree), True), (force_graph(tree, symmetric=True), False)):
        folded = fold_forced(base)
        assert folded.length == base.length and folded.winning_first_moves() == base.winning_first_moves()
        assert set(folded.winning_paths()) == set(base.winning_paths())
        forced = sum(1 for n, d in base.nodes(data=True) if d["role"] == "defender" and base.out_degree(n) == 1)
        assert folded.number_of_nodes() <= base.number_of_nodes() - forced
        for node, d in folded.nodes(data=True):  # a defender left is a branch point or a dead end
            if d["role"] == "defender":
                assert folded.out_degree(node) != 1
        for a, b, e in folded.edges(data=True):  # a step plays its move (and reply) from a to b
            p = folded.nodes[a]["position"]
            for cell in (e["move"],) if e.get("reply") is None else (e["move"], e["reply"]):
                p = p.play(cell)
            assert p == folded.nodes[b]["position"] or not exact
    for path in fold_forced(tree).winning_paths(minimal_only=True):
        assert replay_forced_win(position, path) == tree.length


def test_the_plane_17_graph_folds_to_far_fewer_nodes():
    from qubic_logic.forcegraph import fold_forced, force_graph

    tree = force_tree(MCDANIEL, engine="native")
    graph = force_graph(tree)
    folded = fold_forced(graph)
    assert (tree.number_of_nodes(), graph.number_of_nodes()) == (731, 271)
    assert folded.number_of_nodes() < graph.number_of_nodes() / 2
    steps = [e for *_, e in folded.edges(data=True) if e.get("reply") is not None]
    assert steps and all(e["kind"] in ("forcing", "counter", "block") for e in steps)
    assert "271 graph nodes (transpositions merged), " in folded.summary()
    assert f"{folded.number_of_nodes()} with forced replies folded" in folded.summary()
