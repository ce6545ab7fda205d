"""Server: a move over HTTP against the player's own time, a verification's round trip, a load test.

Starts ``qubic serve`` on a free loopback port in a subprocess (the server is
its own process, as in use). *Latency*: on every position of seeded
greedy-v-greedy games, ``hp67`` and ``greedy`` are asked for a move over HTTP
(``POST /api/reply``, one kept-alive connection) and in-process; the
overhead is the median of (HTTP round trip - the player's own time), per
position. *Load*: 50 concurrent clients for 60 s (10 s with ``--quick``)
send a mix of requests (reply by ``greedy``/``hp67``, show, threats, native
forced win) and the run stops by itself; it reports requests, errors and
latency percentiles. *Verify*: the Verify page's own example (read from the
page's script) sent as the browser sends it (``POST /api/verify``), the round trip
until the response ends, the verification's own time beside it: the first
after the server answered, and the median of the next ones. *Leaving*: a
client starts a verification of Patashnik's dictionary and leaves once its
workers run; the seconds until none of the verification's processes is left
(median and largest of several).
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import statistics
import time
from importlib.resources import files

import httpx
from rich.console import Console
from rich.table import Table

from ..players import make_player
from ..notation import format_mcdaniel
from ..server.launch import job_processes, running_server, server_process
from .players import positions

CLIENTS = 50
SECONDS = 60.0
VERIFY_RUNS = 15


def verify_example() -> str:
    """The example dictionary the Verify page writes (one entry: X's move at the root of its ``TRAP``,
    read from the page's script), as the page sends it.

    >>> verify_example().splitlines()[-1]
    'xo1o17x4x24o 16'
    """
    script = (files("qubic_logic") / "server" / "static" / "verify.js").read_text(encoding="utf-8")
    root, move = re.search(r"const TRAP = \{.*root: '(\w+)', move: (\d+)\}", script).groups()
    return f"the Verify page's example\nroot: {root}\n-----\n{root} {move}\n"


def verify_round_trips(url: str, runs: int) -> dict[str, float]:
    """Round trips (ms) of the Verify page's example: the first, the median of the next ``runs``,
    and the median of the verification's own time (its ``seconds``) in them."""
    body = {"text": verify_example()}
    trips, own = [], []
    with httpx.Client(base_url=url, timeout=60) as client:
        for _ in range(runs + 1):
            start = time.perf_counter()
            r = client.post("/api/verify", json=body)
            trips.append((time.perf_counter() - start) * 1000)
            result = [json.loads(line[6:]) for line in r.text.splitlines() if line.startswith("data: ")][-1]
            if r.status_code != 200 or result.get("verdict") != "verified":
                raise RuntimeError(f"the Verify page's example: {r.status_code} {r.text[-300:]}")
            own.append(result["seconds"] * 1000)
    return {"first_ms": trips[0], "median_ms": statistics.median(trips[1:]), "own_ms": statistics.median(own[1:]),
            "runs": runs}


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile (0..100) by nearest rank.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 50), percentile([1.0, 2.0, 3.0, 4.0], 95)
    (2.0, 4.0)
    """
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 100))
    return ordered[int(rank) - 1]


def latency(url: str, games: int) -> dict[str, dict[str, float]]:
    """Per player: median HTTP round trip, median own time, median overhead (ms)."""
    boards = positions(games)
    out = {}
    with httpx.Client(base_url=url, timeout=30) as client:
        for name in ("hp67", "greedy"):
            player, http, own, overhead = make_player(name), [], [], []
            for game in boards:
                start = time.perf_counter()
                player.choose(game)
                mine = time.perf_counter() - start
                start = time.perf_counter()
                client.post("/api/reply", json={"moves": game.moves, "player": name}).raise_for_status()
                trip = time.perf_counter() - start
                http.append(trip * 1000)
                own.append(mine * 1000)
                overhead.append((trip - mine) * 1000)
            out[name] = {"positions": len(boards), "http_ms": statistics.median(http),
                         "own_ms": statistics.median(own), "overhead_ms": statistics.median(overhead)}
    return out


async def _client(url: str, until: float, seed: int, games: list, times: list[float],
                  errors: list[str]) -> None:
    rng = random.Random(seed)
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        while time.monotonic() < until:
            game = rng.choice(games)
            kind = rng.randrange(5)
            if kind < 2 and not game.position.is_over:
                request = ("/api/reply", {"moves": game.moves, "player": ("greedy", "hp67")[kind]})
            elif kind == 2:
                request = ("/api/show", {"position": "mcdaniel:" + format_mcdaniel(game.moves)})
            elif kind == 3:
                request = ("/api/threats", {"position": "moves:" + ",".join(map(str, game.moves))})
            else:
                request = ("/api/win", {"position": "moves:" + ",".join(map(str, game.moves)),
                                        "engine": "native"})
            start = time.perf_counter()
            try:
                r = await client.post(request[0], json=request[1])
                if r.status_code >= 400:
                    errors.append(f"{request[0]}: {r.status_code} {r.text[:120]}")
            except httpx.HTTPError as exc:
                errors.append(f"{request[0]}: {type(exc).__name__}")
            times.append((time.perf_counter() - start) * 1000)


def load(url: str, clients: int = CLIENTS, seconds: float = SECONDS) -> dict:
    """``clients`` concurrent clients for ``seconds``; requests, errors, latency percentiles (ms)."""
    games = [g for g in positions(2) if g.moves]
    times: list[float] = []
    errors: list[str] = []
    until = time.monotonic() + seconds
    start = time.perf_counter()

    async def everyone() -> None:
        await asyncio.gather(*(_client(url, until, seed, games, times, errors) for seed in range(clients)))

    asyncio.run(everyone())
    wall = time.perf_counter() - start
    return {"clients": clients, "seconds": wall, "requests": len(times), "errors": len(errors),
            "first_errors": errors[:5], "per_second": len(times) / wall, "p50_ms": percentile(times, 50),
            "p95_ms": percentile(times, 95), "max_ms": max(times)}


def leaving(url: str, tries: int) -> list[float]:
    """Seconds between a client leaving its verification and the end of the job's processes, per try."""
    server = server_process(url)
    out = []
    for _ in range(tries):
        with httpx.stream("POST", url + "api/verify", json={"dictionary": "patashnik"}, timeout=60) as r:
            lines = r.iter_lines()
            next(lines)
            while len(job_processes(server)) < 2:  # the verification and its workers run
                time.sleep(0.05)
        start = time.perf_counter()
        while job_processes(server):
            time.sleep(0.01)
        out.append(time.perf_counter() - start)
    return out


