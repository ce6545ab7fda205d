"""Players: legal moves everywhere, finished games, the seeds' own examples reproduced exactly."""

from __future__ import annotations

import random

import pytest

from qubic_logic.core import threats
from qubic_logic.geometry import LINE_MASKS
from qubic_logic.match import play_game
from qubic_logic.notation import format_cell, parse_cell
from qubic_logic.players import get_player, player_names
from qubic_logic.position import Game, Position
from qubic_logic.search import INFINITY, linemax, lisp_repr, treemax, valmax, valmin, vmax, vmin
from qubic_logic.tictactoe import PRINTED_EXAMPLES, TicTacToe, octal_repr

from .conftest import random_position


def generated_games(count: int, seed: int) -> list[Game]:
    """Random games of random length (not over), both sides to move."""
    rng = random.Random(seed)
    games = []
    while len(games) < count:
        g = Game()
        for _ in range(rng.randrange(0, 30)):
            g.play(rng.choice(g.position.legal_moves()))
            if g.position.is_over:
                break
        if not g.position.is_over:
            games.append(g)
    return games


@pytest.mark.parametrize("name", player_names())
def test_every_player_moves_legally_on_generated_positions(name):
    player = get_player(name)
    for g in generated_games(8, seed=len(name)):
        move = player.choose(g)
        assert move.cell in g.position.legal_moves(), (name, g.moves, move)
        assert isinstance(move.explanation, str) and move.explanation


@pytest.mark.parametrize("name", player_names())
def test_every_player_finishes_games_on_both_sides(name):
    for x, o in ((name, "random"), ("random", name)):
        record = play_game(x, o, seed=5)  # play_game checks every move's legality
        p = Position.from_cells(record.moves)
        assert p.is_over and record.result == (p.winner or "draw")


# -- greedy -------------------------------------------------------------------

def test_greedy_wins_else_blocks_else_takes_the_most_open_lines():
    greedy = get_player("greedy")
    for g in generated_games(40, seed=11):
        p = g.position
        me, t = p.to_move, threats(p)
        cell = greedy.choose(g).cell
        after = p.play(cell)
        if t.of(me):
            assert after.winner == me
        elif t.of("o" if me == "x" else "x"):
            assert t.of("o" if me == "x" else "x") >> cell & 1
        else:
            opp = p.mask("o" if me == "x" else "x")
            open_count = {c: sum(1 for lm in LINE_MASKS if lm >> c & 1 and not lm & opp)
                          for c in p.legal_moves()}
            assert open_count[cell] == max(open_count.values())


# -- hp67: the seed's sample game (seed 004, L309-319) --------------------------

ALAN = [".231", ".414", ".243", ".324", ".212", ".133", ".332", ".214", ".411", ".413"]
HP67 = [".322", ".142", ".323", ".144", ".111", ".434", ".422", ".233", ".143", "1.141"]


def test_hp67_reproduces_the_sample_game_move_for_move():
    player, game = get_player("hp67"), Game()
    for human, machine in zip(ALAN, HP67):
        game.play(parse_cell(human))
        move = player.choose(game)
        shown = format_cell(move.cell, "hp67")
        assert shown == machine.removeprefix("1"), (human, shown, move.explanation)
        # the calculator shows a winning reply as 1.zyx (L93): the explanation says it wins
        assert ("wins" in move.explanation) == machine.startswith("1")
        assert "." not in move.explanation  # cells are named by the notation asked for (index here)
        game.play(move.cell)
    assert game.position.winner == "o"


def test_hp67_as_x_opens_with_its_strategic_move():
    move = get_player("hp67").choose(Game())
    assert format_cell(move.cell, "hp67") == ".222"  # level 2, file 2, odd register: x = 2


# -- McCarthy: the seed's tic-tac-toe examples (seed 002, L984-1043) ------------

EXAMPLE_1, EXAMPLE_2 = PRINTED_EXAMPLES.values()


@pytest.mark.parametrize("moves, expected", [([2, 1], EXAMPLE_1), ([3, 1], EXAMPLE_2)])
def test_mccarthy_tictactoe_examples_exactly(moves, expected):
    # Example 1: board (O X _); Example 2: (O _ X) -- X moved first, X to move.
    t = TicTacToe(moves)
    assert octal_repr(linemax(t, t.p1, -1000, 1000)) == expected["line"]
    t = TicTacToe(moves)
    assert octal_repr(treemax(t, t.p1, -1000, 1000)) == expected["tree"]


