"""The JSON API under ``/api``: a thin layer over the library (no game logic of its own).

Every request names positions, moves, player names, shipped strategy rule files
or dictionary text, never rules or code of its own. Bad input is answered ``422`` with ``{"error", "field"}``; an
engine call past the time limit ``408``; a verification while another runs
``429``. The schema is at ``/openapi.json`` and browsable at ``/docs``.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from datetime import date
from typing import Annotated, Any, Literal

import anyio
from fastapi import APIRouter, Query, Request
from fastapi.responses import Response, StreamingResponse
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from .. import CORE_NAME, __version__
from ..analysis import analyse
from ..core import threats
from ..engines import ENGINE_NAMES, get_engine
from ..errors import QubicError
from ..forcegraph import MERGES, fold_forced, force_graph
from ..forcetree import EDGE_KINDS, force_tree
from ..geometry import cells_of
from ..hints import hint, verdict
from ..notation import (CELL_FORMS, CellNames, format_cell, format_mcdaniel, named_cells, parse_game, parse_position,
                        read_move, root_of)
from ..players import REGISTRY, make_player, player_names
from ..players.origins import ORIGINS
from ..position import Game
from ..lessons import answer as lesson_answer, in_notation, lesson, lesson_names
from ..puzzles import SOURCES, Answer, answer, daily, generate, winning_first_moves
from ..ratings import shipped_ratings
from ..shipped import DICTIONARIES, STRATEGY_RULES, dictionary_path, strategy_rule_files
from ..render.explorer import explorer_data
from ..render.layout import MAX_EDGES, MAX_ID, MAX_NODES, MAX_SEGMENTS, GraphError, boxes_of, check_graph
from ..review import review, summary
from ..strategy.dictionary import StrategyDictionary
from .boards import board
from .layouts import SECONDS as LAYOUT_SECONDS, ClientGone, ServerStopping
from .verifying import VerificationJob

router = APIRouter(prefix="/api")

MAX_TEXT = 2_000  # characters of a position or game
MAX_DICTIONARY = 500_000  # characters of pasted dictionary text
MAX_SECONDS = 30.0
DEFAULT_SECONDS = 10.0
MAX_TREE_NODES = 5000

PositionText = Annotated[str, Field(
    max_length=MAX_TEXT, examples=["1-2,22-52,27-4"],
    description="a position in any notation: McDaniel 1-2,22-52,27 | Patashnik xo1x8x8o41o | "
    "qubic x...,..../... | moves:0,1,21 | empty")]
Moves = Annotated[list[Annotated[int, Field(ge=0, le=63)]],
                  Field(max_length=64, description="the moves so far, cells 0..63")]
EngineName = Literal["asp", "prolog", "native", "python", "auto"]
Notation = Literal["index", "number", "lrc", "hp67"]
Seconds = Annotated[float, Field(gt=0, le=MAX_SECONDS, description=f"seconds, at most {MAX_SECONDS:g}")]


class InputError(QubicError):
    """Bad input in one field of a request (HTTP 422)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


class Busy(QubicError):
    """The server is already doing the one thing of this kind it does at a time (HTTP 429)."""


def read(field: str, fn, *args: Any) -> Any:
    """``fn(*args)``, with any :class:`QubicError` turned into an :class:`InputError` naming ``field``."""
    try:
        return fn(*args)
    except InputError:
        raise
    except QubicError as exc:
        raise InputError(field, str(exc)) from None


def _runner(request: Request):
    return request.app.state.runner


# ------------------------------------------------------------------ models


class PositionRequest(BaseModel):
    position: PositionText


class WinRequest(PositionRequest):
    engine: EngineName = "auto"
    max_length: Annotated[int, Field(ge=1, le=32)] | None = None
    time_limit: Seconds = DEFAULT_SECONDS


class TreeRequest(WinRequest):
    max_nodes: Annotated[int, Field(ge=1, le=MAX_TREE_NODES)] = 2000
    only_winning: bool = False
    merge: Literal["none", "transpositions", "symmetry"] = "transpositions"
    fold: bool = Field(True, description="fold each threat and its forced reply into one step edge")


