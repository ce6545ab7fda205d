"""The ASGI application: the API router, the pages, the safety rails.

* request bodies over :data:`MAX_BODY` bytes are refused (413) before they are read;
* bad input is answered 422 with ``{"error": ..., "field": ...}``;
* an engine call or a layout past its time limit 408, a second verification at once 429;
* a request cut short by the server stopping 503;
* anything unexpected 500 with a one-line JSON error, never a traceback;
* an unknown page is answered by a page that says so (404), an unknown ``/api`` path by JSON.

>>> sorted(p for p in create_app().openapi()['paths'] if p.startswith('/api/p'))
['/api/puzzles', '/api/puzzles/answer', '/api/puzzles/daily']
"""

from __future__ import annotations

import threading
from contextlib import asynccontextmanager
from importlib.resources import files
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Receive, Scope, Send

from .. import __version__
from ..errors import QubicError, QueryTimeout
from .api import Busy, InputError, router
from .layouts import Layouts, ServerStopping
from .runner import CallTimeout, Runner
from .verifying import warm_up

MAX_BODY = 1_000_000  # bytes
PAGES = ("play", "analyse", "puzzles", "verify", "api", "lessons")
STATIC = Path(str(files("qubic_logic") / "server" / "static"))


def _error(status: int, message: str, field: str | None = None) -> JSONResponse:
    return JSONResponse({"error": message, "field": field}, status_code=status)


class BodyLimit:
    """ASGI middleware: refuse request bodies over ``limit`` bytes (413), declared or streamed.

    The body is read in full (at most ``limit`` bytes) before the application sees it.
    """

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        too_big = _error(413, f"request body over {self.limit:,} bytes; send less", "body")
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            return await too_big(scope, receive, send)
        chunks, size, more = [], 0, True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            more = message.get("more_body", False)
            if size > self.limit:
                return await too_big(scope, receive, send)
        first = {"type": "http.request", "body": b"".join(chunks), "more_body": False}

        async def replay() -> dict:
            nonlocal first
            if first is not None:
                message, first = first, None
                return message
            return await receive()

        await self.app(scope, replay, send)


def _field(loc: tuple) -> str:
    parts = [str(p) for p in loc if p not in ("body", "query", "path")]
    return ".".join(parts) or "body"


def create_app(workers: int = 4) -> FastAPI:
    """The application; ``workers`` engine calls run at once (more wait their turn)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        warm_up()  # verifications start from a process ready before the first request
        yield
        stop(app)
        app.state.runner.close()

    app = FastAPI(title="qubic-logic", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None,
                  description="4x4x4 tic-tac-toe (Qubic): positions, threats, forced wins by three engines, "
                  "force graphs, players, puzzles and strategy verification. Positions, moves, player names "
                  "and dictionary text only; errors are JSON objects {error, field}.")
    app.state.runner = Runner(workers)
    app.state.layouts = Layouts()  # dot processes: apart from the engines' workers
    app.state.verifying = threading.Lock()  # one verification at a time: a second is refused (429)
    app.state.jobs = set()
    app.state.stopping = False  # set when the server stops: no verification or layout starts after it
    app.include_router(router)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0]
        field = _field(tuple(first.get("loc", ())))
        message = first.get("msg", "invalid")
        if first.get("type") == "json_invalid":
            field, message = "body", "the request body is not valid JSON; expected one JSON object"
        return _error(422, f"{field}: {message}", field)

    @app.exception_handler(InputError)
    async def bad_input(_: Request, exc: InputError) -> JSONResponse:
        return _error(422, str(exc), exc.field)

    @app.exception_handler(CallTimeout)
    @app.exception_handler(QueryTimeout)
    async def timeout(_: Request, exc: QubicError) -> JSONResponse:
        return _error(408, str(exc), "time_limit")

    @app.exception_handler(ServerStopping)
    async def stopping(_: Request, exc: ServerStopping) -> JSONResponse:
        return _error(503, str(exc))

    @app.exception_handler(Busy)
    async def busy(_: Request, exc: Busy) -> JSONResponse:
        return _error(429, str(exc))

    @app.exception_handler(QubicError)
    async def qubic_error(_: Request, exc: QubicError) -> JSONResponse:
        return _error(422, str(exc))

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        if exc.status_code == 404 and not request.url.path.startswith("/api"):
            return HTMLResponse((STATIC / "404.html").read_text(), status_code=404)
        return _error(exc.status_code, str(exc.detail))

    @app.exception_handler(Exception)
    async def internal(_: Request, exc: Exception) -> JSONResponse:
        return _error(500, f"internal error: {type(exc).__name__}; please report it")

    app.add_api_route("/", _page("home"), include_in_schema=False)

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> FileResponse:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    for page in PAGES:
        app.add_api_route(f"/{page}", _page(page), include_in_schema=False)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(BodyLimit)
    return app


def stop(app: FastAPI) -> None:
    """The server is stopping: running verifications and layouts end now, and none starts after this."""
    app.state.stopping = True
    for job in list(app.state.jobs):
        job.stop()
    app.state.layouts.stop()


def _page(name: str):
    def page() -> FileResponse:
        return FileResponse(STATIC / f"{name}.html", media_type="text/html")

    return page
