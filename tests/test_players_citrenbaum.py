"""Citrenbaum's three players (seed 000) and the planar analysis they share."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from qubic_logic.bitboard import major_cells, threat_cells
from qubic_logic.core import shortest_forced_win
from qubic_logic.geometry import LINE_MASKS, LINES, LINES_THROUGH, PLANE_MASKS, PLANES, mask_of
from qubic_logic.planes import PLANAR_FILES, PLANE_LINE_MASKS, excess, planar_force, watch_cells
from qubic_logic.players import get_player
from qubic_logic.players.citrenbaum_1107 import excess_planes, planar_offence
from qubic_logic.players.citrenbaum_general import opening, planar_threats
from qubic_logic.players.citrenbaum_pdp4 import SEVEN_FILE_CELLS, first_major_cell
from qubic_logic.position import Game, Position, other
from qubic_logic.referee import replay_forced_win

from .conftest import random_position

CITRENBAUM = ["citrenbaum-pdp4", "citrenbaum-1107", "citrenbaum-general"]


def _sides(p: Position) -> tuple[int, int]:
    me = p.to_move
    return p.mask(me), p.mask(other(me))


def _game_to(p: Position, rng: random.Random) -> Game:
    """A game whose move list reaches ``p`` (moves interleaved X, O)."""
    xs, os_ = [c for c in range(64) if p.x >> c & 1], [c for c in range(64) if p.o >> c & 1]
    rng.shuffle(xs)
    rng.shuffle(os_)
    moves = [m for pair in zip(xs, os_ + [None]) for m in pair if m is not None]
    return Game(moves)


def _positions(seed: int, count: int, lo: int = 6, hi: int = 30) -> list[Position]:
    rng = random.Random(seed)
    return [random_position(rng, rng.randint(lo, hi)) for _ in range(count)]


def _planar_sequence_wins(p: Position, sequence: tuple[int, ...]) -> int:
    """Replay a planar sequence (ending in a double threat) plus block and win in the referee."""
    a, d = _sides(p)
    for i, cell in enumerate(sequence):
        if i % 2 == 0:
            a |= 1 << cell
        else:
            d |= 1 << cell
    threats = threat_cells(a, d)
    block = (threats & -threats).bit_length() - 1
    win = (threats & ~(1 << block)).bit_length() - 1
    return replay_forced_win(p, (*sequence, block, win))


# --- the shared planar search -------------------------------------------------------------


def test_planar_files_are_citrenbaums_rows_columns_and_diagonals():
    first = PLANES[0]  # level 1: planar k is cell k - 1
    files = [sorted(first.index(c) + 1 for c in range(64) if lm >> c & 1) for lm in PLANAR_FILES[0]]
    assert files[0] == [1, 2, 3, 4] and files[4] == [1, 5, 9, 13]
    assert files[8] == [1, 6, 11, 16] and files[9] == [4, 7, 10, 13]  # Example 2 (L1705-1716)
    assert all(sorted(PLANAR_FILES[p]) == sorted(PLANE_LINE_MASKS[p]) for p in range(18))


@pytest.mark.parametrize(
    "cells, has_tfs, openings",
    [  # Citrenbaum App. II Table III, the legible rows (L2827-2864); planar cells
        ((1, 10, 11), True, {9, 16}),
        ((1, 10, 14), True, {6}),
        ((1, 10, 15), False, set()),
        ((1, 11, 14), False, set()),
        ((2, 6, 11), True, {1, 10}),
        ((2, 6, 15), False, set()),
        ((1, 7, 10), True, {4, 13}),
        ((1, 7, 16), True, {6, 11}),
        ((1, 8, 14), False, set()),
        ((2, 5, 11), False, set()),
    ],
)
def test_isolated_3_0_planes_match_citrenbaum_table_iii(cells, has_tfs, openings):
    x = mask_of(PLANES[0][k - 1] for k in cells)
    sequence = planar_force(x, 0, 0, isolated=True)
    assert (sequence is not None) == has_tfs
    if sequence:
        assert PLANES[0].index(sequence[0]) + 1 in openings


def test_excess_three_plane_count_of_tfs_classes_is_computed_not_40():
    """Citrenbaum: a TFS in "40 out of 77 cases" (L2537). Under our search it is 34 (docs/players.md)."""
    square = [(r, c) for r in range(4) for c in range(4)]
    maps = []
    for k in range(8):
        def f(rc, k=k):
            r, c = rc
            for _ in range(k % 4):
                r, c = c, 3 - r
            return (c, r) if k >= 4 else (r, c)
        maps.append([square.index(f(rc)) for rc in square])
    classes = {min(tuple(sorted(m[i] for i in t)) for m in maps) for t in combinations(range(16), 3)}
    assert len(classes) == 77  # "77 can be shown to be independent" (L2776)
    masks = [mask_of(PLANES[0][i] for i in t) for t in classes]
    wins = sum(planar_force(m, 0, 0, isolated=True) is not None for m in masks)
    assert 0 < wins < 77 and wins != 40


def test_planar_sequences_in_the_cube_are_real_forced_wins():
    checked = 0
    for p in _positions(11, 150, 8, 26):
        a, d = _sides(p)
        if threat_cells(a, d) or threat_cells(d, a):
            continue
        for plane in excess_planes(a, d, 2):
            for watch_moves in (False, True):
                sequence = planar_force(a, d, plane, watch_moves=watch_moves)
                if sequence is not None:
                    assert _planar_sequence_wins(p, sequence) == len(sequence) // 2 + 2
                    checked += 1
    assert checked > 10


def test_watch_cells_are_vacant_plane_cells_of_outside_2_0_files():
    for p in _positions(12, 40):
        a, d = _sides(p)
        for plane in range(18):
            expected = 0
            for c in PLANES[plane]:
                if (p.x | p.o) >> c & 1:
                    continue
                for i in LINES_THROUGH[c]:
                    lm = LINE_MASKS[i]
                    if lm & PLANE_MASKS[plane] != lm and not lm & d and (lm & a).bit_count() == 2:
                        expected |= 1 << c
            assert watch_cells(a, d, plane) == expected


# --- citrenbaum-pdp4 ------------------------------------------------------------------------


def test_first_major_cell_is_a_major_cell_exactly_when_there_is_one():
    for p in _positions(13, 200):
        a, d = _sides(p)
        cell = first_major_cell(a, d)
        majors = major_cells(a, d)
        assert (cell is None) == (majors == 0)
        if cell is not None:
            assert majors >> cell & 1


def _colt_as_listed(a: int, d: int) -> int | None:
    """The listing's loops, transcribed (seed 000 L4513-4531): TAB20 = the 2-0 files in file
    order; CTABLE = their FILECELLS, four per file, 0-terminated; QTABLE = CTABLE's entries not in
    the position; COLT: J=1, K=2; if QTABLE(J) = QTABLE(K) then RELATED else K=K+1; ... Cells are
    stored 1..64 as in the listing (0 ends a table)."""
    tab20 = [i for i, lm in enumerate(LINE_MASKS) if not lm & d and (lm & a).bit_count() == 2]
    ctable = [c + 1 for i in tab20 for c in LINES[i]] + [0]
    qtable = [c for c in ctable[:-1] if not a >> (c - 1) & 1] + [0, 0]
    j, k = 0, 1
    while qtable[k] > 0:
        if qtable[j] == qtable[k]:
            return qtable[j] - 1  # RELATED: NUMO = QTABLE(J)
        k += 1
        if qtable[k] > 0:
            continue
        j += 1
        k = j + 1
    return None


def test_pdp4_reply_is_the_colt_scan(capsys):
    """Must show: at moves:24,14,48,19,4,7,28,9,52,38 the PDP-4 plays what COLT gives."""
    from qubic_logic.cli import main
    from qubic_logic.notation import parse_position

    p = parse_position("moves:24,14,48,19,4,7,28,9,52,38")
    expected = _colt_as_listed(*_sides(p))
    assert main(["reply", "citrenbaum-pdp4", "moves:24,14,48,19,4,7,28,9,52,38"]) == 0
    assert capsys.readouterr().out.startswith(f"citrenbaum-pdp4 (X) plays {expected}: ")
    # The old rule (the cell whose second recording comes first) picks another major cell here.
    majors = major_cells(*_sides(p))
    assert majors >> expected & 1 and majors & ~(1 << expected)


def test_colt_tie_break_on_generated_positions():
    differs = 0
    for p in _positions(15, 400, 8, 30):
        a, d = _sides(p)
        assert first_major_cell(a, d) == _colt_as_listed(a, d)
        assert first_major_cell(d, a) == _colt_as_listed(d, a)
        differs += bin(major_cells(a, d)).count("1") > 1
    assert differs > 20  # the tie-break is exercised


@pytest.mark.parametrize("name", CITRENBAUM)
def test_elementary_order_win_block_own_pair(name):
    """Fig. 4.1 (a)-(c), shared by all three players once past the openings."""
    player = get_player(name, seed=3)
    seen = set()
    rng = random.Random(14)
    for p in _positions(14, 250, 8, 30):
        a, d = _sides(p)
        move = player.choose(_game_to(p, rng))
        assert not (p.x | p.o) >> move.cell & 1
        if threat_cells(a, d):
            assert p.play(move.cell).winner == p.to_move
            seen.add("win")
        elif threat_cells(d, a):
            assert threat_cells(d, a) >> move.cell & 1
            seen.add("block")
        elif major_cells(a, d):
            assert major_cells(a, d) >> move.cell & 1
            seen.add("pair")
    assert seen == {"win", "block", "pair"}


def test_pdp4_blocks_the_opponents_related_pair_else_presets():
    player = get_player("citrenbaum-pdp4", preset="seven-file")
    rng = random.Random(15)
    blocked = preset = 0
    for p in _positions(15, 250, 6, 24):
        a, d = _sides(p)
        if threat_cells(a, d) or threat_cells(d, a) or major_cells(a, d):
            continue
        move = player.choose(_game_to(p, rng))
        if major_cells(d, a):
            assert major_cells(d, a) >> move.cell & 1
            blocked += 1
        else:
            free = [c for c in SEVEN_FILE_CELLS if not (p.x | p.o) >> c & 1]
            rest = [c for c in range(64) if not (p.x | p.o) >> c & 1]
            assert move.cell == (free or rest)[0] and move.explanation == "preset move"
            preset += 1
    assert blocked and preset


def test_pdp4_concession_rules_only_change_the_explanation():
    # O has two 0-3 files (16-17-18 and 32-33-34); X to move, no 3-0 file of its own.
    game = Game([0, 16, 7, 17, 41, 32, 62, 33, 28, 18, 51, 34])
    assert not threat_cells(game.position.x, game.position.o)
    assert threat_cells(game.position.o, game.position.x).bit_count() == 2
    plain = get_player("citrenbaum-pdp4", seed=1).choose(game)
    conceding = get_player("citrenbaum-pdp4", seed=1, concede=True).choose(game)
    assert plain.cell == conceding.cell
    assert threat_cells(game.position.o, game.position.x) >> plain.cell & 1
    assert "rule 5a" in conceding.explanation and "concedes" not in plain.explanation


def test_pdp4_random_preset_is_repeatable_with_a_seed():
    first = [get_player("citrenbaum-pdp4", seed=7).choose(Game()).cell for _ in range(2)]
    assert first[0] == first[1]


# --- citrenbaum-1107 ------------------------------------------------------------------------


def test_1107_presets_the_first_four_plies():
    player = get_player("citrenbaum-1107")
    game = Game()
    for _ in range(4):
        move = player.choose(game)
        assert move.explanation == "preset move"
        game.play(move.cell)
    assert sorted(game.moves) == sorted(SEVEN_FILE_CELLS[:4])


def test_1107_starts_and_continues_planar_forces_that_win():
    player = get_player("citrenbaum-1107")
    rng = random.Random(16)
    started = 0
    for p in _positions(16, 300, 8, 28):
        a, d = _sides(p)
        if threat_cells(a, d) or threat_cells(d, a) or major_cells(a, d):
            continue
        found = planar_offence(a, d)
        if found is None:
            continue
        game = _game_to(p, rng)
        move = player.choose(game)
        plane, sequence = found
        assert move.cell == sequence[0] and f"plane {plane + 1}" in move.explanation
        assert shortest_forced_win(p).found  # an independent engine agrees X can force a win
        if len(sequence) > 2:  # the opponent blocks as planned: the stored force goes on
            game.play(sequence[0])
            game.play(sequence[1])
            assert player.choose(game).cell == sequence[2]
        started += 1
    assert started >= 3


def test_1107_blocks_the_opponents_planar_force_when_it_has_none():
    player = get_player("citrenbaum-1107")
    rng = random.Random(17)
    blocked = 0
    for p in _positions(17, 400, 8, 28):
        a, d = _sides(p)
        if threat_cells(a, d) or threat_cells(d, a) or major_cells(a, d) or major_cells(d, a):
            continue
        if planar_offence(a, d) is not None:
            continue
        theirs = planar_offence(d, a)
        if theirs is None:
            continue
        move = player.choose(_game_to(p, rng))
        assert move.cell == theirs[1][0] and move.explanation.startswith("blocks a possible force")
        blocked += 1
    assert blocked >= 3


def test_1107_try1_moves_to_an_xwatch_cell_of_an_excess_plane():
    player = get_player("citrenbaum-1107")
    rng = random.Random(18)
    tried = 0
    for p in _positions(18, 400, 6, 24):
        a, d = _sides(p)
        if threat_cells(a, d) or threat_cells(d, a) or major_cells(a, d) or major_cells(d, a):
            continue
        if planar_offence(a, d) or planar_offence(d, a):
            continue
        move = player.choose(_game_to(p, rng))
        if move.explanation.startswith("makes a 3-0 file"):
            planes = [q for q in excess_planes(a, d) if watch_cells(a, d, q) >> move.cell & 1]
            assert planes and excess(a, d, planes[0]) >= 1
            assert threat_cells(a | 1 << move.cell, d)  # it did make a 3-0 file
            tried += 1
    assert tried >= 3


# --- citrenbaum-general ---------------------------------------------------------------------


def test_general_openings():
    assert opening(Game()).cell in SEVEN_FILE_CELLS
    for first in SEVEN_FILE_CELLS:  # mirror image: on one of the opener's files, six new 1-0 files
        reply = opening(Game([first])).cell
        shared = set(LINES_THROUGH[first]) & set(LINES_THROUGH[reply])
        assert reply in SEVEN_FILE_CELLS and len(shared) == 1
    for first in (c for c in range(64) if c not in SEVEN_FILE_CELLS):
        reply = opening(Game([first])).cell
        assert reply in SEVEN_FILE_CELLS and not set(LINES_THROUGH[first]) & set(LINES_THROUGH[reply])


def test_general_offence_before_defence_and_both_sound():
    player = get_player("citrenbaum-general")
    rng = random.Random(19)
    started = defended = 0
    for p in _positions(19, 300, 8, 28):
        a, d = _sides(p)
        if threat_cells(a, d) or threat_cells(d, a) or major_cells(a, d):
            continue
        move = player.choose(_game_to(p, rng))
        mine = planar_threats(a, d)
        if mine:
            assert move.cell == mine[0][1][0] and move.explanation.startswith("starts")
            assert shortest_forced_win(p).found
            started += 1
        elif move.explanation.startswith("starts"):  # a plane-plane TFS
            assert shortest_forced_win(p).found
        elif major_cells(d, a):
            assert major_cells(d, a) >> move.cell & 1
        elif planar_threats(d, a):
            firsts = {seq[0] for _, seq in planar_threats(d, a)}
            assert move.cell in firsts
            defended += 1
        else:
            assert move.explanation.startswith(("builds", "preset"))
    assert started >= 3 and defended >= 3


@pytest.mark.parametrize("name", CITRENBAUM)
def test_games_finish_against_each_other_and_random(name):
    for opponent in ["random", *CITRENBAUM]:
        for x_name, o_name in ((name, opponent), (opponent, name)):
            game = Game()
            players = {"x": get_player(x_name, seed=5), "o": get_player(o_name, seed=6)}
            while not game.position.is_over:
                game.play(players[game.position.to_move].choose(game).cell)
            assert game.position.winner or game.position.is_draw


# --- the 1107's planar search order (seed 000 L5740-5768) ------------------------------------


def _cell20_as_listed(a: int, d: int, plane: int) -> list[int]:
    """The listing, transcribed: CELL20 from the planar files; then
    FOR I=1,4,13,16 DO FOR J=1..COUNT20 DO IF RCTABLE(I) EQL CELL20(J) THEN GO TO M7;
    M7: K=CELL20(1); R=CELL20(2); CELL20(1)=CELL20(J); N = J+1 if J is odd else J-1;
    CELL20(2)=CELL20(N); CELL20(J)=K; CELL20(N)=R (1-based)."""
    rctable = PLANES[plane]
    c20 = [0]  # 1-based
    for lm in PLANAR_FILES[plane]:
        if not lm & d and (lm & a).bit_count() == 2:
            c20 += [c for c in rctable if lm >> c & 1 and not a >> c & 1]
    for i in (1, 4, 13, 16):
        js = [j for j in range(1, len(c20)) if c20[j] == rctable[i - 1]]
        if js:
            j = js[0]
            k, r = c20[1], c20[2]
            c20[1] = c20[j]
            n = j + 1 if j % 2 == 1 else j - 1
            c20[2] = c20[n]
            c20[j], c20[n] = k, r
            break
    return c20[1:]


def _isolated_planes(seed: int, count: int):
    rng = random.Random(seed)
    for _ in range(count):
        cells = rng.sample(PLANES[0], rng.randint(4, 9))
        x, o = cells[: (len(cells) + 1) // 2 + 1], cells[(len(cells) + 1) // 2 + 1 :]
        yield mask_of(x), mask_of(o)


def test_cell20_is_the_listings_table_and_swap():
    from qubic_logic.planes import cell20

    for a, d in _isolated_planes(51, 600):
        assert cell20(a, d, 0) == _cell20_as_listed(a, d, 0)


def test_planar_search_tries_moves_in_cell20_order():
    """The first move of the found sequence is the first CELL20 cell (first occurrence) that
    leads to a force; every cell before it fails. Against the old order (all corners first)
    the first move differs in a few per cent of the planes with a force."""
    from qubic_logic.planes import new_threats

    def leads(a, d, move):
        threats = new_threats(a | 1 << move, d, move, PLANE_LINE_MASKS[0])
        if threats & (threats - 1):
            return True
        if not threats:
            return False
        a2, d2 = a | 1 << move, d | threats
        if new_threats(d2, a2, threats.bit_length() - 1, PLANE_LINE_MASKS[0]):
            return False
        return planar_force(a2, d2, 0, isolated=True) is not None

    forced = differs = 0
    for a, d in _isolated_planes(52, 600):
        found = planar_force(a, d, 0, isolated=True)
        order = list(dict.fromkeys(_cell20_as_listed(a, d, 0)))
        if found is None:
            continue
        forced += 1
        doubles = [m for m in order if _cell20_as_listed(a, d, 0).count(m) > 1]
        if doubles:  # M9: a related pair (a CELL20 entry that recurs) is taken first
            assert found == (doubles[0],)
            continue
        first = order.index(found[0])
        assert all(not leads(a, d, m) for m in order[:first])
        corners = [m for m in order if m in (PLANES[0][0], PLANES[0][3], PLANES[0][12], PLANES[0][15])]
        old = sorted(corners) + sorted(m for m in order if m not in corners)
        differs += next(m for m in old if leads(a, d, m)) != found[0]
    assert forced > 100 and differs > 0