NodeId = Annotated[int, Field(ge=0, le=MAX_ID, strict=True)]  # 0.0 or true is not an id
Pixels = Annotated[float, Field(gt=0, le=2000)]


class LayoutRequest(BaseModel):
    nodes: Annotated[list[tuple[NodeId, Pixels, Pixels]],
                     Field(min_length=1, max_length=MAX_NODES,
                           description=f"the boxes to place: [id, width, height] in pixels; ids 0..{MAX_ID}, "
                                       f"each once, at most {MAX_NODES:,} boxes")]
    edges: Annotated[list[tuple[NodeId, NodeId]],
                     Field(max_length=MAX_EDGES,
                           description=f"[from, to] pairs of node ids, each once, no cycle, at most {MAX_EDGES:,}; "
                                       f"an edge counts once per rank it crosses, at most {MAX_SEGMENTS:,} in all")] = []
    rankdir: Literal["TB", "LR"] = "TB"


class GameRequest(BaseModel):
    moves: Moves = []
    text: Annotated[str, Field(max_length=MAX_TEXT)] | None = Field(
        None, description="a saved game (qubic play's format: McDaniel 1-2,22-52,27, moves:0,1,21, or cells)")
    move: Annotated[str, Field(max_length=8)] | None = Field(
        None, description="a move to add, in any cell notation")
    notation: Notation = "index"


class ReplyRequest(BaseModel):
    moves: Moves = []
    player: Annotated[str, Field(max_length=40, description="a registered player name")]
    notation: Notation = Field("index", description="how the explanation writes cells (the response also "
                                                    "holds it in every notation, as explanations)")


class PuzzlesRequest(BaseModel):
    count: Annotated[int, Field(ge=1, le=20)] = 6
    seed: Annotated[int, Field(ge=0, le=2**31)] = 0
    min_length: Annotated[int, Field(ge=1, le=12)] = 3
    max_length: Annotated[int, Field(ge=1, le=12)] = 6
    source: Literal["random", "self-play"] = "random"


class AnswerRequest(PositionRequest):
    left: Annotated[int, Field(ge=1, le=32, description="attacker moves still allowed")]
    move: Annotated[str, Field(max_length=8)]
    notation: Notation = "index"


class LessonAnswer(BaseModel):
    lesson: Annotated[str, Field(max_length=60)]
    exercise: Annotated[int, Field(ge=0, le=100, description="the exercise's index in the lesson")]
    position: PositionText = Field(description="the position now (after the moves played so far)")
    left: Annotated[int, Field(ge=1, le=32, description="attacker moves still allowed (a win)")] = 1
    move: Annotated[str, Field(max_length=8)]
    notation: Notation = "index"


class VerifyRequest(BaseModel):
    dictionary: Literal[tuple(DICTIONARIES)] | None = None  # type: ignore[valid-type]  # the shipped names
    text: Annotated[str, Field(max_length=MAX_DICTIONARY)] | None = Field(
        None, description="a dictionary in Patashnik's format (header, dashed line, 'position move' lines)")
    strategy: Annotated[str, Field(max_length=60)] | None = Field(
        None, examples=["citrenbaum-pdp4.pl", "player:mcdaniel"],
        description="a strategy to verify or refute: a shipped rule file (GET /api/info, 'strategies') "
                    "or a registered player as player:NAME")
    root: PositionText | None = None


# ------------------------------------------------------------------ reading


def game_of(req: GameRequest | ReplyRequest) -> Game:
    """The game of a request: its saved-game text, else its move list."""
    if getattr(req, "text", None) is not None:
        return read("text", parse_game, req.text)
    return read("moves", Game, list(req.moves))


def judged(judge: Callable[..., Answer], *args: Any, form: str) -> dict:
    """The answer ``judge(*args, form)`` as JSON, with its explanation in every cell notation
    (``explanations``, as a player's reply has them): a page changing its notation rewrites what it said.
    A move in a puzzle or a lesson is judged in milliseconds, so judging it once per notation costs little."""
    answers = {f: judge(*args, f) for f in CELL_FORMS}
    return {**answers[form].to_json(), "explanations": {f: a.explanation for f, a in answers.items()}}


