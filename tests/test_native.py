"""The native core (qubic_logic._native) against the pure-Python fallback (qubic_logic.bitboard).

Both must agree on every threat scan, on the existence, minimal length and ``reached`` of
forced wins (docs/design.md §3), on canonical forms, bounds, limits and bad input; their
witnesses may differ but each must replay in the referee.
"""

from __future__ import annotations

import os
import random
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qubic_logic import bitboard as py
from qubic_logic import symmetry
from qubic_logic.bench._positions import dictionary_queries, masks, random_prefixes
from qubic_logic.core import shortest_forced_win
from qubic_logic.geometry import FULL, LINE_MASKS
from qubic_logic.position import Position, other
from qubic_logic.referee import replay_forced_win

try:
    from qubic_logic import _native as nat
except ImportError:  # pragma: no cover - only without a C compiler
    if os.environ.get("QUBIC_REQUIRE_NATIVE") == "1":
        raise
    pytest.skip("the native core is not built", allow_module_level=True)

SCANS = ("threat_cells", "forcing_moves", "major_cells")


def _position_from(order: list[int], count: int) -> Position:
    """Play ``order`` from the empty board for ``count`` moves, stopping before a win."""
    p = Position()
    for cell in order[:count]:
        q = p.play(cell)
        if q.winner:
            break
        p = q
    return p


def _same_forced_win(p: Position, **kw) -> tuple:
    """Ask both cores; assert equal length and reached and replayable witnesses."""
    a, d = masks(p)
    rn = nat.forced_win(a, d, **kw)
    rp = py.forced_win(a, d, **kw)
    assert (rn[0], rn[3]) == (rp[0], rp[3]), (p, rn, rp)
    for length, seq, _, _ in (rn, rp):
        if length > 0:
            assert len(seq) == 2 * length - 1
            assert replay_forced_win(p, seq) == length
        else:
            assert seq == ()
    return rn


def _uses_counter_threat(p: Position, seq: tuple[int, ...]) -> bool:
    """Whether the attacker had to block a defender threat at some step of the witness."""
    attacker = p.to_move
    for i, cell in enumerate(seq):
        if i % 2 == 0 and py.threat_cells(p.mask(other(attacker)), p.mask(attacker)):
            return True
        p = p.play(cell)
    return False


@pytest.fixture(scope="module")
def prefixes() -> list[Position]:
    return random_prefixes(seed=2024, count=1500)


@pytest.fixture(scope="module")
def dictionary_positions() -> list[Position]:
    return dictionary_queries(seed=17, games=60)


# ---------------------------------------------------------------- threat scans


def test_scans_agree_on_generated_prefixes(prefixes):
    for p in prefixes:
        for a, d in (masks(p), masks(p)[::-1]):
            for name in SCANS:
                assert getattr(nat, name)(a, d) == getattr(py, name)(a, d), (name, p)


@settings(max_examples=400, deadline=None)
@given(a=st.integers(0, FULL), d=st.integers(0, FULL))
def test_scans_agree_on_any_disjoint_masks(a, d):
    d &= ~a
    for name in SCANS:
        assert getattr(nat, name)(a, d) == getattr(py, name)(a, d), name


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(st.sampled_from(LINE_MASKS), max_size=4), drop=st.integers(0, FULL))
def test_scans_on_nearly_full_lines(lines, drop):
    # masks made of whole lines minus a few cells hit every 3-0 and 2-0 case
    a = 0
    for lm in lines:
        a |= lm
    a &= ~(drop & (drop >> 7) & (drop >> 13))
    for name in SCANS:
        assert getattr(nat, name)(a, 0) == getattr(py, name)(a, 0), name


def test_threat_cells_by_hand():
    a = (1 << 0) | (1 << 1) | (1 << 2)
    assert nat.threat_cells(a, 0) == 1 << 3
    assert nat.threat_cells(a, 1 << 3) == 0
    assert nat.forcing_moves(0b11, 0) == 0b1100
    # two 2-0 lines through cell 0 (row 0 and column 0): cell 0 is major
    assert nat.major_cells((1 << 1) | (1 << 2) | (1 << 4) | (1 << 8), 0) & 1


def test_threat_scan_batch(prefixes):
    pairs = [masks(p) for p in prefixes]
    expected = sum(1 for a, d in pairs if py.threat_cells(a, d))
    assert 0 < expected < len(pairs)
    assert nat.threat_scan_batch(pairs) == py.threat_scan_batch(pairs) == expected
    assert nat.threat_scan_batch(pairs, repeat=3) == 3 * expected
    assert nat.threat_scan_batch([]) == 0


