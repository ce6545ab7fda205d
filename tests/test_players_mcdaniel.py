"""McDaniel's player (seed 003): the seed's test vectors, WHIZ, GENEX/DENEM and the play loop."""

from __future__ import annotations

import random

import pytest

from qubic_logic.bitboard import threat_cells
from qubic_logic.cli import main
from qubic_logic.core import shortest_forced_win, threats
from qubic_logic.errors import QubicError
from qubic_logic.geometry import PLANES, mask_of
from qubic_logic.notation import format_cell, parse_mcdaniel
from qubic_logic.planes import PLANAR_PRIMES, planar_force
from qubic_logic.players import get_player
from qubic_logic.players.mcdaniel import CUBIC_PRIMES, planar_traps
from qubic_logic.players.stored_games import stored_games
from qubic_logic.players.whiz import Tables, Whiz, whiz
from qubic_logic.position import Game, Position, other
from qubic_logic.referee import replay_forced_win

from .conftest import random_position


def _position(text: str) -> Position:
    return Position.from_cells(parse_mcdaniel(text))


def _choose(text: str, disk: str = "on"):
    return get_player("mcdaniel", disk=disk).choose(Game(parse_mcdaniel(text) if text else []))


def _sides(p: Position) -> tuple[int, int]:
    return p.mask(p.to_move), p.mask(other(p.to_move))


def test_cubic_primes_are_mcdaniels_list():
    assert [c + 1 for c in CUBIC_PRIMES] == [1, 4, 13, 16, 22, 23, 26, 27, 38, 39, 42, 43, 49, 52, 61, 64]


def test_fixed_opening_1_then_22_or_13():
    assert _choose("").cell + 1 == 1
    assert _choose("1-22").cell + 1 == 13
    for reply in (2, 5, 43, 64):
        assert _choose(f"1-{reply}").cell + 1 == 22


def test_denem_chose_27_for_1_2_22_4():
    """L611: "For the situation 1-2,22-4 DENEM chose 27"; no forced win exists there."""
    assert whiz(*_sides(_position("1-2,22-4"))) is None
    assert not shortest_forced_win(_position("1-2,22-4")).found
    assert _choose("1-2,22-4", disk="off").cell + 1 == 27


def test_genex_generates_26_after_27_16_where_ml64_finds_no_solution():
    """L625: after 1-2,22-4,27-16 "ML64 reports no solution" and GENEX generates 26."""
    p = _position("1-2,22-4,27-16")
    assert whiz(*_sides(p)) is None and not shortest_forced_win(p).found
    move = _choose("1-2,22-4,27-16", disk="off")  # the program's own choice, before it was stored
    assert move.cell + 1 == 26 and move.explanation.startswith("DENEM")


def test_whiz_tables_after_xs_third_move_are_figure_27():
    """Figs. 26-27 (L673-699) for 1-2,22-4,27-3."""
    snapshots: list[Tables] = []

    def watch(t: Tables) -> None:
        if len(t.game) == 6 and not snapshots:
            snapshots.append(Tables(list(t.tknt), list(t.tpont), list(t.table), list(t.game)))

    p = _position("1-2,22-4,27-3")
    assert Whiz(*_sides(p), watch=watch).solve() is not None
    figure_27 = Tables([4, 2, 2], [1, 5, 7], [64, 43, 32, 17, 32, 17, 16, 48], [64, 43, 32, 17, 16, 48])
    assert snapshots == [figure_27]


LISTED_THIRD_O_MOVES = [  # L625: the O moves after 1-2,22-4,27 the same line beats
    3, 5, 7, 8, 9, 10, 12, 13, 14, 15, 18, 19, 20, 21, 23, 25, 26, 28, 29, 30, 31, 34, 35, 36,
    37, 39, 40, 41, 42, 45, 46, 47, 50, 51, 52, 53, 55, 56, 57, 58, 60, 61, 62, 63,
]