def game_state(game: Game, form: str) -> dict:
    """The game as the Play page shows it: moves 0..63, their names in ``form`` (``notation``), and the
    move list written in every notation (``lines``: McDaniel's pairs for ``number``)."""
    names = CellNames(form)
    return {"moves": list(game.moves), "notation": form, "mcdaniel": format_mcdaniel(game.moves),
            "cells": [names.cell(c) for c in game.moves],
            "lines": {f: CellNames(f).line(game.moves) if game.moves else "" for f in CELL_FORMS},
            "position": board(game.position)}


# ------------------------------------------------------------------ endpoints


@router.get("/info", summary="version, core, engines, players and cell names")
def info() -> dict:
    return {"version": __version__, "core": CORE_NAME, "engines": list(ENGINE_NAMES),
            "players": [{"name": n, "summary": REGISTRY[n][1], "origin": ORIGINS.get(n, "")} for n in player_names()],
            "ratings": shipped_ratings(),
            "notations": list(CELL_FORMS),
            "cells": {f: [format_cell(c, f) for c in range(64)] for f in CELL_FORMS},
            "edge_kinds": EDGE_KINDS, "dictionaries": list(DICTIONARIES), "puzzle_sources": list(SOURCES),
            "strategies": strategy_rule_files() + [f"player:{n}" for n in player_names()],
            "limits": {"seconds": MAX_SECONDS, "tree_nodes": MAX_TREE_NODES, "text": MAX_TEXT,
                       "dictionary": MAX_DICTIONARY,
                       "layout": {"nodes": MAX_NODES, "edges": MAX_EDGES, "segments": MAX_SEGMENTS,
                                  "seconds": LAYOUT_SECONDS}}}


class TextRequest(BaseModel):
    text: Annotated[str, Field(max_length=MAX_TEXT, examples=["1-2,22-52,27-4"],
                               description="a position, a game or a cell, as a person typed it")]


@router.post("/notation", summary="the cell notation a typed position, game or cell names its cells in "
                                  "(null when it names none that tell)")
def notation_route(req: TextRequest) -> dict:
    return {"notation": named_cells(req.text)}


@router.post("/show", summary="a position in any notation: marks, threat cells, result")
def show(req: PositionRequest) -> dict:
    return board(read("position", parse_position, req.position))


@router.post("/threats", summary="threat cells, forcing moves and major cells of both sides")
def threats_route(req: PositionRequest) -> dict:
    p = read("position", parse_position, req.position)
    t = threats(p)
    return {"engine": CORE_NAME, "to_move": p.to_move,
            **{s: {"threats": cells_of(t.of(s)),
                   "forcing_moves": cells_of(t.forcing_x if s == "x" else t.forcing_o),
                   "major_cells": cells_of(t.major_x if s == "x" else t.major_o)} for s in ("x", "o")}}


@router.post("/win", summary="shortest forced win by threat sequence (docs/design.md §3), by a chosen engine")
async def win(req: WinRequest, request: Request) -> dict:
    p = read("position", parse_position, req.position)
    engine = read("engine", get_engine, req.engine)
    start = time.perf_counter()
    result = await _runner(request).call(engine.shortest_forced_win, p, req.max_length, req.time_limit,
                                         seconds=req.time_limit + 1, what=f"the {req.engine} engine")
    return {**result.to_json(), "wall_seconds": round(time.perf_counter() - start, 6)}


@router.post("/tree", summary="the force tree, or force graph with transpositions merged")
async def tree(req: TreeRequest, request: Request) -> dict:
    p = read("position", parse_position, req.position)
    if p.is_over:
        raise InputError("position", "the game is over; expected a position with a side to move")
    read("engine", get_engine, req.engine)

    def grow():
        t = force_tree(p, engine=req.engine, max_length=req.max_length, max_nodes=req.max_nodes,
                       only_winning=req.only_winning, time_limit=req.time_limit)
        g = t if req.merge == "none" else force_graph(t, symmetric=req.merge == MERGES[1])
        return fold_forced(g) if req.fold else g

    start = time.perf_counter()
    g = await _runner(request).call(grow, seconds=req.time_limit + 5, what="growing the force tree")
    return {**explorer_data(g), "summary": g.summary(CellNames.of(req.position)),
            "folded_nodes": g.number_of_nodes() if req.fold else None,
            "merge": req.merge, "fold": req.fold, "seconds": round(time.perf_counter() - start, 4)}


