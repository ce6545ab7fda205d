"""Engine calls off the event loop: a bounded number at once, each under a time limit.

Every call the API makes into the library (an engine, a player, a force
tree) goes through :meth:`Runner.call`: it runs in one of ``workers``
threads (so at most that many run at once; more wait their turn), and the
request gets its answer or, past ``seconds``, a :class:`CallTimeout` (HTTP
408). Engines are also given the time limit themselves, so a call that timed
out stops soon and frees its thread.

>>> import asyncio
>>> runner = Runner(workers=2)
>>> asyncio.run(runner.call(sum, [1, 2, 3], seconds=1.0))
6
>>> runner.close()
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..errors import QubicError


class CallTimeout(QubicError):
    """An engine call that ran past the server's time limit."""


class Runner:
    """A pool of ``workers`` threads for engine calls."""

    def __init__(self, workers: int = 4) -> None:
        self.workers = workers
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="qubic-engine")

    async def call(self, fn: Callable[..., Any], *args: Any, seconds: float, what: str = "the query",
                   **kwargs: Any) -> Any:
        """``fn(*args, **kwargs)`` in a worker thread; :class:`CallTimeout` after ``seconds``
        (waiting for a free worker counts)."""
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self.pool, functools.partial(fn, *args, **kwargs))
        try:
            return await asyncio.wait_for(asyncio.shield(future), seconds)
        except TimeoutError:
            raise CallTimeout(f"{what} took longer than the server's limit of {seconds:g} s; "
                              "ask for less (a bound, fewer nodes) or a faster engine") from None

    def close(self) -> None:
        """Stop taking calls; running ones finish in their threads."""
        self.pool.shutdown(wait=False, cancel_futures=True)
