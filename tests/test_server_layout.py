"""``POST /api/layout`` cannot tie up the server: bounded input, every bad body a clear 4xx, ``dot`` in
its own process under a time limit, killed with its request and with the server."""

from __future__ import annotations

import asyncio
import json
import warnings

import psutil
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qubic_logic.bench.layout import HARDEST, hardest_graphs, siege
from qubic_logic.render.layout import MAX_EDGES, MAX_NODES, MAX_SEGMENTS, check_graph, layout
from qubic_logic.server import create_app
from qubic_logic.server.layouts import ClientGone, Layouts, ServerStopping
from qubic_logic.server.runner import CallTimeout

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(workers=2), raise_server_exceptions=False) as c:
        yield c


def box(n: int) -> list:
    return [n, 80, 40]


def chain(n: int) -> list:
    return [[i, i + 1] for i in range(n - 1)]


LONG_EDGES = {"nodes": [box(i) for i in range(201)], "edges": chain(201) + [[i, 200] for i in range(60)]}


@pytest.mark.parametrize("body, field, words", [
    ({"nodes": [[-1, 1, 1]], "edges": []}, "nodes", "greater than or equal to 0"),
    ({"nodes": [[2**31, 1, 1]]}, "nodes", "less than or equal to 2147483647"),
    ({"nodes": [box(0), box(0)]}, "nodes", "node 0 is given twice"),
    ({"nodes": [box(0)], "edges": [[0, 0]]}, "edges", "joins node 0 to itself"),
    ({"nodes": [box(0), box(1)], "edges": [[0, 1], [0, 1]]}, "edges", "edge [0, 1] is given twice"),
    ({"nodes": [box(0), box(1), box(2)], "edges": [[0, 1], [1, 2], [2, 0]]}, "edges", "make a cycle through node 0"),
    ({"nodes": [box(0)], "edges": [[0, 9]]}, "edges", "joins a node not in 'nodes'"),
    ({"nodes": [box(i) for i in range(MAX_NODES + 1)]}, "nodes", f"at most {MAX_NODES}"),
    ({"nodes": [box(i) for i in range(100)], "edges": [[i, j] for i in range(100) for j in range(i + 1, 100)]},
     "edges", f"at most {MAX_EDGES}"),
    (LONG_EDGES, "edges", f"expected at most {MAX_SEGMENTS:,}"),
    ({"nodes": [["a", 1, 1]]}, "nodes", "valid integer"),
    ({"nodes": [[0.5, 1, 1]]}, "nodes", "integer"),
    ({"nodes": [[0, 1]]}, "nodes.0.2", "required"),
    ({"nodes": [[0, 1, 1, 1]]}, "nodes", "at most 3"),
    ({"nodes": [{"id": 0}]}, "nodes", "tuple"),
    ({"nodes": [box(0)], "edges": [[0]]}, "edges.0.1", "required"),
    ({"nodes": [box(0)], "edges": "0-1"}, "edges", "list"),
    ({"nodes": [[0, 3000, 1]]}, "nodes", "less than or equal to 2000"),
    ({"nodes": [box(0)], "rankdir": "XX"}, "rankdir", "'TB' or 'LR'"),
    ({"nodes": [[0.0, 1, 1]]}, "nodes.0.0", "valid integer"),   # an id is an integer, not a number that rounds to one
    ({"nodes": [box(0)], "edges": [[0, True]]}, "edges.0.1", "valid integer"),
    ({}, "nodes", "required"),
    ([], "body", "object to extract fields from"),
])
def test_every_malformed_layout_body_is_a_clear_422(client, body, field, words):
    r = client.post("/api/layout", json=body)
    answer = r.json()
    assert r.status_code == 422, answer
    assert answer["field"].startswith(field) and words in answer["error"], answer
    assert len(answer["error"]) < 300