def test_the_ml64_line_wins_against_exactly_the_44_listed_replies():
    line = [c - 1 for c in (43, 64, 11, 59, 17, 32, 49, 33, 16, 38, 6)]
    beaten = []
    for o in range(1, 65):
        if o in (1, 2, 4, 22, 27):
            continue
        try:
            replay_forced_win(_position(f"1-2,22-4,27-{o}"), line)
        except QubicError:
            continue
        beaten.append(o)
    assert beaten == LISTED_THIRD_O_MOVES and len(beaten) == 44


def test_mcdaniel_starts_a_winning_force_after_27_3():
    p = _position("1-2,22-4,27-3")
    move = _choose("1-2,22-4,27-3", disk="off")
    assert move.explanation.startswith("WHIZ")
    solution = whiz(*_sides(p))
    assert solution[0] == move.cell
    assert replay_forced_win(p, solution) >= shortest_forced_win(p).length


def test_plane_17_blocking_lists_of_l288_and_l613_against_computation():
    """L288: O survives 1-2,22-52,27 only at 6,16,17,32,38,43,49,54,64.

    L613 lists 6,11,17,27,38,43,48,49,54,64 instead.
    Computed (WHIZ and the §3 engine agree): 54 does not save O (L288), nor do 11 and 48 (L613);
    27 is X's own cell. See docs/players.md.
    """
    saving_by_whiz, saving_by_engine = set(), set()
    for o in range(1, 65):
        if o in (1, 2, 22, 27, 52):
            continue
        p = _position(f"1-2,22-52,27-{o}")
        if whiz(*_sides(p)) is None:
            saving_by_whiz.add(o)
        if not shortest_forced_win(p).found:
            saving_by_engine.add(o)
    assert saving_by_whiz == saving_by_engine
    assert saving_by_engine == {6, 16, 17, 32, 38, 43, 49, 54, 64} - {54}


def test_whiz_agrees_with_the_forced_win_engine_on_generated_positions():
    rng = random.Random(31)
    found = 0
    for _ in range(150):
        p = random_position(rng, rng.randint(8, 24))
        search = Whiz(*_sides(p), time_limit=5.0)
        solution = search.solve()
        assert not search.timed_out
        engine = shortest_forced_win(p)
        assert (solution is not None) == engine.found
        if solution is not None:
            assert replay_forced_win(p, solution) >= engine.length
            found += 1
    assert found > 10


TABLE_IV = {  # McDaniel Table IV (L570-589): O's planar cells, X none
    "no two in a row": [(1, 7, 12), (1, 8, 14), (1, 8, 15), (2, 5, 12), (2, 8, 9)],
    "no solution": [(1, 2, 5), (1, 2, 12), (1, 2, 14), (1, 2, 15), (1, 4, 14), (1, 6, 12), (1, 8, 12),
                    (2, 3, 5), (2, 3, 14)],
    "forced win": [(1, 2, 6), (1, 2, 7), (1, 2, 8), (1, 2, 9), (1, 2, 10), (1, 2, 11), (1, 2, 13), (1, 2, 16),
                   (1, 4, 6), (1, 4, 13), (1, 7, 10)],
}


@pytest.mark.parametrize("category", list(TABLE_IV))
def test_planar_traps_are_exactly_table_iv_forced_wins(category):
    for cells in TABLE_IV[category]:
        o = mask_of(PLANES[0][k - 1] for k in cells)
        assert (planar_force(o, 0, 0, isolated=True) is not None) == (category == "forced win")
        assert (planar_traps(o, 0) == [0]) == (category == "forced win")


def test_the_1_4_13_trap_is_blocked_by_the_cells_of_l398():
    """L398: unless X takes 2, 3, 5, 6, 7, 9, 10, 11 or 16, O forces a win from 1, 4, 13."""
    o = mask_of(PLANES[0][k - 1] for k in (1, 4, 13))
    blocks = {k for k in range(1, 17) if k not in (1, 4, 13)
              and planar_force(o, 1 << PLANES[0][k - 1], 0, isolated=True) is None}
    assert blocks == {2, 3, 5, 6, 7, 9, 10, 11, 16}


