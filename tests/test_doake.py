"""Doake's 1972 "Score 4" (seed 001): SEARCH, the backtrack analysis, the brain, ``qubic learn``."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from qubic_logic.bench.interrupts import ctrl_c_as_in_a_terminal
from qubic_logic.cli import main
from qubic_logic.errors import DataFormatError, QubicError
from qubic_logic.match import play_game
from qubic_logic.players import make_player
from qubic_logic.players.doake.appendix import interleave
from qubic_logic.players.doake.backtrack import analyse
from qubic_logic.players.doake.board import LINES, START, Board
from qubic_logic.players.doake.search import THREE, match, search
from qubic_logic.players.doake.select import Selector
from qubic_logic.players.doake.store import Brain
from qubic_logic.players.doake.tables import Tables
from qubic_logic.players.doake.train import train
from qubic_logic.position import Game

QUBIC = [sys.executable, "-m", "qubic_logic.cli"]

# Appendix Game 1 (L2240-2254): Red moves first and wins; squares 1..64.
GAME_1_RED = [39, 13, 4, 23, 16, 43, 48, 47, 64, 30]
GAME_1_WHITE = [1, 26, 42, 7, 27, 15, 8, 35, 32]


def board_of(computer: list[int], opponent: list[int]) -> Board:
    b = Board()
    for s in computer:
        b.put(s, 5)
    for s in opponent:
        b.put(s, 1)
    return b


def test_lines_follow_the_thesis_numbering_and_counts():
    assert LINES[1] == (1, 2, 3, 4) and LINES[76] == (4, 23, 42, 61)  # L506-508
    assert len(set(LINES[1:])) == 76
    assert START == (1, 4, 13, 16, 22, 23, 26, 27, 38, 39, 42, 43, 49, 52, 61, 64)  # L526


def test_search_finds_threes_first_own_before_blocking():
    # computer three on 1,2,3 (blank 4); opponent three on 17,18,19 (blank 20)
    found = search(board_of([1, 2, 3], [17, 18, 19]), Tables().test)
    assert (found.m1, found.m2, found.m3, found.line) == (4, THREE, THREE, 1)
    found = search(board_of([1, 6], [17, 18, 19]), Tables().test)
    assert (found.m1, found.m2, found.m3) == (20, 0, THREE)


def test_pattern_1_two_converging_twos_key_square():
    # 10 on line 1 (1,2 | 3,4 blank) and 10 on 4,7,10,13 (10,13 | 4,7 blank): they meet at blank 4
    b = board_of([1, 2, 10, 13], [])
    assert match(b, (10, 10, -1, -1, -1)) == 4
    assert match(b, (10, 10, -1, -1, -1), literal=True) == 0  # L1857 read literally: TEST3 = -1
    assert match(b, (2, 2, -1, -1, -1)) == 0  # the opponent's colours do not match


def test_game_1_teaches_pattern_2_in_both_colours_and_stops_at_47_8():
    cells = interleave(GAME_1_RED, GAME_1_WHITE)
    position = Game(cells).position
    assert position.winner == "x"
    tables = Tables()
    lesson = analyse(position, cells, "x", tables, game=1)
    # the thesis: Pattern 2, "10,5,10" for the winner, "2,1,2" in the opponent's colours
    assert lesson.test == [(10, 5, 10, -1, -1), (2, 1, 2, -1, -1)]
    assert tables.test[4:] == lesson.test and tables.ajust[4:] == [0, 0]
    assert lesson.stopping_pair == (47, 8)  # Red's 47 made the forcing pattern; White's 8 stays unplayed
    sn, row1, row2 = lesson.lines
    assert 30 in LINES[sn] and 64 in LINES[sn]  # the winning line
    assert {32, 64} <= set(LINES[row1]) and {35, 47} <= set(LINES[row2])  # the lines stopped by 32 and 35
    assert lesson.sutest is not None and tables.sutest == [lesson.sutest]
    # the thesis at move 7 (L2298): Red's 48 "forms one instance of Pattern 2 on square 8 (then
    # square 38) and another instance of Pattern 2 on square 47"; White's 8 stops the first
    board = lesson.analysed
    assert match(board, (10, 5, 10, -1, -1)) == 8
    board.put(8, 1)
    assert match(board, (10, 5, 10, -1, -1)) == 47
    # a second analysis of the same game finds it listed: nothing new
    again = analyse(position, cells, "x", tables, game=2)
    assert again.test == [] and again.already == 5 and len(tables.test) == 6


def test_loss_raises_ajust_of_a_known_opponent_pattern():
    cells = interleave(GAME_1_RED, GAME_1_WHITE)
    position = Game(cells).position
    tables = Tables()
    first = analyse(position, cells, "o", tables, game=1)  # White learns from its loss
    assert first.test == [(2, 1, 2, -1, -1), (10, 5, 10, -1, -1)] and first.sutest[0] % 5 == 0
    second = analyse(position, cells, "o", tables, game=2)
    assert second.ajust == [5] and tables.ajust[4] == 1


def test_learned_pattern_is_played_and_explained():
    cells = interleave(GAME_1_RED, GAME_1_WHITE)
    tables = Tables()
    lesson = analyse(Game(cells).position, cells, "x", tables)
    selector = Selector(tables)
    board = lesson.analysed
    board.put(8, 1)  # White's 8, the stopping pair's reply
    choice = selector.choose(board, own_moves=7)
    assert choice.square == 47 and choice.column == 5
    assert "pattern 10,5,10" in choice.why


def test_unknown_reading_is_refused():
    with pytest.raises(QubicError, match="reading=plausible or reading=literal"):
        make_player("doake:reading=wrong")


def test_doake_plays_complete_games_on_both_sides_with_a_seeded_first_move():
    a = play_game("doake", "greedy", seed=3)
    b = play_game("doake", "greedy", seed=3)
    assert a.moves == b.moves and a.moves[0] + 1 in START


def fresh(tmp_path, name="b.sqlite") -> str:
    return str(tmp_path / name)


def brain_contents(path: str) -> tuple[list, list]:
    with sqlite3.connect(path) as conn:
        return (conn.execute("SELECT * FROM patterns ORDER BY kind, col").fetchall(),
                conn.execute("SELECT * FROM games ORDER BY number").fetchall())


def test_learning_is_seeded_and_resumable(tmp_path, capsys):
    a, b, c = fresh(tmp_path, "a.sqlite"), fresh(tmp_path, "b.sqlite"), fresh(tmp_path, "c.sqlite")
    assert main(["learn", a, "--against", "greedy", "--games", "24", "--seed", "1"]) == 0
    assert main(["learn", b, "--against", "greedy", "--games", "24", "--seed", "1"]) == 0
    assert brain_contents(a) == brain_contents(b)
    patterns, games = brain_contents(a)
    assert len(games) == 24 and len(patterns) > 4  # it learned something
    # 10 games, then 14 more: the same brain as 24 in one run
    assert main(["learn", c, "--against", "greedy", "--games", "10", "--seed", "1"]) == 0
    assert main(["learn", c, "--against", "greedy", "--games", "14", "--seed", "1"]) == 0
    assert brain_contents(c) == brain_contents(a)
    capsys.readouterr()
    assert main(["learn", a, "--report"]) == 0
    out = capsys.readouterr().out
    assert "TEST" in out and "10,10" in out and "taught by game" in out


def replayed_tables(path: str) -> Tables:
    """The tables obtained by analysing the stored games again, from the rule book."""
    brain = Brain(path)
    tables = Tables()
    for g in brain.games():
        game = Game(g.moves)
        assert game.position.is_over  # every stored game is complete
        p = game.position
        analyse(p, g.moves, g.side if g.opponent != "self" else p.winner or g.side, tables, g.number)
    brain.close()
    return tables


def test_sigkill_mid_run_keeps_every_finished_game(tmp_path):
    path = fresh(tmp_path)
    proc = subprocess.Popen([*QUBIC, "learn", path, "--against", "greedy", "--games", "5000", "--seed", "2"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        count = 0
        while time.monotonic() < deadline and count < 15:
            time.sleep(0.2)
            if os.path.exists(path):
                try:
                    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
                        count = conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
                except sqlite3.OperationalError:
                    count = 0
        assert count >= 15, "training did not get going"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert proc.returncode == -signal.SIGKILL
    brain = Brain(path)
    stored = brain.tables()
    n = brain.game_count()
    brain.close()
    assert n >= 15
    # the stored tables are exactly what the stored games teach: no half-written pattern
    again = replayed_tables(path)
    assert [e.pattern for e in stored.tests] == again.test and stored.ajust == again.ajust
    assert [e.pattern for e in stored.sutests] == again.sutest
    # and training goes on from there
    assert main(["learn", path, "--against", "greedy", "--games", "2", "--seed", "2"]) == 0
    assert Brain(path).game_count() == n + 2


def test_a_corrupt_or_foreign_file_is_refused(tmp_path, capsys):
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all" * 100)
    with pytest.raises(DataFormatError, match="not an SQLite database"):
        Brain(str(junk))
    foreign = tmp_path / "foreign.sqlite"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE t (x)")
    with pytest.raises(DataFormatError, match="no meta table"):
        Brain(str(foreign))
    assert main(["learn", str(junk), "--report"]) == 2
    assert "not an SQLite database" in capsys.readouterr().err
    assert main(["learn", str(tmp_path / "missing.sqlite"), "--report"]) == 2
    assert "no brain at" in capsys.readouterr().err
    assert main(["match", f"doake:brain={junk}", "hp67"]) == 2
    assert main(["learn", str(tmp_path / "new.sqlite"), "--against", "nobody", "--games", "2"]) == 2
    assert "unknown player 'nobody'" in capsys.readouterr().err
    assert not (tmp_path / "new.sqlite").exists()  # nothing is created for a bad command


def test_match_and_reply_with_a_stored_brain(tmp_path, capsys):
    path = fresh(tmp_path)
    brain = Brain(path, create=True)
    train(brain, "greedy", 12, seed=1)
    brain.close()
    assert main(["match", f"doake:brain={path}", "hp67", "--games", "4", "--swap-sides"]) == 0
    assert "doake:brain=" in capsys.readouterr().out
    assert main(["reply", f"doake:brain={path}", "1-22,2"]) == 0
    assert "doake:brain=" in capsys.readouterr().out


def test_self_play_learns_from_the_winner(tmp_path):
    brain = Brain(fresh(tmp_path), create=True)
    summary = train(brain, "self", 6, seed=4)
    assert summary.played == 6 and brain.game_count() == 6
    assert all(g.opponent == "self" for g in brain.games())


@pytest.mark.skipif(__import__("shutil").which("tmux") is None, reason="tmux is not installed")
def test_play_against_a_stored_brain_in_the_terminal(tmp_path):
    from tests.test_play_cli import Tmux

    path = fresh(tmp_path)
    brain = Brain(path, create=True)
    train(brain, "greedy", 8, seed=1)
    brain.close()
    term = Tmux(["sh", "-c", f"'{' '.join(QUBIC)} play --x human --o doake:brain={path} --notation number; sleep 30'"])
    try:
        term.wait_for("X (human) to move>")
        term.send("22")
        screen = term.wait_for(f"O (doake:brain={path}) plays")
        term.send("quit")
        screen = term.wait_for("game left after 2 moves")
    finally:
        term.close()
    assert "Traceback" not in screen and "strong square" in screen


@pytest.fixture(scope="module")
def trained_tables() -> Tables:
    """Tables after 40 seeded games against greedy, and the positions they were played in."""
    from qubic_logic.players.doake.train import play_and_learn

    tables = Tables()
    positions = []
    for n in range(1, 41):
        game, _, _ = play_and_learn(tables, "greedy", n, 7)
        positions += [Game(game.moves[:k]).position for k in range(6, len(game.moves), 5)]
    tables.positions = positions  # type: ignore[attr-defined]
    return tables


def python_keys(tables: Tables, position) -> set[tuple[int, str, int]]:
    """(column, side, key cell) of every pattern the Python SEARCH matches, per side to move."""
    out = set()
    for side in ("x", "o"):
        board = Board.from_position(position, side)
        for column, pattern in enumerate(tables.test[4:], 5):
            key = match(board, pattern)
            if key:
                out.add((column, side, key - 1))
    return out


@pytest.mark.parametrize("language", ["asp", "prolog"])
def test_exported_rules_match_where_search_matches(tmp_path, trained_tables, language):
    from qubic_logic.engines import asp, prolog
    from qubic_logic.players.doake.export import write_rules

    path = tmp_path / ("brain.lp" if language == "asp" else "brain.pl")
    assert write_rules(trained_tables, str(path)) == len(trained_tables.test) - 4 > 4
    checked = 0
    for position in trained_tables.positions[::6]:
        if language == "asp":
            result = asp.solve("", [path], rules=["geometry"], position=position)
            keys = {(a.arguments[0].number, a.arguments[1].name, a.arguments[2].number)
                    for a in result.models[0] if a.name == "doake_pattern"}
        else:
            answers = prolog.query("doake_pattern(C, P, M)", [path], position=position)
            keys = {(b["C"], b["P"], b["M"]) for b in answers}
        found = python_keys(trained_tables, position)
        rule_columns = {(c, s) for c, s, _ in keys}
        # the same patterns match for the same sides, and SEARCH's key square is among the rules' keys
        assert {(c, s) for c, s, _ in found} == rule_columns
        assert found <= keys
        checked += bool(found)
    assert checked >= 3


def test_export_refuses_other_suffixes(tmp_path):
    from qubic_logic.players.doake.export import write_rules

    with pytest.raises(QubicError, match="ending in .lp"):
        write_rules(Tables(), str(tmp_path / "rules.txt"))


def test_curve_as_csv_png_and_svg(tmp_path, capsys):
    path = fresh(tmp_path)
    brain = Brain(path, create=True)
    train(brain, "greedy", 6, seed=1)
    results = [g.result for g in brain.games()]
    brain.close()
    for suffix in ("csv", "png", "svg"):
        assert main(["learn", path, "--curve", str(tmp_path / f"curve.{suffix}"), "--window", "3"]) == 0
    rows = (tmp_path / "curve.csv").read_text().splitlines()
    assert rows[0].startswith("game,opponent,side,result,win_rate_last_3") and len(rows) == 7
    assert [r.split(",")[3] for r in rows[1:]] == results
    assert (tmp_path / "curve.png").read_bytes()[:4] == b"\x89PNG"
    assert "<svg" in (tmp_path / "curve.svg").read_text()
    assert main(["learn", path, "--curve", str(tmp_path / "curve.gif")]) == 2
    assert "expected a file name ending in .png, .svg or .csv" in capsys.readouterr().err


PATTERN_1, PATTERN_2, PATTERN_3 = (10, 10, -1, -1, -1), (10, 5, 10, -1, -1), (10, 0, 10, 10, -1)


def game_1_board(plies: int, *red_trial: int) -> Board:
    from qubic_logic.players.doake.appendix import GAMES

    board = Board.from_position(Game(GAMES[0].cells()[:plies]).position, "x")  # Red's view
    for s in red_trial:
        board.put(s, 5)
    return board


@pytest.mark.parametrize("plies, trial, pattern, key, thesis", [
    (5, (23,), PATTERN_1, 7, "L2272: Red can form Pattern 1 by 23 (White then stops it on 7)"),
    (5, (55,), PATTERN_1, 7, "L2272: ... or 55"),
    (5, (45,), PATTERN_2, 42, "L2272: Pattern 2 by 45 (White pre-empts on 42)"),
    (9, (27,), PATTERN_1, 15, "L2282: Red's 27 would form Pattern 1 on 15"),
    (9, (27,), PATTERN_2, 8, "L2282: ... and Pattern 2 on 8 (then 38)"),
    (11, (), PATTERN_3, 15, "L2292: Red's 43 makes Pattern 3 on 15"),
    (13, (), PATTERN_2, 8, "L2298: Red's 48 forms Pattern 2 on 8 (then 38) ..."),
    (14, (), PATTERN_2, 47, "L2298: ... and another on 47"),
])
def test_game_1_commentary_checked_with_search(plies, trial, pattern, key, thesis):
    assert match(game_1_board(plies, *trial), pattern) == key, thesis


def test_appendix_games_replay_and_what_they_teach():
    from qubic_logic.players.doake.appendix import replay

    results = replay()
    for g, game, _ in results:
        winner = "x" if g.winner == g.first else "o"
        assert game.position.winner == winner, f"Game {g.number} ({g.lines})"
    lessons = [lesson for _, _, lesson in results]
    assert lessons[0].test == [PATTERN_2, (2, 1, 2, -1, -1)]
    # Games 2, 4 and 5 end in Pattern 2 again: already listed
    assert [lessons[i].already for i in (1, 3, 4)] == [5, 5, 5]
    assert lessons[2].pattern == (5, 0, 10, 5, 10) and lessons[2].stopping_pair == (4, 61)


def test_claim_rules_agree_with_the_native_core_on_a_short_run():
    from qubic_logic.claims.catalog import load_claims
    from qubic_logic.claims.declarative import run_prolog
    from qubic_logic.claims.runner import _rules_path, _use_path
    from qubic_logic.players.doake.claim import facts, figures, pattern_cases

    cases = pattern_cases(games=12)
    claim = load_claims()["doake-patterns-force"]
    computed = run_prolog([_rules_path(claim.rules["prolog"])], [_use_path(u, ".pl") for u in claim.uses],
                          "\n".join(facts(cases)) + "\n")
    native = figures(cases)
    assert native["cases"] == len(cases) > 10
    for name in ("cases", "holds", "fails", "fails_excepted", "fails_other"):
        assert computed[name] == native[name], name
    assert native["holds"] + native["fails"] == native["cases"] and native["holds"] > native["fails"]


@pytest.mark.slow
def test_claim_doake_patterns_force_prints_the_claim_and_holds_fails(capsys):
    assert main(["claims", "--only", "doake-patterns-force", "--format", "json"]) == 0
    import json

    (result,) = json.loads(capsys.readouterr().out)
    assert result["crosscheck_agrees"] is True and not result["error"]
    c = result["computed"]
    assert c["holds"] + c["fails"] == c["cases"] and c["fails"] == c["fails_excepted"] + c["fails_other"]
    assert main(["claims", "--only", "doake-patterns-force"]) in (0, 1)
    out = capsys.readouterr().out
    assert "doake-patterns-force" in out and "holds =" in out and "fails_other = 0" in out


def test_ctrl_c_stops_training_and_keeps_what_was_learned(tmp_path):
    path = fresh(tmp_path)
    proc = subprocess.Popen([*QUBIC, "learn", path, "--against", "greedy", "--games", "1000000"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=ctrl_c_as_in_a_terminal)
    deadline = time.monotonic() + 120
    count = 0
    while time.monotonic() < deadline and count < 3:
        time.sleep(0.2)
        try:
            with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
                count = conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        except sqlite3.OperationalError:
            pass
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()  # never leave a million games running
    assert proc.returncode == 130, err  # stopped by Ctrl-C: what it learned is kept, the status says it was stopped
    assert "stopped early" in err and "Traceback" not in err
    brain = Brain(path)
    assert brain.game_count() >= 3 and f"trained {brain.game_count()} games" in err


def test_the_literal_reading_misses_the_pattern_the_plausible_one_plays():
    cells = interleave(GAME_1_RED, GAME_1_WHITE)
    tables = Tables()
    board = analyse(Game(cells).position, cells, "x", tables).analysed
    board.put(8, 1)
    plausible = Selector(tables).choose(board, own_moves=7)
    literal = Selector(tables, literal=True).choose(board, own_moves=7)
    assert plausible.square == 47 and plausible.column == 5
    assert literal.column == 0 and "10,5,10" not in literal.why  # L1857 read as TEST3: 10,5,10 is unseen


def test_a_game_of_qubic_play_teaches_a_brain_with_learn_on(tmp_path, capsys):
    brain = tmp_path / "b.sqlite"
    for game in (1, 2):
        assert main(["play", "--x", f"doake:brain={brain},learn=on,seed={game}", "--o", "hp67"]) == 0
        assert f"learned from game {game} of {brain}" in capsys.readouterr().out
    store = Brain(str(brain))
    try:
        rows, stored = store.games(), store.tables()
    finally:
        store.close()
    assert [(r.number, r.opponent, r.side) for r in rows] == [(1, "hp67", "x"), (2, "hp67", "x")]
    expected = Tables()  # the same two games analysed into the rule book, in order
    for row in rows:
        lesson = analyse(Game(row.moves).position, row.moves, "x", expected, row.number)
        assert lesson.summary() == row.lesson
        assert row.result == ("win" if Game(row.moves).position.winner == "x" else "loss")
    assert stored.learned() == expected.learned()
    assert [t.pattern for t in stored.tests] == [t.pattern for t in expected.tests]
    for bad, message in [("doake:learn=on", "needs a brain"), (f"doake:brain={brain},learn=yes", "learn=on or"),
                         (f"doake:brain={tmp_path}/no/b.sqlite,learn=on", "does not exist")]:
        assert main(["play", "--x", bad, "--o", "greedy"]) == 2
        assert message in capsys.readouterr().err
