"""For a class: review, two-sided analysis, hints that warn, lessons, the daily puzzle, ratings, the 404 page.

Every expected value is computed by the engines (the native core's forced-win
search, Patashnik's dictionary), never written down by hand.
"""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from datetime import date

from pathlib import Path

import pytest

from qubic_logic.analysis import defences, win_of
from qubic_logic.core import shortest_forced_win
from qubic_logic.lessons import answer as lesson_answer, lesson, lesson_names
from qubic_logic.match import play_game
from qubic_logic.notation import parse_game, parse_position
from qubic_logic.players import player_names
from qubic_logic.position import Position
from qubic_logic.puzzles import daily, length_after
from qubic_logic.ratings import GROUPS, rate, shipped_ratings
from qubic_logic.review import review
from qubic_logic.server import create_app
from qubic_logic.strategy import patashnik_dictionary

from .docpages import console_examples

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

TRAP = "1-2,22-52,27"  # X threatens McDaniel's six-move win in plane 17
MISSED = "1-2,22-52,27-4,10"  # O's 4 allows it, X's 10 misses it


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(workers=2), raise_server_exceptions=False) as c:
        yield c


def qubic(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "qubic_logic.cli", *args], capture_output=True, text=True)


# ------------------------------------------------------------------ review


def test_review_flags_the_allowed_and_the_missed_win_with_the_engines_lines():
    game = parse_game(MISSED)
    reviewed = review(game)
    before_o, before_x = (Position.from_cells(game.moves[:n]) for n in (5, 6))
    assert shortest_forced_win(before_x).length == 6
    assert "allowed" in reviewed[5].tags and reviewed[5].better in defences(before_o)
    assert "missed" in reviewed[6].tags and reviewed[6].better == shortest_forced_win(before_x).sequence[0]
    assert "check" in reviewed[4].tags  # X 27 sets the trap
    assert reviewed[0].tags == ("strategic",)  # Patashnik's corner


def test_review_marks_the_only_move_and_the_win():
    # X has three in a row on level 1: O's one block is the only move; X's four completes the game.
    reviewed = review(parse_game("moves:0,16,1,17,2,3,21,48,42,63,5,40,37"))
    assert "only" in reviewed[5].tags and "block" in reviewed[5].tags
    game = parse_game("moves:0,16,1,17,2,18,3")
    assert review(game)[-1].tags == ("wins",)


def test_qubic_review_prints_each_move_and_json():
    out = qubic("review", MISSED, "--notation", "number")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[6].startswith("  7. X 10: misses the forced win in 6") and "[missed]" in lines[6]
    assert lines[-1] == "X: 1 missed, 0 allowed; O: 0 missed, 1 allowed"
    data = json.loads(qubic("review", MISSED, "--json").stdout)
    assert [m["tags"] for m in data["moves"]][5:] == [["allowed"], ["missed"]]
    bad = qubic("review", "1-2,1")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "already taken" in bad.stderr


def test_the_review_example_of_docs_playing_md_is_what_qubic_review_prints():
    text = (Path(__file__).parent.parent / "docs" / "playing.md").read_text()
    [(command, shown)] = console_examples(text)["review"]
    assert qubic(*command.split()[1:]).stdout == shown


def test_review_api_matches_the_library(client):
    r = client.post("/api/review", json={"text": MISSED, "notation": "number"})
    assert r.status_code == 200
    assert [m["text"] for m in r.json()["moves"]] == [m.text("number") for m in review(parse_game(MISSED))]
    assert r.json()["summary"]["x"]["missed"] == 1


# ------------------------------------------------------------------ analysis and hint


def test_analysis_shows_both_sides_and_the_defences(client):
    r = client.post("/api/analysis", json={"text": TRAP}).json()
    p = parse_position(TRAP)
    assert r["to_move"] == "o" and r["x"]["win_length"] == win_of(p, "x").length == 6
    assert r["x"]["plane"] == 17 and r["o"]["win_length"] is None
    assert r["defences"] == defences(p) and all(win_of(p.play(c), "x").length is None for c in r["defences"])


