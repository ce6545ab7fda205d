"""``qubic play`` (a human game through tmux), ``qubic reply`` and ``qubic match``."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
import uuid

import pytest

from qubic_logic.cli import main
from qubic_logic.notation import parse_game
from qubic_logic.match import SeriesResult, cross_table, run_games, schedule
from qubic_logic.notation import format_cell, parse_cell
from qubic_logic.players import get_player
from qubic_logic.position import Position

# The seed's sample game (seed 004, L309-319): the human's moves; the HP-67 answers and wins.
ALAN = [".231", ".414", ".243", ".324", ".212", ".133", ".332", ".214", ".411", ".413"]
QUBIC = [sys.executable, "-m", "qubic_logic.cli"]


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


class Tmux:
    """A private tmux server running one command in a wide window."""

    def __init__(self, command: list[str]) -> None:
        self.socket = f"qubic-test-{uuid.uuid4().hex[:8]}"
        self._tmux("new-session", "-d", "-x", "160", "-y", "50", "-s", "play", " ".join(command))

    def _tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], check=True,
                              capture_output=True, text=True).stdout

    def send(self, text: str) -> None:
        self._tmux("send-keys", "-t", "play", "-l", text)
        self._tmux("send-keys", "-t", "play", "Enter")

    def screen(self) -> str:
        return self._tmux("capture-pane", "-t", "play", "-p", "-J", "-S", "-3000")

    def wait_for(self, text: str, timeout: float = 30.0, times: int = 1, at_end: bool = False) -> str:
        """The screen once ``text`` is on it ``times`` times (and, ``at_end``, is its last text)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            screen = self.screen()
            if screen.count(text) >= times and (not at_end or screen.rstrip().endswith(text.rstrip())):
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{text!r} did not appear; screen:\n{self.screen()}")

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, check=False)


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (make setup installs it)")
def test_human_game_in_tmux_ends_with_the_right_result_message(tmp_path):
    save = tmp_path / "game.txt"
    # keep the pane open after qubic exits so its last lines can be read
    term = Tmux(["sh", "-c", f"'{' '.join(QUBIC)} play --x human --o hp67 --notation hp67; sleep 30'"])
    try:
        term.wait_for("X (human) to move>")
        term.send("9x9")  # bad input: re-prompts with what is expected
        term.wait_for("is not a move or a command; expected a move (e.g. .222), undo, hint")
        term.send(ALAN[0])
        term.wait_for("O (hp67) plays .322")
        term.send("undo")
        term.send("hint")
        term.wait_for("X has no forced win by threat sequence")
        for move in ALAN[:-1]:
            term.send(move)
        term.send(f"save {save}")
        term.wait_for(f"saved 18 moves to {save}")
        term.send(ALAN[-1])
        screen = term.wait_for("wins on")
    finally:
        term.close()
    # an independent check of the result: replay the seed's game and ask the position
    moves = [parse_cell(m) for m in [".231", ".322", ".414", ".142", ".243", ".323", ".324", ".144", ".212", ".111", ".133", ".434", ".332", ".422", ".214", ".233", ".411", ".143", ".413", ".141"]]
    final = Position.from_cells(moves)
    line = " ".join(format_cell(c, "hp67") for c in final.winning_line)
    assert final.winner == "o"
    assert f"O (hp67) wins on {line} after 20 moves." in screen
    assert parse_game(save.read_text()).moves == moves[:18]


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (make setup installs it)")
def test_ctrl_c_leaves_the_game_with_its_moves(tmp_path):
    saved = tmp_path / "start.txt"
    saved.write_text("1-2,22\n")
    term = Tmux(["sh", "-c", f"'{' '.join(QUBIC)} play --x greedy --o human --load {saved}; sleep 30'"])
    try:
        term.wait_for("O (human) to move>")
        term._tmux("send-keys", "-t", "play", "C-c")
        screen = term.wait_for("game left after")
    finally:
        term.close()
    assert "game left after 3 moves (moves: 1-2,22)" in screen
    assert "Traceback" not in screen


