"""Server: a move over HTTP against the player's own time, and a bounded load test.

Starts ``qubic serve`` on a free loopback port in a subprocess (the server is
its own process, as in use). *Latency*: on every position of seeded
greedy-v-greedy games, ``hp67`` and ``greedy`` are asked for a move over HTTP
(``POST /api/reply``, one kept-alive connection) and in-process; the
overhead is the median of (HTTP round trip - the player's own time), per
position. *Load*: 50 concurrent clients for 60 s (10 s with ``--quick``)
send a mix of requests (reply by ``greedy``/``hp67``, show, threats, native
forced win) and the run stops by itself; it reports requests, errors and
latency percentiles. *Leaving*: a client starts a verification of Patashnik's
dictionary and leaves once its workers run; the seconds until none of the
verification's processes is left (median and largest of several).
"""

from __future__ import annotations

import asyncio
import random
import statistics
import time

import httpx
from rich.console import Console
from rich.table import Table

from ..players import make_player
from ..notation import format_mcdaniel
from ..server.launch import job_processes, running_server, server_process
from .players import positions

CLIENTS = 50
SECONDS = 60.0


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
    return {"latency": moves, "load": loaded, "leaving": left}
