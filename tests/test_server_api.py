"""The JSON API of ``qubic serve``: answers computed by the library, errors as 4xx JSON, never a 5xx."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
import threading
import time
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qubic_logic.cli import main
from qubic_logic.core import shortest_forced_win, threats
from qubic_logic.forcegraph import fold_forced, force_graph
from qubic_logic.forcetree import edge_moves, force_tree
from qubic_logic.geometry import cells_of
from qubic_logic.notation import parse_game
from qubic_logic.notation import CELL_FORMS, format_position, parse_cell, parse_position
from qubic_logic.players import make_player
from qubic_logic.puzzles import answer, length_after
from qubic_logic.render.view import principal_variation
from qubic_logic.server import create_app
from qubic_logic.server.runner import CallTimeout, Runner
from qubic_logic.strategy import patashnik_dictionary

with warnings.catch_warnings():  # starlette's test client asks for httpx2; httpx is what the project uses
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

POSITION = "1-2,22-52,27-4"
ALAN = [".231", ".414", ".243", ".324", ".212", ".133", ".332", ".214", ".411", ".413"]
HP67 = [".322", ".142", ".323", ".144", ".111", ".434", ".422", ".233", ".143", ".141"]


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(workers=2), raise_server_exceptions=False) as c:
        yield c


def post(client, path: str, body) -> tuple[int, dict]:
    r = client.post("/api/" + path, json=body)
    return r.status_code, r.json()


def events(text: str) -> list[tuple[str, dict]]:
    """The server-sent events of a response body."""
    found = [(re.search(r"^event: (.*)$", block, re.MULTILINE),
              re.search(r"^data: (.*)$", block, re.MULTILINE)) for block in text.strip().split("\n\n")]
    return [(kind.group(1), json.loads(data.group(1))) for kind, data in found]


# ------------------------------------------------------------------ answers


def test_show_and_threats_are_the_library_s(client):
    p = parse_position(POSITION)
    status, b = post(client, "show", {"position": POSITION})
    assert status == 200 and b["qubic"] == format_position(p) and b["x"] == cells_of(p.x)
    assert b["to_move"] == "x"
    status, t = post(client, "threats", {"position": "moves:0,16,1,17,2"})
    assert t["x"]["threats"] == cells_of(threats(parse_position("moves:0,16,1,17,2")).x) == [3]


@pytest.mark.parametrize("engine", ["asp", "prolog", "native", "python"])
def test_every_engine_says_x_wins_in_6(client, engine):
    status, w = post(client, "win", {"position": POSITION, "engine": engine})
    assert status == 200 and w["engine"] == engine
    assert w["length"] == 6 == shortest_forced_win(parse_position(POSITION)).length
    assert w["seconds"] <= w["wall_seconds"]


def test_force_graph_has_fewer_nodes_than_its_tree(client):
    tree = force_tree(parse_position(POSITION))
    _, plain = post(client, "tree", {"position": POSITION, "merge": "none"})
    _, merged = post(client, "tree", {"position": POSITION, "merge": "transpositions"})
    _, symmetric = post(client, "tree", {"position": POSITION, "merge": "symmetry"})
    assert plain["graph_nodes"] == plain["tree_nodes"] == tree.number_of_nodes()
    assert plain["folded_nodes"] == len(plain["nodes"]) == fold_forced(tree).number_of_nodes()
    assert merged["graph_nodes"] == force_graph(tree).number_of_nodes() < merged["tree_nodes"]
    assert symmetric["graph_nodes"] <= merged["graph_nodes"]
    assert merged["length"] == 6 and merged["winning_first_moves"] == [16, 31, 42, 63]
    folded = fold_forced(force_graph(tree))
    assert merged["folded_nodes"] == len(merged["nodes"]) == folded.number_of_nodes()
    assert len(merged["edges"]) == folded.number_of_edges()
    assert "271 graph nodes" in merged["summary"]
    _, unfolded = post(client, "tree", {"position": POSITION, "fold": False})
    assert len(unfolded["edges"]) == force_graph(tree).number_of_edges() and unfolded["folded_nodes"] is None
    assert merged["principal_variation"] == principal_variation(folded)
    assert set(merged["principal_variation"][:-1]) <= set(merged["opening"])
    steps = {n["id"]: n["step"] for n in merged["nodes"]}
    assert all(len(steps[e["target"]]) == (1 if e["reply"] is None else 2) for e in merged["edges"])


def test_every_edge_carries_its_own_step_where_lines_meet(client):
    """A node where lines meet has several parents: the step along each edge is that edge's, and the moves
    of any path, edge by edge, are legal and reach the node's position."""
    _, g = post(client, "tree", {"position": POSITION})
    folded = fold_forced(force_graph(force_tree(parse_position(POSITION))))
    assert all(e["step"] == list(edge_moves(folded.edges[e["source"], e["target"]])) for e in g["edges"])
    nodes = {n["id"]: n for n in g["nodes"]}
    met = [e for e in g["edges"] if e["step"] != nodes[e["target"]]["step"]]
    assert met, "transpositions merged: some edge's step is not its target's first step"
    for e in met:
        after = folded.nodes[e["source"]]["position"]
        for cell in e["step"]:
            after = after.play(cell)
        assert after == folded.nodes[e["target"]]["position"]