def test_play_leaves_cleanly_at_end_of_input():
    done = subprocess.run([*QUBIC, "play", "--o", "greedy"], input="42x\n", capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert "expected a move" in done.stdout and "game left after 0 moves" in done.stdout


def test_play_engines_against_each_other_report_the_result():
    done = subprocess.run([*QUBIC, "play", "--x", "patashnik", "--o", "hp67"], capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert "X (patashnik) wins on" in done.stdout


def test_reply_json_is_the_players_choice(capsys):
    code, out, _ = run_cli(capsys, "reply", "hp67", ".231", "--json")
    reply = json.loads(out)
    expected = get_player("hp67").choose(parse_game(".231"))
    assert code == 0 and reply["move"] == expected.cell and reply["notation"] == "hp67"  # the input's
    assert reply["explanation"] == expected.explain("hp67") and reply["cell"] == ".322"
    assert format_cell(reply["move"], "hp67") == ".322"  # the seed's first answer


def test_reply_rejects_unknown_players_and_finished_games(capsys):
    code, _, err = run_cli(capsys, "reply", "nobody", "1,")
    assert code == 2 and "unknown player 'nobody'" in err
    code, _, err = run_cli(capsys, "reply", "greedy", "moves:0,16,1,17,2,18,3")
    assert code == 2 and "already over" in err


def test_match_processes_give_the_same_games_as_one_process():
    tasks = schedule("greedy", "random", 4, True, seed=3)
    one, stopped1 = run_games(tasks, jobs=1)
    two, stopped2 = run_games(tasks, jobs=2)
    assert stopped1 is None and stopped2 is None
    assert [(g.x, g.o, g.moves, g.result) for g in one] == [(g.x, g.o, g.moves, g.result) for g in two]
    result = SeriesResult("greedy", "random", one)
    wins = sum(g.result == ("x" if g.x == "greedy" else "o") for g in one)
    assert sum(result.score("greedy", s)[0] for s in ("x", "o")) == wins


def test_match_cli_saves_every_game(capsys, tmp_path):
    save = tmp_path / "games.json"
    code, out, _ = run_cli(capsys, "match", "hp67", "greedy", "--games", "3", "--swap-sides",
                           "--save", str(save))
    games = json.loads(save.read_text())["games"]
    assert code == 0 and len(games) == 3 and "hp67 v greedy: 3 games" in out
    for g in games:
        p = Position.from_cells(g["moves"])
        assert g["result"] == (p.winner or "draw")


def test_round_robin_cross_table_counts_every_game(capsys, tmp_path):
    table = tmp_path / "cross.md"
    code, out, _ = run_cli(capsys, "match", "--round-robin", "random", "greedy", "hp67",
                           "--games", "2", "--table", str(table))
    rows = [r for r in table.read_text().splitlines() if r.startswith("| **")]
    assert code == 0 and len(rows) == 3 and table.read_text() in out + "\n"
    totals = [tuple(map(int, r.rstrip(" |").rsplit("| ", 1)[1].split("-"))) for r in rows]
    assert all(sum(t) == 4 for t in totals)  # 2 opponents x 2 games as X
    assert cross_table([], ["a"]).count("\n") == 3  # head, rule, one row, the "as O" row


def test_board_highlights_the_last_move_and_both_sides_threats():
    from qubic_logic.cli._board import THREAT_STYLES, board_text
    from qubic_logic.core import threats
    from qubic_logic.geometry import cell_at

    p = Position.from_cells([0, 16, 1, 17, 2, 18])  # X threatens 3, O threatens 19
    text = board_text(p, "index", last=18)
    cell_spans = text.spans[1:]  # after the header: one span per cell, row by row across the levels
    order = [cell_at(x, y, z) for y in range(4) for z in range(4) for x in range(4)]
    style = {cell: str(span.style) for cell, span in zip(order, cell_spans, strict=True)}
    t = threats(p)
    assert (t.x, t.o) == (1 << 3, 1 << 19)
    assert THREAT_STYLES["x"] in style[3] and THREAT_STYLES["o"] in style[19]
    assert [c for c in range(64) if "reverse" in style[c]] == [18]
    assert not any("on " in style[c] for c in range(64) if c not in (3, 19))


def test_player_specs_carry_options(capsys):
    code, out, _ = run_cli(capsys, "reply", "mccarthy:depth=1", "1-2,22", "--json")
    assert code == 0 and "depth 1" in json.loads(out)["explanation"]
    code, _, err = run_cli(capsys, "reply", "mccarthy:deep=1", "1-2,22")
    assert code == 2 and "has no option 'deep'" in err


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (make setup installs it)")
def test_terminal_play_draws_the_board_once_a_turn_and_says_each_error_once(tmp_path):
    saved = tmp_path / "start.txt"
    saved.write_text("1-2,22\n")
    term = Tmux(["sh", "-c", f"'{' '.join(QUBIC)} play --o greedy; sleep 30'"])
    try:
        term.wait_for("X (human) to move> ")
        term.send("9x9")
        term.wait_for("'9x9' is not a move or a command; expected a move (e.g. 21)")
        term.send("21")
        term.wait_for("O (greedy) plays")
        term.send("21")
        term.wait_for("cell 21 is already taken by X")
        term.send(f"load {saved}")
        term.wait_for(f"loaded 3 moves from {saved} (moves: 1-2,22); O to move")
        term.wait_for("O (greedy) plays", times=2)  # its reply to the loaded game, then the board and prompt
        term.wait_for("X (human) to move> ", at_end=True)
        term.send(".444")  # a move in HP-67's notation: the board and answers follow it
        term.wait_for("O (greedy) plays .", times=1)
        screen = term.wait_for("X (human) to move> ", at_end=True)
    finally:
        term.close()
    lines = screen.splitlines()
    prompts = [i for i, line in enumerate(lines) if line.startswith("X (human) to move>")]
    boards = [i for i, line in enumerate(lines) if line.strip().startswith("level 1")]
    # one board before each prompt that follows a move: the start, after O's reply, after the load's reply,
    # after O's reply to .444 (a bad input or an illegal move draws none)
    assert len(boards) == 4
    assert all(lines[p].startswith("X (human) to move> ") for p in prompts)
    assert screen.count("is not a move or a command") == 1 and screen.count("already taken") == 1
    assert all(len(line) <= 160 for line in lines)