def _minimax(board: tuple, to_move: str) -> int:
    """Independent plain minimax of 3x3 tic-tac-toe, value to X (win 1, loss -1)."""
    lines = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
    for a, b, c in lines:
        if board[a] != "." and board[a] == board[b] == board[c]:
            return 1 if board[a] == "x" else -1
    if "." not in board:
        return 0
    vals = [_minimax(board[:i] + (to_move,) + board[i + 1:], "o" if to_move == "x" else "x")
            for i in range(9) if board[i] == "."]
    return max(vals) if to_move == "x" else min(vals)


@pytest.mark.parametrize("moves", [[2, 1], [3, 1], [5, 1], [1, 5, 9, 2], [5], [1, 5, 9]])
def test_search_values_agree_in_sign_with_an_independent_minimax(moves):
    board = ["."] * 9
    for i, m in enumerate(moves):
        board[m - 1] = "xo"[i % 2]
    x_to_move = len(moves) % 2 == 0
    truth = _minimax(tuple(board), "x" if x_to_move else "o")
    sign = lambda v: (v > 0) - (v < 0)
    t = TicTacToe(moves)
    assert sign((valmax if x_to_move else valmin)(t, t.p1, -1000, 1000)) == truth
    t = TicTacToe(moves)
    assert sign((vmax if x_to_move else vmin)(t, t.p1)) == truth


def test_mccarthy_qubic_player_wins_when_it_can():
    mc = get_player("mccarthy")
    for g in generated_games(20, seed=3):
        t = threats(g.position)
        if t.of(g.position.to_move):
            assert g.position.play(mc.choose(g).cell).winner == g.position.to_move


def test_lisp_printer_shows_dotted_cutoff_pairs():
    from qubic_logic.search import ALPHA_CUTOFF, cons
    assert lisp_repr(cons(1, cons(2, ALPHA_CUTOFF))) == "(1 2 . ALPHA-CUTOFF)"


# -- solver and patashnik -------------------------------------------------------

def test_solver_starts_a_forced_win_that_replays():
    from qubic_logic.core import shortest_forced_win
    from qubic_logic.notation import parse_mcdaniel
    from qubic_logic.referee import replay_forced_win

    game = Game(parse_mcdaniel("1-2,22-52,27-4"))
    move = get_player("solver").choose(game)
    win = shortest_forced_win(game.position)
    assert "forcing sequence" in move.explanation
    assert move.cell == win.sequence[0]
    assert replay_forced_win(game.position, win.sequence) == win.length


def _patashnik_series(opponents: list[str], seeds: range) -> None:
    for name in opponents:
        for seed in seeds:
            record = play_game("patashnik", name, seed=seed)
            assert record.result == "x", (name, seed, record.moves)


def test_patashnik_as_x_wins_against_every_player():
    _patashnik_series([n for n in player_names() if n != "patashnik"], range(1))


@pytest.mark.slow
def test_patashnik_as_x_wins_every_game_of_a_fixed_series():
    _patashnik_series([n for n in player_names() if n != "patashnik"], range(1, 11))


def test_registry_lists_this_issues_players():
    assert {"random", "greedy", "hp67", "mccarthy", "patashnik", "solver"} <= set(player_names())


# -- the example scripts ----------------------------------------------------------

def _run_example(name: str) -> str:
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parent.parent / "examples" / name
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_example_scripts_reproduce_the_seeds():
    assert "10 of 10 replies as printed; winner: O" in _run_example("hp67_sample_game.py")
    text = _run_example("mccarthy_tictactoe.py")
    assert f"lmax[p1, -1000, 1000] = {EXAMPLE_1['line']}" in text
    assert f"tmax[p1, -1000, 1000] = {EXAMPLE_2['tree']}" in text


def test_mccarthy_ter_has_the_seeds_window_tests():
    """Seed 002 L853-866: ter also ends a line no win can lift past alpha (or drop below beta)."""
    from qubic_logic.players.mccarthy import WIN, Node, QubicSearch

    class NoWindow(QubicSearch):
        def ter(self, n, alpha, beta):
            return n.position.is_over or n.level >= self.depth

    search = QubicSearch(3)
    node = Node(Position(), None, 1)
    assert not search.ter(node, -1000, 1000)
    assert search.ter(node, WIN - 1, WIN)   # even a win next move (WIN - 2) cannot reach alpha
    assert search.ter(node, -WIN, -(WIN - 1))
    rng = random.Random(41)
    for _ in range(12):
        p = random_position(rng, rng.randint(6, 14))
        if p.is_over:
            continue
        root = Node(p, None, 0)
        run = valmax if p.to_move == "x" else valmin
        assert run(search, root, -INFINITY, INFINITY) == run(NoWindow(3), root, -INFINITY, INFINITY)