@router.post("/layout", summary="Graphviz dot layout of boxes and edges: centres and edge curves in pixels")
async def layout_route(req: LayoutRequest, request: Request) -> dict:
    try:
        boxes = boxes_of(req.nodes)
        check_graph(boxes, req.edges)
    except GraphError as exc:
        raise InputError(exc.field, str(exc).removeprefix(f"{exc.field}: ")) from None
    start = time.perf_counter()
    try:
        laid = await request.app.state.layouts.lay_out(boxes, req.edges, req.rankdir, request.is_disconnected)
    except ClientGone:
        return Response(status_code=499)  # nobody reads it: the client has gone
    return {"nodes": {str(n): xy for n, xy in laid.nodes.items()},
            "edges": [{"source": a, "target": b, "d": d} for (a, b), d in laid.edges.items()],
            "width": laid.width, "height": laid.height, "seconds": round(time.perf_counter() - start, 4)}


@router.post("/game", summary="check a game (and a move added to it); its position and threats")
def game(req: GameRequest) -> dict:
    g = game_of(req)
    if req.move is not None:
        cell = read("move", read_move, req.move, req.notation)
        read("move", g.play, cell)
    return game_state(g, req.notation)


@router.post("/reply", summary="the move a registered player makes in a game, with its explanation")
async def reply(req: ReplyRequest, request: Request) -> dict:
    if req.player not in REGISTRY:
        raise InputError("player",
                         f"unknown player {req.player!r}; expected one of {', '.join(player_names())}")
    g = game_of(req)
    if g.position.is_over:
        raise InputError("moves", "the game is over; expected a game with a move to make")
    player = make_player(req.player)
    side = g.position.to_move
    start = time.perf_counter()
    move = await _runner(request).call(player.choose, g, seconds=MAX_SECONDS, what=f"player {req.player}")
    return {"player": req.player, "side": side, "move": move.cell, "notation": req.notation,
            "explanation": move.explain(req.notation),
            "explanations": {form: move.explain(form) for form in CELL_FORMS},
            "seconds": round(time.perf_counter() - start, 6)}


@router.post("/hint", summary="the side to move's forced win and its first move; else the opponent's "
                              "threatened forced win and the moves that stop it")
async def hint_route(req: GameRequest, request: Request) -> dict:
    g = game_of(req)
    if g.position.is_over:
        raise InputError("moves", "the game is over; expected a game with a move to make")
    text = await _runner(request).call(hint, g, req.notation, seconds=MAX_SECONDS, what="the hint")
    found = await _runner(request).call(get_engine("auto").shortest_forced_win, g.position, None, 5.0,
                                        seconds=MAX_SECONDS, what="the hint")
    seen = await _runner(request).call(analyse, g.position, seconds=MAX_SECONDS, what="the hint")
    them = seen["o" if g.position.to_move == "x" else "x"]
    return {"text": text, "notation": req.notation, "length": found.length, "sequence": list(found.sequence),
            "threat_length": them["win_length"], "threat": them["win"], "defences": seen["defences"]}


@router.post("/analysis", summary="both sides' threats, forcing moves, forced wins, checks, and the defences")
async def analysis_route(req: GameRequest, request: Request) -> dict:
    g = game_of(req)
    found = await _runner(request).call(analyse, g.position, seconds=MAX_SECONDS, what="the analysis")
    return {**found, "verdicts": {f: verdict(found, CellNames(f)) for f in CELL_FORMS}}