def run(console: Console, quick: bool = False) -> dict:
    with running_server() as url:
        verifying = verify_round_trips(url, 3 if quick else VERIFY_RUNS)
        moves = latency(url, 1 if quick else 3)
        loaded = load(url, CLIENTS, 10.0 if quick else SECONDS)
        left = leaving(url, 2 if quick else 5)
    table = Table(title="a move over HTTP (POST /api/reply, loopback) against the player's own time, medians")
    for column in ("player", "positions", "HTTP round trip ms", "own time ms", "overhead ms"):
        table.add_column(column, justify="right")
    for name, row in moves.items():
        table.add_row(name, str(row["positions"]), f"{row['http_ms']:.2f}", f"{row['own_ms']:.3f}",
                      f"{row['overhead_ms']:.2f}")
    console.print(table)
    table = Table(title="the Verify page's example (POST /api/verify, loopback): round trip until the "
                        "response ends")
    for column in ("first after start ms", f"median of next {verifying['runs']} ms", "verification's own ms"):
        table.add_column(column, justify="right")
    table.add_row(f"{verifying['first_ms']:.0f}", f"{verifying['median_ms']:.0f}", f"{verifying['own_ms']:.1f}")
    console.print(table)
    table = Table(title=f"load: {loaded['clients']} concurrent clients for {loaded['seconds']:.0f} s "
                        "(reply, show, threats, native forced win)")
    for column in ("requests", "errors", "requests/s", "p50 ms", "p95 ms", "max ms"):
        table.add_column(column, justify="right")
    table.add_row(f"{loaded['requests']:,}", str(loaded["errors"]), f"{loaded['per_second']:.0f}",
                  f"{loaded['p50_ms']:.1f}", f"{loaded['p95_ms']:.1f}", f"{loaded['max_ms']:.1f}")
    console.print(table)
    for line in loaded["first_errors"]:
        console.print(f"[red]error: {line}[/red]")
    console.print(f"a client leaving its verification: its processes gone after {statistics.median(left):.2f} s "
                  f"(median of {len(left)}, largest {max(left):.2f} s)", highlight=False)
    return {"verify": verifying, "latency": moves, "load": loaded, "leaving": left}