# ---------------------------------------------------------------- forced wins


def test_forced_wins_agree_on_generated_prefixes(prefixes):
    lengths = set()
    for p in prefixes:
        lengths.add(_same_forced_win(p)[0])
    # the set covers immediate wins, searches and positions without a win
    assert {0, 1, 2, 3, 4, 5}.issubset(lengths) and max(lengths) >= 8, sorted(lengths)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(order=st.permutations(range(64)), count=st.integers(6, 40))
def test_forced_wins_agree_on_hypothesis_prefixes(order, count):
    _same_forced_win(_position_from(order, count))


def test_forced_wins_agree_on_dictionary_games(dictionary_positions):
    """Positions where Patashnik's strategy needs a forced win: long ones, counter-threats."""
    longest, counter = 0, 0
    for p in dictionary_positions:
        length, seq, _, reached = _same_forced_win(p)
        longest = max(longest, length)
        if length > 0 and _uses_counter_threat(p, seq):
            counter += 1
        if length == 0:
            assert reached == py.NONE_AT_ANY_LENGTH
    assert longest >= 10, longest
    assert counter >= 3, counter


def test_strategy_positions_have_wins(dictionary_positions):
    # where the dictionary has no move and O has no threat, a forced win must exist
    no_block = [p for p in dictionary_positions if not py.threat_cells(*masks(p)[::-1])]
    assert no_block
    for p in no_block:
        assert nat.forced_win(*masks(p))[0] > 0, p


def test_mcdaniel_example():
    from qubic_logic.notation import parse_position

    p = parse_position("1-2,22-52,27-4")
    length, seq, nodes, reached = nat.forced_win(*masks(p))
    assert (length, reached) == (6, 6) and nodes > 0
    assert replay_forced_win(p, seq) == 6
    assert shortest_forced_win(p, core="native").length == shortest_forced_win(p, core="python").length == 6


def _threat_walk(a: int, d: int, rng: random.Random) -> list[int]:
    """A random threat sequence from (a, d): each attacker move makes a three and the defender
    blocks one, whatever the consequences (counter-threats, double threats), until the attacker
    has a three (then mostly completes it) or makes none."""
    seq: list[int] = []
    while len(seq) < 16:
        empty = [c for c in range(64) if not (a | d) >> c & 1]
        threes = [c for c in empty if py.threat_cells(a, d) >> c & 1]
        threatening = [c for c in empty if py.threat_cells(a | 1 << c, d)]
        if threes or not threatening or rng.random() < 0.1:
            return seq + [rng.choice(threes if threes and rng.random() < 0.9 else empty)]
        move = rng.choice(threatening)
        a |= 1 << move
        blocks = [c for c in range(64) if py.threat_cells(a, d) >> c & 1]
        reply = rng.choice(blocks)
        d |= 1 << reply
        seq += [move, reply]
    return seq


def test_witness_replay_agrees_with_the_referee():
    """The C replay (incremental threat scans) accepts exactly the sequences the referee accepts:
    the forced wins found, and random threat sequences from seeded random positions, among them
    counter-threats the attacker ignores (which only the counter-threat rule rejects)."""
    from qubic_logic.proof.solve import _native_holds, _python_holds

    rng = random.Random(2026)
    accepted = ignored_counter_threats = 0
    for _ in range(250):
        order = list(range(64))
        rng.shuffle(order)
        a, d = masks(_position_from(order, rng.randrange(6, 41)))
        for seq in [list(nat.forced_win(a, d)[1])] + [_threat_walk(a, d, rng) for _ in range(12)]:
            holds = _python_holds(a, d, bytes(seq))
            assert _native_holds(a, d, bytes(seq)) == holds, (a, d, seq)
            accepted += holds
            ignored_counter_threats += not holds and _holds_ignoring_counter_threats(a, d, seq)
    assert accepted > 1000 and ignored_counter_threats >= 10, (accepted, ignored_counter_threats)