@router.post("/review", summary="every move of a game with the engines' verdict (missed or allowed wins, ...)")
async def review_route(req: GameRequest, request: Request) -> dict:
    g = game_of(req)
    reviewed = await _runner(request).call(review, g, seconds=MAX_SECONDS, what="the review")
    return {"moves": [m.to_json(req.notation) for m in reviewed], "summary": summary(reviewed)}


@router.post("/puzzles", summary="'X to move wins in N' puzzles from seeded games")
async def puzzles(req: PuzzlesRequest, request: Request) -> dict:
    if req.min_length > req.max_length:
        raise InputError("min_length", f"{req.min_length} is above max_length {req.max_length}")
    found = await _runner(request).call(generate, req.count, req.seed, req.min_length, req.max_length,
                                        req.source, seconds=MAX_SECONDS, what="generating puzzles")
    return {"puzzles": [{**q.to_json(), "board": board(q.position)} for q in found]}


@router.post("/puzzles/answer", summary="judge a move in a puzzle: solved, continue (the block) or wrong")
async def puzzle_answer(req: AnswerRequest, request: Request) -> dict:
    p = read("position", parse_position, req.position)
    if p.is_over:
        raise InputError("position", "the game is over; expected a puzzle position")
    cell = read("move", read_move, req.move, req.notation)
    read("move", p.play, cell)
    a = await _runner(request).call(judged, answer, p, req.left, cell, form=req.notation, seconds=MAX_SECONDS,
                                    what="checking the answer")
    after = p.play(cell)
    if a["reply"] is not None and not after.is_over:
        after = after.play(a["reply"])
    firsts = (await _runner(request).call(winning_first_moves, after, seconds=MAX_SECONDS, what="the answers"))[1] \
        if a["verdict"] == "continue" else []
    return {**a, "board": board(after), "solutions": firsts}


@router.get("/puzzles/daily", summary="the puzzle of the day: the same for everyone on a date (YYYY-MM-DD)")
async def daily_puzzle(request: Request, day: Annotated[str, Query(alias="date", pattern=r"^\d{4}-\d{2}-\d{2}$",
                                                                       examples=["2026-01-05"])]) -> dict:
    when = read("date", _date, day)
    q = await _runner(request).call(daily, when, seconds=MAX_SECONDS, what="the daily puzzle")
    return {**q.to_json(), "date": when.isoformat(), "board": board(q.position)}