@pytest.mark.parametrize(("text", "form"), [(POSITION, "number"), ("moves:0,1,21", "index"), (".231 .322", "hp67"),
                                            ("231", "lrc"), ("xo1x8x8o41o", None), ("37", None), ("empty", None)])
def test_the_notation_a_typed_text_names_its_cells_in(client, text, form):
    assert post(client, "notation", {"text": text}) == (200, {"notation": form})


def test_layout_places_boxes_in_ranks_without_overlap(client):
    boxes = [[0, 120, 60], [1, 120, 60], [2, 120, 60], [3, 80, 40]]
    status, laid = post(client, "layout", {"nodes": boxes, "edges": [[0, 1], [0, 2], [2, 3]]})
    assert status == 200
    at = {int(k): v for k, v in laid["nodes"].items()}
    assert at[0][1] < at[1][1] == at[2][1] < at[3][1]  # one rank per step, y down
    assert abs(at[1][0] - at[2][0]) >= 120  # side by side, not overlapping
    assert {(e["source"], e["target"]) for e in laid["edges"]} == {(0, 1), (0, 2), (2, 3)}
    assert all(e["d"].startswith("M") for e in laid["edges"])
    assert 0 < laid["width"] and 0 < laid["height"]
    status, wide = post(client, "layout", {"nodes": boxes, "edges": [[0, 1]], "rankdir": "LR"})
    assert status == 200 and wide["nodes"]["0"][1] == wide["nodes"]["1"][1]


@pytest.mark.parametrize("body, field", [
    ({"nodes": [[0, 50, 30]], "edges": [[0, 9]]}, "edges"),
    ({"nodes": []}, "nodes"),
    ({"nodes": [[0, -5, 30]]}, "nodes"),
    ({"nodes": [[0, 50, 30]], "rankdir": "XX"}, "rankdir"),
])
def test_layout_rejects_bad_boxes_with_a_4xx(client, body, field):
    status, answer_ = post(client, "layout", body)
    assert status == 422 and field in answer_["field"]


def test_hp67_answers_the_sample_game_over_http(client):
    moves: list[int] = []
    for human, machine in zip(ALAN, HP67):
        status, g = post(client, "game", {"moves": moves, "move": human, "notation": "hp67"})
        assert status == 200
        status, r = post(client, "reply", {"moves": g["moves"], "player": "hp67"})
        assert status == 200 and r["move"] == parse_cell(machine) and r["side"] == "o"
        moves = g["moves"] + [r["move"]]
    _, final = post(client, "game", {"moves": moves})
    assert final["position"]["winner"] == "o" and len(final["moves"]) == 20


