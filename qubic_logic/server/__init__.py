"""``qubic serve``: the library in a browser, and as a JSON API for scripts.

:func:`create_app` builds the ASGI application (FastAPI on Starlette, run by
uvicorn): the API under ``/api`` (:mod:`.api`, documented at ``/docs`` and
``/openapi.json``) and four pages written here in plain HTML, CSS and
JavaScript (``static/``): Play, Analyse, Puzzles and Verify. Nothing is
loaded from the network.
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    """``create_app``, imported when first asked for: a verification's process imports this package
    for its own module only, without the web framework."""
    if name != "create_app":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from .app import create_app

    return create_app
