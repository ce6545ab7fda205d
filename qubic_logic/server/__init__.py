"""``qubic serve``: the library in a browser, and as a JSON API for scripts.

:func:`create_app` builds the ASGI application (FastAPI on Starlette, run by
uvicorn): the API under ``/api`` (:mod:`.api`, documented at ``/docs`` and
``/openapi.json``) and four pages written here in plain HTML, CSS and
JavaScript (``static/``): Play, Analyse, Puzzles and Verify. Nothing is
loaded from the network.
"""

from __future__ import annotations

from .app import create_app

__all__ = ["create_app"]
