"""``qubic serve`` keeps its rules against hostile clients: one verification at a time (a second
refused with 429 before its text is parsed), a client that leaves takes its job and workers with
it, idle and slow connections are closed, and no input gets a 5xx."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import warnings

import httpx
import psutil
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qubic_logic.cli import main
from qubic_logic.server import create_app
from qubic_logic.server.launch import job_processes, running_server, server_process

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

HUGE_MOVE = "1" * 5000
WHOLE = {"dictionary": "patashnik"}  # minutes of work: still running while a test looks
SMALL = {"text": "---\n", "root": "xo1o17x4x24o"}  # X wins at once: a verification of a second or two


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(workers=2), raise_server_exceptions=False) as c:
        yield c


def events(text: str) -> list[tuple[str, dict]]:
    blocks = [b for b in text.strip().split("\n\n") if b]
    return [(re.search(r"^event: (.*)$", b, re.M).group(1), json.loads(re.search(r"^data: (.*)$", b, re.M).group(1)))
            for b in blocks]


def wait_until(condition, seconds: float, what: str) -> None:
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, what
        time.sleep(0.05)


# ------------------------------------------------------------------ one verification at a time


def test_a_huge_move_in_a_pasted_dictionary_is_a_clear_422(client):
    r = client.post("/api/verify", json={"text": f"header\n---\nx {HUGE_MOVE}\n"})
    body = r.json()
    assert r.status_code == 422 and body["field"] == "text", body
    assert "is not a cell; expected 0..63" in body["error"] and len(body["error"]) < 200


def test_a_refused_request_leaves_the_lock_free(client):
    for body in ({"text": f"---\nx {HUGE_MOVE}\n"}, {"strategy": "nobody"}, {"text": "---\n", "root": "1-1"}):
        assert client.post("/api/verify", json=body).status_code == 422
    got = events(client.post("/api/verify", json=SMALL).text)
    assert got[-1][0] == "result" and got[-1][1]["verdict"] == "verified"


def test_a_second_verification_is_refused_before_its_text_is_read(client):
    lock = client.app.state.verifying
    assert lock.acquire(blocking=False)
    try:
        # a text that would take seconds to parse is answered at once, and so is a broken one
        for body in ({"text": "---\n" + "x 1\n" * 40000}, {"text": f"---\nx {HUGE_MOVE}\n"}, WHOLE):
            r = client.post("/api/verify", json=body)
            assert r.status_code == 429 and "already running" in r.json()["error"]
    finally:
        lock.release()


@pytest.mark.slow
def test_of_eight_verifications_at_once_one_runs_and_seven_are_told_to_wait():
    with running_server() as url:
        statuses: list[int] = []
        streams: list[httpx.Response] = []
        start = threading.Barrier(8)

        def ask() -> None:
            c = httpx.Client(timeout=60)
            start.wait()
            r = c.send(c.build_request("POST", url + "api/verify", json=WHOLE), stream=True)
            statuses.append(r.status_code)
            streams.append(r)

        threads = [threading.Thread(target=ask) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(statuses) == [200] + [429] * 7
        assert httpx.get(url + "api/info", timeout=5).status_code == 200  # the event loop is free
        for r in streams:
            r.close()


# ------------------------------------------------------------------ a client that leaves


@pytest.mark.slow
def test_a_client_that_leaves_takes_its_verification_and_workers_with_it():
    with running_server() as url:
        server = server_process(url)
        for _ in range(3):  # leaving at different moments of the work
            with httpx.stream("POST", url + "api/verify", json=WHOLE, timeout=60) as r:
                lines = r.iter_lines()
                assert next(lines) == "event: progress"
                wait_until(lambda: len(job_processes(server)) >= 3, 30, "no workers started")
                for _ in range(40):
                    next(lines)
            wait_until(lambda: not job_processes(server), 3, "processes left after the client went")
            r = httpx.post(url + "api/verify", json=SMALL, timeout=60)
            assert r.status_code == 200 and events(r.text)[-1][1]["verdict"] == "verified"
            wait_until(lambda: not job_processes(server), 3, "a finished verification left processes")


# ------------------------------------------------------------------ idle and slow connections


@pytest.mark.slow
def test_idle_and_slow_connections_are_closed_and_the_server_keeps_answering():
    with running_server(options=["--request-timeout", "1"], open_files=256) as url:
        host, port = url.split("//")[1].rstrip("/").split(":")
        idle = [socket.create_connection((host, int(port)), timeout=10) for _ in range(300)]  # > its descriptors
        # each is closed: after its second without a request, or at once (503) past the connection limit
        assert all(s.recv(12) in (b"", b"HTTP/1.1 503") for s in idle)
        slow = socket.create_connection((host, int(port)), timeout=10)
        slow.sendall(b"GET /api/info HTTP/1.1\r\n")
        for _ in range(8):  # a byte every 0.3 s: never a whole request
            time.sleep(0.3)
            try:
                slow.sendall(b"X")
            except OSError:
                break
        assert slow.recv(100) == b""  # closed by the server
        r = httpx.get(url + "api/info", timeout=10)
        assert r.status_code == 200
        for s in idle + [slow]:
            s.close()


@pytest.mark.slow
def test_a_whole_request_is_not_cut_by_the_request_timeout():
    with running_server(options=["--request-timeout", "1"]) as url:
        with httpx.Client(timeout=30) as c:
            assert c.post(url + "api/show", json={"position": "1-2"}).status_code == 200
            time.sleep(0.5)  # kept alive: a second request on the same connection
            assert c.post(url + "api/show", json={"position": "1-2,22"}).status_code == 200
            r = c.post(url + "api/verify", json=SMALL)  # longer than the timeout, once it has arrived
            assert r.status_code == 200 and events(r.text)[-1][1]["verdict"] == "verified"


# ------------------------------------------------------------------ no 5xx, no internal error


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.text("xo0123456789١٢", max_size=12),
                          st.one_of(st.text("0123456789", min_size=1, max_size=4), st.just(HUGE_MOVE),
                                    st.just("٣"))), max_size=4),
       st.sampled_from([None, "1-2", "xo1", HUGE_MOVE, "1-2,22-" + HUGE_MOVE]))
def test_fuzzed_verify_requests_get_no_5xx(client, entries, root):
    text = "fuzz\n---\n" + "".join(f"{p} {m}\n" for p, m in entries) + "x " + HUGE_MOVE[: len(entries) * 2 + 1] + "\n"
    body = {"text": text} if root is None else {"text": text, "root": root}
    r = client.post("/api/verify", json=body)
    assert r.status_code < 500, r.text
    if r.status_code == 422:
        assert len(r.json()["error"]) < 300


@pytest.mark.parametrize("kind", ["dictionary", "certificate", "strategy"])
def test_a_huge_move_on_the_command_line_is_one_line(tmp_path, capsys, kind):
    if kind == "dictionary":
        (tmp_path / "d.dict").write_text(f"header\n---\nx {HUGE_MOVE}\n")
        argv = ["verify", "dictionary", str(tmp_path / "d.dict")]
    elif kind == "certificate":
        (tmp_path / "c.txt").write_text(f"header\n---\nx 1,{HUGE_MOVE}\n")
        argv = ["verify", "certificate", str(tmp_path / "c.txt")]
    else:
        argv = ["verify", "strategy", "player:greedy", "--root", f"1-2,22-{HUGE_MOVE}"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "internal error" not in err and len(err.strip().splitlines()) == 1 and len(err) < 300, err


# ------------------------------------------------------------------ Ctrl-C at the server's terminal


@pytest.mark.slow
@pytest.mark.parametrize("moment", ["starting", "working"])
def test_ctrl_c_at_the_terminal_stops_a_verifying_server_with_one_line(moment):
    """Ctrl-C reaches the terminal's whole process group: the server, and the verification's child while it
    is still importing (before it has a group of its own). One line, no traceback, no process left."""
    server = subprocess.Popen([sys.executable, "-m", "qubic_logic.cli", "serve", "--port", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    url = re.search(r"http://\S+/", server.stdout.readline()).group(0)
    wait_until(lambda: _answers(url), 60, "the server did not answer")
    me = psutil.Process(server.pid)
    ask = threading.Thread(target=lambda: _stream_until_closed(url))
    ask.start()
    wait_until(lambda: job_processes(me), 30, "no verification started")
    if moment == "working":
        wait_until(lambda: len(job_processes(me)) >= 3, 60, "no workers started")
    left = [p.pid for p in me.children(recursive=True)]
    os.killpg(server.pid, signal.SIGINT)
    server.wait(30)
    ask.join(30)
    err = server.stderr.read()
    assert len(err.strip().splitlines()) == 1 and err.startswith("qubic serve: ") and "Traceback" not in err, err
    wait_until(lambda: not [p for p in left if psutil.pid_exists(p) and psutil.Process(p).status() != "zombie"], 5,
               "processes left")


def _answers(url: str) -> bool:
    try:
        return httpx.get(url + "api/info", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def _stream_until_closed(url: str) -> None:
    try:
        with httpx.stream("POST", url + "api/verify", json=WHOLE, timeout=60) as r:
            for _ in r.iter_lines():
                pass
    except httpx.HTTPError:
        pass