def test_hint_warns_o_of_the_plane_17_trap_and_names_a_move_that_stops_it(client):
    h = client.post("/api/hint", json={"text": TRAP, "notation": "number"}).json()
    assert "O has no forced win" in h["text"]
    assert "X threatens a forced win in 6 moves in plane 17" in h["text"]
    assert h["threat_length"] == 6 and h["defences"] == defences(parse_position(TRAP))
    assert f"play {h['defences'][0] + 1} to stop it" in h["text"]


# ------------------------------------------------------------------ lessons


@pytest.mark.parametrize("name", lesson_names())
def test_every_lesson_exercise_is_what_it_says(name):
    for ex in lesson(name)["exercises"]:
        p = parse_position(ex["position"])
        if ex["kind"] == "win":
            assert shortest_forced_win(p).length == ex["moves"], ex
        elif ex["kind"] == "defend":
            them = "o" if p.to_move == "x" else "x"
            assert win_of(p, them).length is not None and defences(p), ex
        else:
            assert patashnik_dictionary().move_for(p) is not None, ex


def test_a_lesson_answer_is_judged_by_the_engines(client):
    names = lesson_names()
    assert len(names) >= 6 and any("planar" in n for n in names)
    trap = next(n for n in names if "planar" in n)
    p = parse_position(TRAP)
    good, bad = defences(p)[0], next(c for c in p.legal_moves() if c not in defences(p))
    ok = client.post("/api/lessons/answer", json={"lesson": trap, "exercise": 0, "position": TRAP, "move": str(good)})
    assert ok.json()["verdict"] == "solved"
    no = client.post("/api/lessons/answer", json={"lesson": trap, "exercise": 0, "position": TRAP, "move": str(bad)})
    assert no.json()["verdict"] == "wrong" and "still wins by force" in no.json()["explanation"]
    assert lesson_answer({"kind": "strategic"}, parse_position("empty"), 1, 63).verdict == "solved"  # a corner
    assert lesson_answer({"kind": "strategic"}, parse_position("empty"), 1, 1).verdict == "wrong"
    missing = client.get("/api/lessons/nope")
    assert missing.status_code == 422 and "unknown lesson" in missing.json()["error"]
    assert no.json()["explanations"]["number"] == lesson_answer(lesson(trap)["exercises"][0], p, 1, bad,
                                                                "number").explanation


def test_a_lesson_s_cells_are_written_in_the_reader_s_notation(client):
    """The plane-17 lesson writes McDaniel's line and cells in braces: each reader gets them in their notation."""
    trap = next(n for n in lesson_names() if "planar" in n)
    raw = " ".join(lesson(trap)["paragraphs"])
    assert "{17-32,43-64,11-59,16-6,49-33,38}" in raw
    line = parse_game("1-2,22-52,27-4,17-32,43-64,11-59,16-6,49-33,38").moves[6:]
    pages = {f: client.get(f"/api/lessons/{trap}", params={"notation": f}).json() for f in ("number", "index", "lrc")}
    assert "`17-32,43-64,11-59,16-6,49-33,38`" in " ".join(pages["number"]["paragraphs"])
    assert f"`{' '.join(map(str, line))}`" in " ".join(pages["index"]["paragraphs"])
    assert "cell 15, a planar prime" in " ".join(pages["index"]["paragraphs"])
    assert pages["index"]["exercises"][1]["prompt"].startswith("O played 3 and")
    assert pages["lrc"]["exercises"][1]["prompt"].startswith("O played 114 and")
    assert all("{" not in t for page in pages.values() for t in page["paragraphs"])
    bad = client.get(f"/api/lessons/{trap}", params={"notation": "roman"})
    assert bad.status_code == 422 and "notation" in bad.json()["error"]


