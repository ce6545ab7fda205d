"""Start ``qubic serve`` on a free loopback port in a subprocess, for tests and benchmarks.

>>> with running_server() as url:
...     import httpx
...     httpx.post(url + 'api/win', json={'position': '1-2,22-52,27-4'}).json()['length']
6
"""

from __future__ import annotations

import re
import resource
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from ..errors import QubicError


@contextmanager
def running_server(workers: int = 4, timeout: float = 30.0, options: Sequence[str] = (),
                   open_files: int | None = None) -> Iterator[str]:
    """Run ``qubic serve --port 0`` (with more ``options``; ``open_files``: its descriptor limit, as
    ``ulimit -n``) until the block ends; yields its address (``http://127.0.0.1:P/``)."""
    import httpx

    command = [sys.executable, "-m", "qubic_logic.cli", "serve", "--port", "0", "--workers", str(workers), *options]

    def limit() -> None:
        if open_files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, open_files))

    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=limit)
    try:
        found = re.search(r"http://\S+/", proc.stdout.readline())
        if not found:
            raise QubicError(f"qubic serve did not start: {proc.stderr.read().strip()}")
        url = found.group(0)
        end = time.monotonic() + timeout
        while True:
            try:
                httpx.get(url + "api/info", timeout=2).raise_for_status()
                break
            except httpx.HTTPError:
                if time.monotonic() > end:
                    raise QubicError(f"qubic serve at {url} did not answer within {timeout:g} s") from None
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def server_process(url: str) -> "psutil.Process":
    """The child process of this one that serves ``url`` (started by :func:`running_server`)."""
    import psutil

    port = int(url.rstrip("/").rsplit(":", 1)[1])
    for p in psutil.Process().children():
        try:
            if any(c.laddr and c.laddr.port == port for c in p.net_connections()):
                return p
        except psutil.Error:
            continue
    raise QubicError(f"no child process serves {url}")


def job_processes(server: "psutil.Process") -> list["psutil.Process"]:
    """The server's live verification processes and their workers (multiprocessing's resource
    tracker and the fork server verifications start from, which live as long as the server, and
    exited processes not yet reaped excluded)."""
    import psutil

    out = []
    for p in server.children(recursive=True):
        try:
            command = " ".join(p.cmdline())  # (what the fork server forks has its command line)
            lasting = "resource_tracker" in command or ("forkserver" in command and p.ppid() == server.pid)
            if p.status() != psutil.STATUS_ZOMBIE and not lasting:
                out.append(p)
        except psutil.Error:
            continue
    return out
