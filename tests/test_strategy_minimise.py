"""The minimising pass: fewer strategic positions, and the verifier still accepts the strategy."""

from __future__ import annotations

from qubic_logic.errors import DataFormatError
from qubic_logic.notation import parse_patashnik
from qubic_logic.position import Position
from qubic_logic.strategy import StrategyDictionary
from qubic_logic.strategy.dictionary import Entry, patashnik_dictionary
from qubic_logic.strategy.minimise import minimised
from qubic_logic.strategy.solve import solve
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
    d = StrategyDictionary([Entry(Position(), 0), Entry(parse_patashnik("1x"), 5)])
    assert [e.text() for e in minimised(d)] == [" 0"]


def test_every_entry_lets_a_union_of_two_strategies_be_no_larger_than_either():
    root = parse_patashnik("x2x16o4o")
    native, python = solve(root, method="native").strategy, solve(root, method="python").strategy
    union = StrategyDictionary(list(native), native.header)
    for entry in python:
        try:
            union.add(entry)
        except DataFormatError:
            pass  # an equivalent position already has a move
    sizes = [len(minimised(s, root)) for s in (native, python)]
    after = minimised(union, root, every_entry=True)
    assert len(after) <= min(sizes)
    v = verify(after, root, jobs=1)
    assert v.verdict == "verified" and v.by_rule["dictionary"] == len(after)