# ------------------------------------------------------------------ puzzles


def test_the_daily_puzzle_is_the_same_for_a_date_and_wins_in_its_length(client):
    day = date(2026, 3, 2)
    one = client.get("/api/puzzles/daily", params={"date": day.isoformat()}).json()
    two = client.get("/api/puzzles/daily", params={"date": day.isoformat()}).json()
    assert one == two and one["date"] == "2026-03-02" and one["position"]
    q = daily(day)
    assert shortest_forced_win(q.position).length == q.length == one["length"]
    assert client.get("/api/puzzles/daily", params={"date": "2026-02-30"}).status_code == 422


def test_puzzles_include_wins_in_one_and_the_answer_names_the_next_winning_moves(client):
    r = client.post("/api/puzzles", json={"count": 3, "seed": 4, "min_length": 1, "max_length": 1}).json()
    assert r["puzzles"] and all(q["length"] == 1 for q in r["puzzles"])
    q = r["puzzles"][0]
    solved = client.post("/api/puzzles/answer", json={"position": q["position"], "left": 1,
                                                      "move": str(q["solutions"][0])}).json()
    assert solved["verdict"] == "solved" and not solved["explanation"].endswith("solved")
    p = parse_position("1-2,22-52,27-4")
    step = client.post("/api/puzzles/answer", json={"position": "1-2,22-52,27-4", "left": 6, "move": "16"}).json()
    after = p.play(16).play(step["reply"])
    assert step["verdict"] == "continue" and step["solutions"]
    assert all(length_after(after, m, 5)[0] == 5 for m in step["solutions"])


# ------------------------------------------------------------------ ratings, pages


def test_ratings_order_players_by_their_results():
    games = [play_game(a, b, seed=s) for s in range(4) for a, b in (("greedy", "random"), ("random", "greedy"))]
    table = rate(games, bootstrap=30, seed=1)
    assert [r.name for r in table] == ["greedy", "random"]
    greedy = table[0]
    assert greedy.score == sum(g.result != "draw" and getattr(g, g.result) == "greedy" for g in games)
    assert greedy.low == greedy.elo == greedy.high == 1000 and table[1].low <= table[1].elo <= table[1].high


def test_the_shipped_ratings_cover_every_player_and_name_their_command():
    data = shipped_ratings()
    assert sorted(r["name"] for r in data["ratings"]) == sorted(player_names())
    assert data["command"].startswith("qubic match --round-robin --games ") and "--seed" in data["command"]
    groups = [g for g, _ in GROUPS]
    assert all(r["group"] in groups and r["low"] <= r["elo"] <= r["high"] for r in data["ratings"])


def test_unknown_pages_are_a_friendly_page_and_api_paths_stay_json(client):
    page = client.get("/no/such/page")
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert "No page here" in page.text and 'href="/"' in page.text
    api = client.get("/api/no-such-thing")
    assert api.status_code == 404 and api.json()["error"] == "Not Found"
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
    home = client.get("/")
    assert home.status_code == 200 and "four in a row" in home.text and "/lessons" in home.text


def test_a_round_robin_s_ratings_file_is_reproduced_by_its_own_command(tmp_path):
    first, again = tmp_path / "a.json", tmp_path / "b.json"
    out = qubic("match", "--round-robin", "--games", "3", "random", "greedy", "hp67", "--seed", "2",
                "--bootstrap", "20", "--ratings", str(first))
    assert out.returncode == 0, out.stderr
    assert "Ratings from 3 game(s) per ordered pair (6 per pair):" in out.stdout
    command = json.loads(first.read_text())["command"]
    assert command.startswith("qubic match --round-robin --games 3 --seed 2")
    rerun = qubic(*command.replace("FILE", str(again)).split()[1:])
    assert rerun.returncode == 0, rerun.stderr
    assert json.loads(again.read_text()) == json.loads(first.read_text())