def test_explanations_write_cells_in_the_requested_notation(client):
    moves = list(parse_game("1-2,22-4,27-3").moves)
    expected = make_player("mcdaniel").choose(parse_game("1-2,22-4,27-3"))
    for form in ("index", "number", "lrc"):
        status, r = post(client, "reply", {"moves": moves, "player": "mcdaniel", "notation": form})
        assert status == 200 and r["move"] == expected.cell
        assert r["explanation"] == expected.explain(form)
    assert expected.explain("number") != expected.explain("lrc")
    assert r["notation"] == "lrc" and r["explanations"]["number"] == expected.explain("number")
    # McDaniel's stored line in his numbers, in the index notation as plain 0..63 cells
    assert "43-64,11-59" in r["explanations"]["number"] and "42 63 10 58" in r["explanations"]["index"]


def test_hp67_explains_in_the_page_s_notation_not_its_own(client):
    status, r = post(client, "reply", {"moves": [parse_cell(".231")], "player": "hp67", "notation": "index"})
    assert status == 200 and "." not in r["explanation"].replace("..", "")
    assert r["explanations"]["hp67"].endswith("the row from .321 to .324")


def test_the_game_s_move_list_comes_in_every_notation(client):
    status, g = post(client, "game", {"text": "1-2,22", "notation": "hp67"})
    assert status == 200 and g["notation"] == "hp67" and g["cells"] == [".111", ".112", ".222"]
    assert g["lines"]["number"] == "1-2,22" and g["lines"]["index"] == "0 1 21"


def test_a_saved_game_loads_and_hint_names_the_first_move(client):
    status, g = post(client, "game", {"text": POSITION})
    assert status == 200 and g["mcdaniel"] == POSITION and len(g["moves"]) == 6
    _, h = post(client, "hint", {"moves": g["moves"]})
    assert h["length"] == 6 and h["sequence"][0] in (16, 31, 42, 63) and "forced win in 6" in h["text"]


def test_puzzles_are_generated_and_answers_judged(client):
    status, doc = post(client, "puzzles", {"count": 2, "seed": 4, "min_length": 3, "max_length": 5})
    assert status == 200 and len(doc["puzzles"]) == 2
    q = doc["puzzles"][0]
    p = parse_position("qubic:" + q["position"])
    assert shortest_forced_win(p).length == q["length"] and q["title"].endswith(f"wins in {q['length']}")
    first = q["solutions"][0]
    asked = {"position": q["position"], "left": q["length"]}
    status, a = post(client, "puzzles/answer", {**asked, "move": str(first)})
    assert a["verdict"] == "continue" and a["left"] == q["length"] - 1
    assert a["reply"] == length_after(p, first)[1] and a["board"]["count"] == p.count + 2
    wrong = next(m for m in p.legal_moves()
                 if m not in q["solutions"] and length_after(p, m, q["length"])[0] is None)
    _, a = post(client, "puzzles/answer", {**asked, "move": str(wrong)})
    assert a["verdict"] == "wrong" and a["explanation"] == answer(p, q["length"], wrong).explanation
    assert a["explanations"] == {f: answer(p, q["length"], wrong, f).explanation for f in CELL_FORMS}


def test_puzzle_answers_solve_and_refute():
    p = parse_position(POSITION)
    assert answer(p, 6, 42).verdict == "continue"
    slow = answer(p, 5, 16)  # a win, but in 6: too slow for "wins in 5"
    assert slow.verdict == "wrong" and "still wins, but in 6" in slow.explanation and slow.reply == 31
    both = parse_position("moves:0,16,1,17,2,18")  # X and O each have a three; X to move
    assert answer(both, 1, 3).verdict == "solved"
    ignored = answer(both, 2, 40)
    assert ignored.verdict == "wrong" and ignored.reply == 19
    assert "O completes four at 19" in ignored.explanation