def _date(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise QubicError(f"{text!r} is not a date; expected YYYY-MM-DD") from None


@router.get("/lessons", summary="the lessons: name, title, summary and source of each")
def lessons() -> dict:
    return {"lessons": [{k: lesson(n)[k] for k in ("name", "title", "summary", "source")} for n in lesson_names()]}


@router.get("/lessons/{name}", summary="a lesson: its text (cells written in the notation asked for) and its "
                                      "exercises with their boards")
def lesson_route(name: str, notation: Notation = "number") -> dict:
    data = in_notation(read("name", lesson, name), CellNames(notation))
    return {**data, "notation": notation,
            "exercises": [{**ex, "board": board(parse_position(ex["position"]))} for ex in data["exercises"]]}


@router.post("/lessons/answer", summary="judge a move in a lesson's exercise: solved, continue or wrong")
async def lesson_answer_route(req: LessonAnswer, request: Request) -> dict:
    data = read("lesson", lesson, req.lesson)
    if req.exercise >= len(data["exercises"]):
        raise InputError("exercise", f"lesson {req.lesson} has {len(data['exercises'])} exercises; "
                                     f"expected 0..{len(data['exercises']) - 1}")
    exercise = data["exercises"][req.exercise]
    p = read("position", parse_position, req.position)
    if p.is_over:
        raise InputError("position", "the game is over; expected an exercise position")
    cell = read("move", read_move, req.move, req.notation)
    read("move", p.play, cell)
    a = await _runner(request).call(judged, lesson_answer, exercise, p, req.left, cell, form=req.notation,
                                    seconds=MAX_SECONDS, what="checking the answer")
    after = p.play(cell)
    if a["reply"] is not None and not after.is_over:
        after = after.play(a["reply"])
    return {**a, "board": board(after)}


@router.get("/dictionaries", summary="the shipped strategy dictionaries")
def dictionaries() -> dict:
    return {"dictionaries": [{"name": name, "entries": len(StrategyDictionary.load(dictionary_path(name)))}
                             for name in DICTIONARIES]}


def strategy_source(name: str) -> str:
    """The source the judge loads for a strategy named in a request: a shipped rule file or a player.

    Only names are accepted: a request never brings rules of its own.
    """
    if name in strategy_rule_files():
        return str(STRATEGY_RULES / name)
    player = name.removeprefix("player:")
    if name.startswith("player:") and player in player_names():
        return name
    raise InputError("strategy", f"unknown strategy {name[:60]!r}; expected one of "
                                 f"{', '.join(strategy_rule_files())} or player:NAME with NAME one of "
                                 f"{', '.join(player_names())}")


def _event(kind: str, data: dict) -> str:
    return f"event: {kind}\ndata: {json.dumps(data)}\n\n"


@router.post("/verify", summary="verify a strategy dictionary or a strategy (shipped rules or a player): "
                                "progress and result as server-sent events",
             response_class=StreamingResponse,
             responses={200: {"content": {"text/event-stream": {}},
                              "description": "events 'progress' {phase, done, total}, then 'result' "
                                             "(a dictionary's verification with failures drawn as boards, or a "
                                             "strategy's verdict with its refuting game and final board) or "
                                             "'error'"}})
async def verify_route(req: VerifyRequest, request: Request) -> StreamingResponse:
    if sum(x is not None for x in (req.dictionary, req.text, req.strategy)) != 1:
        raise InputError("dictionary", "give one of: the name of a shipped dictionary, a dictionary's text, "
                                       "or a strategy")
    if request.app.state.stopping:
        raise ServerStopping("the server is stopping")
    lock: threading.Lock = request.app.state.verifying
    if not lock.acquire(blocking=False):  # taken at once, before any parsing: a second request is refused
        raise Busy("a verification is already running; wait for it to finish")
    try:
        path = None if req.dictionary is None else str(dictionary_path(req.dictionary))
        source = None if req.strategy is None else strategy_source(req.strategy)
        await run_in_threadpool(_check_request, req, source)  # a pasted dictionary is parsed off the event loop
        job = VerificationJob(req.text, path, req.root, source)
    except BaseException:
        lock.release()
        raise
    return VerificationStream(job, request, lock)


def _check_request(req: VerifyRequest, source: str | None) -> None:
    """Refuse a request whose dictionary text or root cannot be read, or whose root is over."""
    d = read("text", StrategyDictionary.parse, req.text, "the pasted dictionary") if req.text is not None else None
    if req.root:
        root = read("root", root_of, req.root)[0] if source else read("root", parse_position, req.root)
    else:
        root = read("text", lambda: d.root) if d else None
    if root is not None and root.is_over:
        raise InputError("root", "the root position is already over; expected a live position")


class VerificationStream(StreamingResponse):
    """The events of one verification; however the response ends (finished, client gone, server
    stopping), its job is stopped and the server's one-verification lock released."""

    def __init__(self, job: VerificationJob, request: Request, lock: threading.Lock) -> None:
        self.job, self.lock, self.jobs = job, lock, request.app.state.jobs
        self.jobs.add(job)
        self.over = False

        async def gone() -> bool:  # the client left, or the server is stopping
            return request.app.state.stopping or await request.is_disconnected()

        async def events():
            try:
                async for kind, data in job.run(gone):  # (it stops the job as it ends)
                    yield _event(kind, data)
            finally:
                self._over()  # before the response's end: a client that saw it end may ask again at once

        super().__init__(events(), media_type="text/event-stream", headers={"Cache-Control": "no-cache"})

    def _over(self) -> None:
        """The job has ended: forget it and free the server for the next verification (once)."""
        if not self.over:
            self.over = True
            self.jobs.discard(self.job)
            self.lock.release()

    async def __call__(self, scope, receive, send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            with anyio.CancelScope(shield=True):
                await run_in_threadpool(self.job.stop)
            self._over()