def _holds_ignoring_counter_threats(a: int, d: int, seq: list[int]) -> bool:
    """Whether ``seq`` would be a forced win if the defender's threes did not count."""
    if not seq:
        return False
    for i in range(0, len(seq) - 1, 2):
        a |= 1 << seq[i]
        made = py.threat_cells(a, d)
        if not made >> seq[i + 1] & 1:
            return False
        d |= 1 << seq[i + 1]
    return bool(py.threat_cells(a, d) >> seq[-1] & 1) and len(seq) % 2 == 1


def test_witness_convention_after_double_threat():
    # X on 1, 2 (row 0) and 4, 8 (column 0): cell 0 is a major cell, threats at 3 and 12
    a = (1 << 1) | (1 << 2) | (1 << 4) | (1 << 8)
    d = (1 << 60) | (1 << 61) | (1 << 50) | (1 << 47)
    for core in (nat, py):
        assert core.forced_win(a, d)[:2] == (2, (0, 3, 12))


def test_counter_threat_rule_at_the_root():
    # O threatens 3 (0, 1, 2); X must block there, which makes X's own double threat
    d = (1 << 0) | (1 << 1) | (1 << 2)
    a = (1 << 7) | (1 << 11) | (1 << 19) | (1 << 35)  # 2-0 lines 3-7-11-15 and 3-19-35-51
    for core in (nat, py):
        length, seq, _, _ = core.forced_win(a, d)
        assert (length, seq[0]) == (2, 3)
    # two defender threats: no forced win at any length
    d2 = d | (1 << 20) | (1 << 24) | (1 << 28)
    assert nat.forced_win(a, d2) == (0, (), 1, 64)
    assert py.forced_win(a, d2)[::3] == (0, 64)


def test_no_win_is_proven_without_a_bound():
    p = Position.from_cells([0, 63])
    for core in (nat, py):
        assert core.forced_win(*masks(p))[::3] == (0, 64)


# ---------------------------------------------------------------- bounds and limits


def test_bounds(prefixes, dictionary_positions):
    checked = 0
    for p in [*dictionary_positions, *prefixes]:
        length = nat.forced_win(*masks(p))[0]
        if length < 3:
            continue
        short = _same_forced_win(p, max_length=length - 1)
        assert short[0] == 0 and short[3] == length - 1
        exact = _same_forced_win(p, max_length=length)
        assert exact[0] == length
        assert _same_forced_win(p, max_length=length + 5)[0] == length
        checked += 1
        if checked == 40:
            break
    assert checked == 40


def test_bound_one_and_immediate_win():
    p = Position.from_cells([0, 16, 1, 17, 2, 18])
    assert nat.forced_win(*masks(p), max_length=1)[:2] == (1, (3,))
    q = Position.from_cells([0, 16, 1, 17])
    assert nat.forced_win(*masks(q), max_length=1)[::3] == py.forced_win(*masks(q), max_length=1)[::3] == (0, 1)


def test_node_and_time_limits(dictionary_positions):
    hard = []
    for p in dictionary_positions:
        a, d = masks(p)
        n_nodes, p_nodes = nat.forced_win(a, d)[2], py.forced_win(a, d)[2]
        if min(n_nodes, p_nodes) > 3000:
            hard.append(p)
    assert hard
    for p in hard[:5]:
        a, d = masks(p)
        full = nat.forced_win(a, d)
        for core in (nat, py):
            length, seq, nodes, reached = core.forced_win(a, d, node_limit=50)
            assert (length, seq) == (-1, ()) and nodes == 51 and 1 <= reached < full[0]
            length, seq, nodes, reached = core.forced_win(a, d, time_limit=1e-9)
            assert (length, seq) == (-1, ()) and reached < full[0]
        # a limit that is not reached changes nothing
        assert nat.forced_win(a, d, node_limit=10**9, time_limit=60.0)[::3] == full[::3]


def test_searches_run_in_threads_at_once(dictionary_positions):
    queries = [masks(p) for p in dictionary_positions[:40]]
    expected = [nat.forced_win(a, d)[0] for a, d in queries]
    results: dict[int, list[int]] = {}

    def work(k: int) -> None:
        results[k] = [nat.forced_win(a, d)[0] for a, d in queries]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(results[k] == expected for k in range(4))


# ---------------------------------------------------------------- symmetry


def test_transforms_equal_python():
    for t in range(192):
        assert nat.transform(t) == symmetry.TRANSFORMS[t] == py.transform(t)