def test_verify_streams_progress_then_the_result(client):
    r = client.post("/api/verify", json={"dictionary": "patashnik", "root": "patashnik:x2x1o6x14o20o"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
    got = events(r.text)
    assert {k for k, _ in got[:-1]} == {"progress"} and got[-1][0] == "result"
    result = got[-1][1]
    assert result["verdict"] == "verified" and result["entries"] == len(patashnik_dictionary())
    r = client.post("/api/verify", json={"text": "nothing\n---\n", "root": POSITION[:-2]})
    result = events(r.text)[-1][1]
    assert result["verdict"] == "refuted" and result["failures"][0]["board"]["count"] == 5


def test_a_strategy_is_verified_or_refuted_as_the_judge_does(client):
    from qubic_logic.notation import root_of
    from qubic_logic.strategy.judge import judge
    from qubic_logic.strategy.sources import load_strategy

    rules = "citrenbaum-pdp4.pl"
    offered = client.get("/api/info").json()["strategies"]
    assert {rules, "open-lines.lp", "player:mcdaniel"} <= set(offered)
    for name, source, root in [(rules, f"rules/strategies/{rules}", "1-2,4-26,13-6"),
                               ("player:greedy", "player:greedy", "1-2,22"),
                               ("open-lines.lp", "rules/strategies/open-lines.lp", "xx1oo1x1oo2o8o3x15xxo19x"),
                               ("open-lines.pl", "rules/strategies/open-lines.pl", "xx1oo1x1oo2o8o3x15xxo19x")]:
        r = client.post("/api/verify", json={"strategy": name, "root": root})
        got = events(r.text)
        assert r.status_code == 200 and got[-1][0] == "result", got[-1]
        result = got[-1][1]
        position, moves = root_of(root)
        strategy = load_strategy(source)
        try:
            expected = judge(strategy, position, root_moves=moves).to_json()
        finally:
            strategy.close()
        assert result["source"] == name
        for key in ("verdict", "side", "positions", "defender_positions", "by_rule", "strategic_positions"):
            assert result[key] == expected[key], (name, key)
        if expected["refutation"]:
            refutation = result["refutation"]
            assert refutation["moves"] == expected["refutation"]["moves"]
            assert refutation["board"]["count"] == len(refutation["moves"])
            assert refutation["board"]["winner"] == refutation["result"]


@pytest.mark.parametrize("body", [
    {"strategy": "/etc/passwd"},
    {"strategy": "../strategies/open-lines.lp"},
    {"strategy": "player:mccarthy:depth=1"},
    {"strategy": "player:nobody"},
    {"strategy": "open-lines.lp", "dictionary": "patashnik"},
    {"strategy": "open-lines.lp", "root": "moves:0,16,1,17,2,18,3"},
])
def test_a_strategy_is_named_never_given(client, body):
    status, answer_ = post(client, "verify", body)
    assert status == 422 and answer_["field"] in ("strategy", "dictionary", "root"), answer_


def test_a_verification_stops_when_its_client_goes_away():
    import httpx

    from qubic_logic.server.launch import running_server

    with running_server() as url:
        with httpx.stream("POST", url + "api/verify", json={"dictionary": "patashnik"}, timeout=30) as r:
            assert next(r.iter_lines()) == "event: progress"
        end = time.monotonic() + 20  # the whole dictionary takes longer; the next may start once it stopped
        small = {"text": "---\n", "root": "xo1o17x4x24o"}
        while (r := httpx.post(url + "api/verify", json=small)).status_code == 429:
            assert time.monotonic() < end, "the abandoned verification still holds the server"
            time.sleep(0.2)
        assert events(r.text)[-1][1]["verdict"] == "verified"


def test_a_second_verification_at_once_is_told_to_wait(client):
    lock = client.app.state.verifying
    assert lock.acquire(blocking=False)
    try:
        status, body = post(client, "verify", {"dictionary": "patashnik"})
        assert status == 429 and "already running" in body["error"]
    finally:
        lock.release()


# ------------------------------------------------------------------ errors


@pytest.mark.parametrize("path, body, field", [
    ("show", {"position": "1-2,22-2"}, "position"),
    ("show", {"position": 5}, "position"),
    ("show", {}, "position"),
    ("win", {"position": POSITION, "engine": "gnu"}, "engine"),
    ("win", {"position": POSITION, "time_limit": 1e9}, "time_limit"),
    ("tree", {"position": POSITION, "max_nodes": 10**6}, "max_nodes"),
    ("tree", {"position": "moves:0,16,1,17,2,18,3"}, "position"),
    ("game", {"moves": [0, 0]}, "moves"),
    ("game", {"moves": [0], "move": "0"}, "move"),
    ("game", {"moves": [], "move": "65", "notation": "number"}, "move"),
    ("reply", {"moves": [], "player": "deep-blue"}, "player"),
    ("reply", {"moves": [0, 16, 1, 17, 2, 18, 3], "player": "greedy"}, "moves"),
    ("puzzles", {"min_length": 6, "max_length": 3}, "min_length"),
    ("puzzles/answer", {"position": POSITION, "left": 3, "move": "1"}, "move"),
    ("verify", {"text": "no separator"}, "text"),
    ("verify", {"dictionary": "patashnik", "text": "---\n"}, "dictionary"),
    ("verify", {"path": "/etc/passwd"}, "dictionary"),
])
def test_bad_input_is_a_422_naming_the_field(client, path, body, field):
    status, err = post(client, path, body)
    assert status == 422 and err["field"] == field and err["error"].startswith(field), err


def test_not_json_too_big_unknown_and_wrong_method_are_4xx_json(client):
    r = client.post("/api/show", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["field"] == "body"
    r = client.post("/api/verify", content=b"x" * 2_000_000, headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["field"] == "body"
    r = client.post("/api/verify", content=iter([b"x" * 600_000, b"x" * 600_000]),  # streamed, no length
                    headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert client.get("/api/nothing").status_code == 404 and "error" in client.get("/api/nothing").json()
    assert client.get("/api/win").status_code == 405


def test_an_engine_past_its_time_limit_is_a_408(client):
    hard = "patashnik:x2o8x5o14x8o5o11x"  # needs a 20-move forced sequence (the verifier's longest)
    status, err = post(client, "win", {"position": hard, "engine": "asp", "time_limit": 0.05})
    assert status == 408 and err["field"] == "time_limit"


def test_the_runner_bounds_calls_at_once_and_times_out():
    runner, running, peak, lock = Runner(workers=2), [0], [0], threading.Lock()

    def work():
        with lock:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
        time.sleep(0.05)
        with lock:
            running[0] -= 1
        return 1

    async def many():
        return await asyncio.gather(*(runner.call(work, seconds=5) for _ in range(8)))

    assert asyncio.run(many()) == [1] * 8 and peak[0] == 2
    with pytest.raises(CallTimeout, match="longer than the server's limit"):
        asyncio.run(runner.call(time.sleep, 0.5, seconds=0.05))
    runner.close()


def test_openapi_schema_documents_every_endpoint(client):
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/show", "/api/threats", "/api/win", "/api/tree", "/api/game", "/api/reply", "/api/hint",
            "/api/puzzles", "/api/puzzles/answer", "/api/verify", "/api/info"} <= set(paths)
    pages = [client.get(f"/{p}") for p in ("play", "analyse", "puzzles", "verify", "api")]
    assert all(r.status_code == 200 and "<script src=\"/static/qubic.js\">" in r.text for r in pages)
    assert not any(re.search(r"(src|href)=\"(https?:)?//", r.text) for r in pages)


# ------------------------------------------------------------------ fuzzing: zero 5xx

ENDPOINTS = ["show", "threats", "win", "tree", "game", "reply", "hint", "puzzles", "puzzles/answer", "verify",
             "notation", "lessons/answer"]
FIELDS = ["position", "engine", "max_length", "time_limit", "max_nodes", "only_winning", "merge", "moves",
          "text", "move", "notation", "player", "count", "seed", "min_length", "max_length", "source", "left",
          "dictionary", "root"]
text = st.one_of(st.text(max_size=40), st.from_regex(r"[0-9xo.,\-/: ]{0,30}", fullmatch=True),
                 st.sampled_from(["empty", POSITION, "moves:0,1", ".111", "421", "x14o", "native", "python",
                                  "hp67", "greedy", "patashnik", "symmetry", "index"]))
scalar = st.one_of(st.none(), st.booleans(), st.integers(-10**12, 10**12), st.floats(allow_nan=True), text)
value = st.one_of(scalar, st.lists(scalar, max_size=5),
                  st.dictionaries(st.text(max_size=5), scalar, max_size=3),
                  st.lists(st.integers(-3, 70), max_size=12))
body = st.one_of(st.dictionaries(st.sampled_from(FIELDS), value, max_size=6), value)
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))


def _fuzz(client, path: str, payload) -> None:
    if path in ("win", "tree") and isinstance(payload, dict):  # keep engine calls quick
        payload["engine"] = "native"
        payload["time_limit"] = 2
    r = client.post("/api/" + path, content=json.dumps(payload), headers={"content-type": "application/json"})
    assert r.status_code < 500, (path, payload, r.text)
    if r.status_code >= 400:
        assert "error" in r.json()


@FUZZ
@given(path=st.sampled_from(ENDPOINTS), payload=body)
def test_fuzzed_requests_never_get_a_5xx(client, path, payload):
    _fuzz(client, path, payload)


@FUZZ
@given(raw=st.binary(max_size=200), path=st.sampled_from(ENDPOINTS + ["info", "x", "../etc"]),
       method=st.sampled_from(["GET", "POST", "PUT", "DELETE"]))
def test_fuzzed_raw_bodies_and_methods_never_get_a_5xx(client, raw, path, method):
    r = client.request(method, "/api/" + path, content=raw, headers={"content-type": "application/json"})
    assert r.status_code < 500, (method, path, raw, r.text)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, suppress_health_check=list(HealthCheck))
@given(path=st.sampled_from(ENDPOINTS), payload=body)
def test_thousands_of_fuzzed_requests_never_get_a_5xx(client, path, payload):
    _fuzz(client, path, payload)


# ------------------------------------------------------------------ the command


def test_serve_warns_when_not_on_loopback():
    command = [sys.executable, "-m", "qubic_logic.cli", "serve", "--host", "0.0.0.0", "--port", "0"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert re.match(r"qubic serve: http://0\.0\.0\.0:\d+/", proc.stdout.readline())
        assert "warning: listening on 0.0.0.0, not on loopback" in proc.stderr.readline()
    finally:
        proc.terminate()
        proc.wait(10)


def test_tree_graph_flag_reports_both_counts(capsys):
    assert main(["tree", POSITION, "--graph"]) == 0
    assert ("731 tree nodes, 271 graph nodes (transpositions merged), 110 with forced replies folded; wins in 6"
            in capsys.readouterr().out)
    assert main(["tree", POSITION, "--graph", "--unfold"]) == 0
    assert "731 tree nodes, 271 graph nodes (transpositions merged); wins in 6" in capsys.readouterr().out
    assert main(["tree", "moves:0,63,3,60,12", "--symmetric", "--unfold", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out.splitlines()[0])
    assert doc["graph"]["merge"] == "symmetry" and doc["graph"]["tree_nodes"] == 5 and len(doc["nodes"]) == 3


def test_puzzles_command_writes_a_set(tmp_path, capsys):
    out = tmp_path / "set.json"
    argv = ["puzzles", "--count", "3", "--seed", "2", "--min-length", "3", "--max-length", "6",
            "-o", str(out)]
    assert main(argv) == 0
    doc = json.loads(out.read_text())
    assert len(doc["puzzles"]) == 3 and "wrote 3 puzzles" in capsys.readouterr().out
    for q in doc["puzzles"]:
        p = parse_position("qubic:" + q["position"])
        assert 3 <= shortest_forced_win(p).length == q["length"] <= 6
        assert all(length_after(p, m)[0] == q["length"] for m in q["solutions"])
    assert main(["puzzles", "--min-length", "5", "--max-length", "3"]) == 2


def test_a_short_bounded_load_run_has_no_errors():
    from qubic_logic.bench.server import latency, load
    from qubic_logic.server.launch import running_server

    with running_server(workers=2) as url:
        loaded = load(url, clients=5, seconds=2.0)
        moves = latency(url, 1)
    assert loaded["requests"] > 0 and loaded["errors"] == 0, loaded["first_errors"]
    assert loaded["p50_ms"] <= loaded["p95_ms"] <= loaded["max_ms"]
    assert set(moves) == {"hp67", "greedy"} and all(row["positions"] > 10 for row in moves.values())