def test_genex_blocks_a_planar_trap_with_a_planar_prime():
    # O: planar 1, 4, 13 of level 1 (cells 1, 4, 13); X far away on level 4, no lines of its own.
    game = Game(parse_mcdaniel("50-1,60-4,55-13"))
    p = game.position
    assert planar_traps(p.o, p.x) == [0] and not threat_cells(p.o, p.x)
    move = get_player("mcdaniel").choose(game)
    assert move.explanation.startswith("GENEX")
    assert PLANAR_PRIMES[0] >> move.cell & 1
    assert planar_traps(p.o, p.x | 1 << move.cell) == []


def test_priority_win_then_whiz_then_block():
    rng = random.Random(32)
    player = get_player("mcdaniel", disk="off")
    seen = set()
    for _ in range(300):
        p = random_position(rng, rng.randint(6, 26))
        a, d = _sides(p)
        xs = [c for c in range(64) if p.x >> c & 1]
        os_ = [c for c in range(64) if p.o >> c & 1]
        moves = [m for pair in zip(xs, os_ + [None]) for m in pair if m is not None]
        if len(moves) < 3:
            continue
        move = player.choose(Game(moves))
        assert not (p.x | p.o) >> move.cell & 1
        if threat_cells(a, d):
            assert p.play(move.cell).winner == p.to_move
            seen.add("win")
        elif shortest_forced_win(p).found:
            assert move.explanation.startswith("WHIZ")
            seen.add("whiz")
        elif threat_cells(d, a):
            assert threat_cells(d, a) >> move.cell & 1
            seen.add("block")
        else:
            assert move.explanation.startswith(("GENEX", "DENEM"))
            seen.add("genex")
    assert seen == {"win", "whiz", "block", "genex"}


def test_mcdaniel_keeps_playing_its_solution():
    game = Game(parse_mcdaniel("1-2,22-4,27-3"))
    player = get_player("mcdaniel")
    while not game.position.is_over:
        move = player.choose(game)
        game.play(move.cell)
        if game.position.is_over:
            break
        threats = threat_cells(game.position.x, game.position.o)
        game.play((threats & -threats).bit_length() - 1)  # O blocks
    assert game.position.winner == "x"


@pytest.mark.parametrize("opponent", ["random", "citrenbaum-pdp4", "citrenbaum-general"])
def test_games_finish_on_both_sides(opponent):
    for x_name, o_name in (("mcdaniel", opponent), (opponent, "mcdaniel")):
        game = Game()
        players = {"x": get_player(x_name, seed=2), "o": get_player(o_name, seed=3)}
        while not game.position.is_over:
            cell = players[game.position.to_move].choose(game).cell
            assert game.position.at(cell) == "."
            game.play(cell)
        assert game.position.winner or game.position.is_draw


# --- the disk: Appendix C's stored games (seed 003 L715-721, L1069-1395) ---------------------