def _symmetric_positions(rng: random.Random, count: int) -> list[tuple[int, int]]:
    """Positions invariant under a random transform: the canonical tie rule matters."""
    out = []
    while len(out) < count:
        t = rng.randrange(192)
        cells = rng.sample(range(64), rng.randint(1, 6))
        x = o = 0
        for i, c in enumerate(cells):
            orbit = set()
            while c not in orbit:  # the cell's orbit under the powers of t
                orbit.add(c)
                c = symmetry.TRANSFORMS[t][c]
            bits = sum(1 << c for c in orbit)
            if (x | o) & bits:
                continue
            if i % 2:
                o |= bits
            else:
                x |= bits
        out.append((x, o))
    return out


def test_canonical_equals_python(prefixes):
    rng = random.Random(5)
    pairs = [(p.x, p.o) for p in prefixes[:600]]
    pairs += _symmetric_positions(rng, 300)
    pairs += [(0, 0), (1, 0), (1 << 63, 0), (FULL ^ 1, 0), (0x5555, 0xAAAA)]
    ties = 0
    for x, o in pairs:
        expected = symmetry.python_canonical_masks(x, o)
        assert nat.canonical(x, o) == expected == py.canonical(x, o) == symmetry.canonical_masks(x, o), (x, o)
        ties += sum(1 for t in range(192) if (symmetry.map_mask(t, x), symmetry.map_mask(t, o)) == expected[:2]) > 1
    assert ties >= 100  # the tie rule (lowest transform index) was exercised


@settings(max_examples=300, deadline=None)
@given(t=st.integers(0, 191), m=st.integers(0, FULL))
def test_map_mask_equals_python(t, m):
    assert nat.map_mask(t, m) == symmetry.map_mask(t, m) == py.map_mask(t, m)


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize("core", [nat, py], ids=["native", "python"])
@pytest.mark.parametrize(
    "args, match",
    [
        ((3, 6), "overlap at cells \\[1\\]"),
        ((-1, 0), "not a 64-bit cell mask"),
        ((0, 1 << 64), "not a 64-bit cell mask"),
    ],
)
def test_bad_masks(core, args, match):
    for name in (*SCANS, "forced_win"):
        with pytest.raises(ValueError, match=match):
            getattr(core, name)(*args)
    with pytest.raises(ValueError):
        core.threat_scan_batch([(0, 0), args])


@pytest.mark.parametrize("core", [nat, py], ids=["native", "python"])
def test_bad_options(core):
    with pytest.raises(ValueError, match="max_length"):
        core.forced_win(1, 2, max_length=-1)
    with pytest.raises(ValueError, match="time_limit"):
        core.forced_win(1, 2, time_limit=-1.0)
    with pytest.raises(ValueError, match="node_limit"):
        core.forced_win(1, 2, node_limit=-5)
    with pytest.raises(TypeError):
        core.threat_cells("1", 2)
    with pytest.raises(TypeError):
        core.forced_win(1, 2, max_length=1.5)
    with pytest.raises(TypeError):
        core.forced_win(1, 2, node_limit="many")
    with pytest.raises(ValueError, match="overlap"):
        core.canonical(1, 1)
    with pytest.raises(ValueError, match="out of range"):
        core.transform(192)
    with pytest.raises(ValueError, match="out of range"):
        core.map_mask(-1, 0)
    with pytest.raises(ValueError, match="pairs\\[1\\]"):
        core.threat_scan_batch([(0, 0), (1, 2, 3)])


def test_any_forced_win_finds_a_win_exactly_where_the_shortest_search_does(prefixes):
    """``any_forced_win`` (the first win of one depth-first pass) answers like ``forced_win`` on existence,
    and its sequence replays in the referee (no longer than the longest witness)."""
    wins = 0
    for p in prefixes[:400]:
        if p.winner or p.empty == 0:
            continue
        a, d = masks(p)
        length = nat.forced_win(a, d)[0]
        seq = nat.any_forced_win(a, d, 0)
        assert (seq is not None) == (length > 0), p
        if seq is not None:
            wins += 1
            assert replay_forced_win(p, tuple(seq)) >= length
    assert wins > 10


def test_any_forced_win_refuses_bad_input():
    with pytest.raises(ValueError, match="overlap|each cell"):
        nat.any_forced_win(1, 1, 0)
    with pytest.raises(ValueError, match="node_limit -1 is negative"):
        nat.any_forced_win(1, 2, -1)
    with pytest.raises(TypeError, match="takes 3 arguments"):
        nat.any_forced_win(1, 2)