@pytest.mark.parametrize("text", ['{"nodes": [[0, NaN, 1]]}', '{"nodes": [[0, Infinity, 1]]}', '{"nodes": [[0,',
                                  '{"nodes": [[0, 1, 1]], "edges": [[0, 1e400]]}'])
def test_bodies_that_are_not_plain_json_numbers_are_a_422(client, text):
    r = client.post("/api/layout", content=text, headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["field"], r.text


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.lists(st.one_of(st.integers(-2, 6), st.floats(-1, 3000), st.text(max_size=2)), max_size=4),
                max_size=6),
       st.lists(st.lists(st.integers(-1, 6), max_size=3), max_size=8),
       st.sampled_from(["TB", "LR", "BT", None]))
def test_fuzzed_layout_requests_get_no_5xx(client, nodes, edges, rankdir):
    body = {"nodes": nodes, "edges": edges} | ({} if rankdir is None else {"rankdir": rankdir})
    r = client.post("/api/layout", content=json.dumps(body), headers={"content-type": "application/json"})
    assert r.status_code in (200, 422), r.text
    if r.status_code == 200:  # a good graph: every box placed
        assert set(r.json()["nodes"]) == {str(n[0]) for n in nodes}


def test_the_hardest_graphs_are_within_the_bounds_and_laid_out_whole():
    graphs = hardest_graphs()
    assert HARDEST in graphs and len(graphs) >= 5
    for boxes, edges in graphs.values():
        assert check_graph(boxes, edges) <= MAX_SEGMENTS and len(boxes) <= MAX_NODES and len(edges) <= MAX_EDGES
    boxes, edges = graphs["dense layers, 3 x 44"]
    laid = layout(boxes, edges)
    assert set(laid.nodes) == set(boxes) and set(laid.edges) == set(edges)


def _dots() -> list[psutil.Process]:
    return [p for p in psutil.Process().children(recursive=True) if p.name() == "dot" and p.status() != "zombie"]


def test_a_layout_past_its_time_limit_is_a_timeout_and_its_dot_is_killed():
    boxes, edges = hardest_graphs()[HARDEST]

    async def late():
        return await Layouts(1).lay_out(boxes, edges, seconds=0.5)

    with pytest.raises(CallTimeout, match="laying out the graph took longer than the server's limit of 0.5 s"):
        asyncio.run(late())
    assert not _dots()


def test_a_client_that_leaves_and_a_server_that_stops_end_the_dot_at_work():
    boxes, edges = hardest_graphs()[HARDEST]

    async def leaving():
        async def gone() -> bool:
            return bool(_dots())  # the client leaves once dot runs
        with pytest.raises(ClientGone):
            await Layouts(1).lay_out(boxes, edges, gone=gone)
        assert not _dots()

    async def stopping():
        layouts = Layouts(1)
        asking = [asyncio.ensure_future(layouts.lay_out(boxes, edges)) for _ in range(3)]  # one runs, two wait
        while not _dots():
            await asyncio.sleep(0.05)
        layouts.stop()
        for task in asking:
            with pytest.raises(ServerStopping):
                await task
        assert not _dots()
        with pytest.raises(ServerStopping):  # and none starts after
            await layouts.lay_out({0: (80, 40)}, [])

    asyncio.run(leaving())
    asyncio.run(stopping())


def test_info_states_the_layout_limits(client):
    limits = client.get("/api/info").json()["limits"]["layout"]
    assert limits == {"nodes": MAX_NODES, "edges": MAX_EDGES, "segments": MAX_SEGMENTS, "seconds": 30.0}


@pytest.mark.slow
def test_four_hardest_layouts_leave_win_answering_and_sigint_ends_the_server():
    got = siege(4)
    assert got["win_answers"] >= 5 and got["win_max_seconds"] < 1.0, got
    assert set(got["layouts"]) <= {200, 408} and 200 in got["layouts"], got
    assert got["dots_at_sigint"] >= 1 and got["exit_seconds"] < 2.0 and got["dots_left"] == 0, got
    assert set(got["stopped_layouts"]) <= {503, 0}, got