def test_reply_after_27_3_is_43_from_the_stored_games(capsys):
    """Fig. 24 (L654) and the first Appendix C record (L1073): after 1-2,22-4,27-3 X plays 43."""
    from qubic_logic.cli import main

    assert main(["reply", "mcdaniel", "1-2,22-4,27-3", "--notation", "number"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("mcdaniel (X) plays 43: from the stored games")
    assert "43-64,11-59,17-32,49-33,16-38,6 (a win in 6 moves)" in out
    assert main(["reply", "mcdaniel:disk=off", "1-2,22-4,27-3", "--notation", "lrc"]) == 0
    out = capsys.readouterr().out
    whiz_first = whiz(*_sides(_position("1-2,22-4,27-3")))[0]
    assert out.startswith(f"mcdaniel:disk=off (X) plays {format_cell(whiz_first, 'lrc')}: WHIZ: starts a forced win")


def test_disk_switch_rejects_other_values():
    with pytest.raises(QubicError, match="expected disk=on or disk=off"):
        get_player("mcdaniel", disk="maybe")


def test_every_stored_game_is_replayed_move_for_move_as_x():
    """With the disk on, the player as X reproduces each stored game, except where an
    earlier game asks for another move after the same moves (the first found wins)."""
    games = stored_games()
    first: dict[tuple[int, ...], int] = {}
    for g in games:
        for i in range(0, len(g.moves), 2):
            first.setdefault(g.moves[:i], g.moves[i])
    reproduced = conflicting = 0
    for g in games:
        player = get_player("mcdaniel")
        same = all(player.choose(Game(list(g.moves[:i]))).cell == g.moves[i] for i in range(0, len(g.moves), 2))
        agrees = all(first[g.moves[:i]] == g.moves[i] for i in range(0, len(g.moves), 2))
        assert same == agrees
        reproduced += same
        conflicting += not agrees
    assert reproduced + conflicting == len(games) == 1274
    assert conflicting == 0  # O's 24 listed twice (L1089 and L1092, L1154 and L1157): the first breaks rule 2


def test_stored_force_counts_down():
    game = Game(parse_mcdaniel("1-2,22-4,27-3"))
    player = get_player("mcdaniel", disk="off")
    counts = []
    while not game.position.is_over:
        move = player.choose(game)
        counts.append(int(move.explanation.split("a win in ")[1].split()[0]))
        game.play(move.cell)
        if game.position.is_over:
            break
        threats = threat_cells(game.position.x, game.position.o)
        game.play((threats & -threats).bit_length() - 1)
    assert counts == list(range(counts[0], 0, -1)) and counts[0] > 1


@pytest.mark.parametrize("before", ["1-2,22-4,27-17", "1-2,22-4,27-32"])
def test_genex_plays_appendix_c_26_after_27_17_and_27_32(before):
    """Appendix C (L1201, L1220): no WHIZ solution there, and the program played 26."""
    p = _position(before)
    assert whiz(*_sides(p)) is None
    move = _choose(before, disk="off")
    assert move.cell + 1 == 26 and move.explanation.startswith("DENEM")


def test_the_disk_keeps_only_games_that_win_when_they_can_and_block_threes():
    """Rules (1)-(2) hold in every stored game; the five dropped games each break one."""
    from qubic_logic.players.stored_games import appendix_games, respects_rules

    for g in stored_games():
        p = Position()
        for i, cell in enumerate(g.moves):
            if i % 2 == 0:
                t = threats(p)
                if t.x:
                    assert t.x >> cell & 1, (g.line, i)
                elif t.o:
                    assert t.o >> cell & 1, (g.line, i)
            p = p.play(cell)
    dropped = [g for g in appendix_games() if not respects_rules(g.moves)]
    assert sorted(g.line for g in dropped) == [1089, 1154, 1263, 1391, 1391]
    assert len(appendix_games()) - len(stored_games()) == len(dropped)


def test_the_l1220_record_reads_52_for_42_and_all_its_games_replay():
    from qubic_logic.seeds.excerpts import appendix_c, record_games
    from qubic_logic.players.stored_games import OCR_CORRECTIONS, appendix_games

    record = next(r for r in appendix_c() if r.line == 1220)
    printed = [[abs(c) - 1 for c, _ in game] for game in record_games(record)]
    assert len(printed) == 38 and sum(41 in g[::2] for g in printed) == 38  # X's 42 as printed
    assert sum(g[7] == 41 for g in printed) == 1  # ... and O's 42 among the alternatives
    kept = [g for g in appendix_games() if g.line == 1220]
    assert len(kept) == 38 and all(51 in g.moves[::2] and 41 not in g.moves[::2] for g in kept)
    assert OCR_CORRECTIONS == {(1222, 42): 52}


def test_reply_blocks_o_three_where_a_dropped_record_ignored_it(capsys):
    """1-2,22-4,27-6,26-24,43-64: O threatens 44 (4-24-44-64); L1089's record played 9."""
    assert main(["reply", "mcdaniel", "1-2,22-4,27-6,26-24,43-64", "--notation", "number"]) == 0
    assert capsys.readouterr().out.strip() == "mcdaniel (X) plays 44: blocks a three in a row at 44"


def test_mcdaniel_with_its_disk_is_verified_from_the_position_it_used_to_lose():
    from qubic_logic.notation import root_of
    from qubic_logic.strategy.judge import judge
    from qubic_logic.strategy.sources import load_strategy

    position, moves = root_of("1-2,22-4,27-6,26-24")
    strategy = load_strategy("player:mcdaniel")
    try:
        verdict = judge(strategy, position, root_moves=moves, side="x", pure=True)
    finally:
        strategy.close()
    assert verdict.verdict == "verified"
