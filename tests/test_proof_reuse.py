"""The native search's proof reuse across the defender's replies (pass proofs and their zones) and its weak
proof numbers: same verdicts, verified strategies, and the switches do switch."""

from __future__ import annotations

import pytest

from qubic_logic.notation import parse_position
from qubic_logic.proof.known import KnownWins
from qubic_logic.proof.solve import solve
from qubic_logic.strategy.verify import verify


def _solved(text: str, **options):
    position = parse_position(text)
    r = solve(position, memory_limit=500, **options)
    assert r.status == "won"
    assert verify(r.strategy, position, jobs=1).verdict == "verified"
    return r


def test_switched_off_the_search_makes_no_pass_search():
    r = _solved("patashnik:x2x16o4o", pass_nodes=0)
    assert (r.extra["pass_searches"], r.extra["zone_proofs"]) == (0, 0)


@pytest.mark.parametrize("text", ["patashnik:x2x16o4o", "moves:0,63"])
def test_replies_proven_by_a_pass_proofs_zone_give_a_verified_strategy(text):
    """At once (pass_work=0) every eligible defender's turn is searched after a pass: replies outside the
    zones are proven without a search of their own, and the extracted strategy still verifies."""
    plain = _solved(text, pass_nodes=0)
    reused = _solved(text, pass_nodes=1000, pass_work=0)
    assert reused.extra["pass_proofs"] > 0 and reused.extra["zone_proofs"] > 0
    assert reused.extra["pass_searches"] >= reused.extra["pass_proofs"]
    assert reused.nodes != plain.nodes  # the pass searches' nodes count as the search's


@pytest.mark.parametrize("weak", [1, 2])
def test_weak_proof_numbers_prove_the_same_and_change_the_search(weak):
    plain = _solved("patashnik:x2x16o4o", pass_nodes=0)
    weakened = _solved("patashnik:x2x16o4o", pass_nodes=0, weak_pns=weak)
    assert weakened.nodes != plain.nodes


def _deep_part(strategy, marks: int) -> KnownWins:
    wins = KnownWins()
    wins.add(e for e in strategy if e.position.count >= marks)
    return wins


def test_wins_known_from_another_proof_cut_the_search_and_the_strategy_still_verifies():
    """The deeper half of a proof, given as known wins, is met by the search and proven at once; the strategy
    extracted plays its known moves and carries their proofs below, so it verifies on its own."""
    plain = _solved("patashnik:x2x16o4o", pass_nodes=0)
    known = _deep_part(plain.strategy, 8)
    assert 0 < len(known) < len(plain.strategy)
    helped = _solved("patashnik:x2x16o4o", pass_nodes=0, known=known.packed())
    assert helped.extra["known_proofs"] > 0
    assert helped.nodes < plain.nodes


def test_a_search_going_on_from_a_table_with_known_wins_it_was_not_given_proves_them_again():
    position = parse_position("patashnik:x2x16o4o")
    known = _deep_part(_solved("patashnik:x2x16o4o", pass_nodes=0).strategy, 8)
    first = solve(position, memory_limit=500, pass_nodes=0, node_limit=8000, save_table=True, known=known.packed())
    assert first.status == "unknown" and first.extra["known_proofs"] > 0
    went_on = solve(position, memory_limit=500, pass_nodes=0, table=first.table)
    assert went_on.status == "won"
    assert verify(went_on.strategy, position, jobs=1).verdict == "verified"


def test_known_wins_must_be_packed_entries():
    with pytest.raises(ValueError, match="17 bytes"):
        solve(parse_position("patashnik:x2x16o4o"), known=b"\x00" * 20)
