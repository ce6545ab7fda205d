"""The native search's proof reuse across the defender's replies (pass proofs and their zones) and its weak
proof numbers: same verdicts, verified strategies, and the switches do switch."""

from __future__ import annotations

import pytest

from qubic_logic.notation import parse_position
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
