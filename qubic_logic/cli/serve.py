"""``qubic serve``: the pages (Home, Play, Puzzles, Lessons, Analyse, Verify) and the JSON API in a browser.

Binds to 127.0.0.1 unless ``--host`` says otherwise (then it warns: the
server has no accounts and runs engines for whoever asks). ``--port 0``
takes a free port; the first line printed is the address. Ctrl-C (or SIGTERM) stops it: running
verifications and layouts are ended, and the process exits at once. A connection must
bring each request whole within ``--request-timeout`` seconds (idle and slow
clients are closed), an idle kept-alive one is closed after 5 s, and past the
connection limit (from the open-file limit) a request is answered 503 at once.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import resource
import socket
import sys
import threading
import webbrowser

from ..errors import QubicError
from ._common import non_negative_int, positive_int, seconds
from ._terminal import plain, say

LOOPBACK = "127.0.0.1"
KEEP_ALIVE = 5  # seconds an idle kept-alive connection stays open after a response
REQUEST_SECONDS = 10.0  # default seconds for a request to arrive whole (--request-timeout)
MAX_CONNECTIONS = 1000
RESERVED_FILES = 64  # descriptors kept for the server's own files, workers and pipes
ACCEPTS = 32  # connections taken at once from the listening socket (its backlog): each pass of the event
# loop accepts up to this many before any is looked at, so they are kept out of the limit


def is_loopback(host: str) -> bool:
    """Is ``host`` a loopback address (or ``localhost``)?

    >>> is_loopback('127.0.0.1'), is_loopback('::1'), is_loopback('localhost'), is_loopback('0.0.0.0')
    (True, True, True, False)
    """
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def port(text: str) -> int:
    """argparse type: a TCP port 0..65535 (0: a free one).

    >>> port('8765')
    8765
    """
    value = non_negative_int(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port; expected 0..65535 (0: a free one)")
    return value


def connection_limit() -> int:
    """Connections (and requests) served at once, from the open-file limit (raised to its hard limit
    first): beyond it a connection is answered 503 at once instead of the server running out of
    descriptors.

    >>> connection_limit() >= 32
    True
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        wanted = 65536 if hard == resource.RLIM_INFINITY else hard
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, wanted), hard))
            soft = max(soft, wanted)
        except (ValueError, OSError):
            pass
    return max(32, min(MAX_CONNECTIONS, soft - RESERVED_FILES - ACCEPTS))


def run(args: argparse.Namespace) -> int:
    from ..server.verifying import warm_up

    warm_up()  # first: the verifications' fork server imports their code while this process imports its own
    import uvicorn

    from ..server import create_app
    from ..server.app import stop
    from ..server.connections import guarded_protocol

    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    # IPPROTO_TCP named, not 0: asyncio sets TCP_NODELAY only on sockets that say they are TCP, and
    # without it a kept-alive connection waits ~40 ms (Nagle + delayed ACK) between a response's parts
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((args.host, args.port))
    except OSError as exc:
        sock.close()
        raise QubicError(f"cannot listen on {args.host}:{args.port}: {exc.strerror}; expected a local "
                         "address for --host and a free --port (0 takes a free one)") from None
    host, port = sock.getsockname()[:2]
    url = f"http://{'[' + host + ']' if ':' in host else host}:{port}/"
    say(f"qubic serve: {url} (pages: play, puzzles, lessons, analyse, verify; API at {url}api); "
          "Ctrl-C stops", flush=True)
    if not is_loopback(args.host):
        say(f"qubic serve: warning: listening on {args.host}, not on loopback: anyone who can reach "
              "this machine can use the server (and its CPU)", file=sys.stderr, flush=True)
    if args.open:
        threading.Timer(0.5, webbrowser.open, (url,)).start()
    app = create_app(workers=args.workers)

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame) -> None:
            stop(app)  # a running verification or layout would hold its connection open
            super().handle_exit(sig, frame)

    limit = connection_limit()
    config = uvicorn.Config(app, log_level="warning", access_log=args.access_log, timeout_graceful_shutdown=2,
                            http=guarded_protocol(args.request_timeout or float("inf"), limit),
                            timeout_keep_alive=KEEP_ALIVE, limit_concurrency=limit, backlog=ACCEPTS)
    try:
        Server(config).run(sockets=[sock])
    except KeyboardInterrupt:
        if not args.own_process:
            raise
        _exit_now("qubic serve: stopped", 130)
    if args.own_process:
        _exit_now("qubic serve: stopped", 0)
    return 0


def _exit_now(message: str, status: int) -> None:
    """End the process at once: the server has shut down (connections closed, verifications and layouts
    stopped, workers told to go), and tearing down the interpreter's modules would take seconds more, as would
    waiting for an engine call still running in a thread."""
    import gc

    gc.collect()  # what the verifications left (their queues' semaphores) is released, not reported leaked
    say(message, file=sys.stderr)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("serve", description=plain(__doc__))
    parser.add_argument("--port", type=port, default=8765,
                        help="port (default 8765; 0: a free one)")
    parser.add_argument("--host", default=LOOPBACK, help=f"address to listen on (default {LOOPBACK})")
    parser.add_argument("--open", action="store_true", help="open the Play page in the default browser")
    parser.add_argument("--workers", type=positive_int, default=4,
                        help="engine calls run at once; more wait their turn (default 4)")
    parser.add_argument("--access-log", action="store_true", help="print one line per request")
    parser.add_argument("--request-timeout", type=seconds, default=REQUEST_SECONDS, metavar="SEC",
                        help="close a connection whose next request has not arrived whole within SEC seconds "
                             f"(idle and slow clients; default {REQUEST_SECONDS:g})")
    parser.set_defaults(func=run)
