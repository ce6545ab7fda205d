"""Lessons: short pages of text, each ending in positions the student solves, checked by the engines.

A lesson is a JSON file in ``qubic_logic/data/lessons/`` (a teacher adds one
by adding a file): ``title``, ``summary``, ``source`` (the document it is
drawn from), ``paragraphs`` (text with ``*emphasis*``, ``**strong**`` and
```code``` marks) and ``exercises``, each with a ``position`` (any notation),
a ``prompt`` and a ``kind``:

* ``win``: the side to move wins by force in ``moves`` moves; every move must
  keep the forced win and the defender's forced blocks are played
  (:func:`qubic_logic.puzzles.answer`);
* ``defend``: the side to move must stop the opponent's threatened forced win
  (:func:`qubic_logic.analysis.defences`);
* ``strategic``: X plays Patashnik's dictionary move (up to symmetry).

Cells in the text (paragraphs and prompts) are written in braces in McDaniel's
numbering 1..64 — a cell ``{17}``, cells ``{1 6 11 16}``, a line of moves
``{1-2,22-52,27}`` — and each reader sees them in the notation they chose
(:func:`written`).

>>> names = lesson_names()
>>> names[0], len(names) >= 6
('01-lines-and-planes', True)
>>> from qubic_logic.notation import parse_position
>>> answer({'kind': 'defend'}, parse_position('1-2,22-52,27'), 1, 5).verdict
'solved'
>>> answer({'kind': 'defend'}, parse_position('1-2,22-52,27'), 1, 6).explanation[:36]
'X still wins by force in 6 after O 6'
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib.resources import files

from .analysis import defences, win_of
from .errors import DataFormatError, NotationError, QubicError
from .notation import CellNames, format_cell, parse_cell, parse_mcdaniel, parse_position
from .position import Position, other
from .puzzles import Answer
from .puzzles import answer as puzzle_answer
from .strategy.dictionary import patashnik_dictionary
from .review import same_move

KINDS = ("win", "defend", "strategic")
FOLDER = files("qubic_logic") / "data" / "lessons"


def lesson_names() -> list[str]:
    """The names of the shipped lessons (their file names without ``.json``), in order."""
    return sorted(f.name.removesuffix(".json") for f in FOLDER.iterdir() if f.name.endswith(".json"))


@cache
def lesson(name: str) -> dict:
    """The lesson ``name``, checked: every field present, every position readable, every kind known."""
    if name not in lesson_names():
        raise QubicError(f"unknown lesson {name[:60]!r}; expected one of {', '.join(lesson_names())}")
    where = f"lesson {name}"
    try:
        data = json.loads((FOLDER / f"{name}.json").read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise DataFormatError(f"{where}: not JSON ({exc.msg}, line {exc.lineno})") from None
    for key in ("title", "summary", "source", "paragraphs", "exercises"):
        if key not in data:
            raise DataFormatError(f"{where}: no {key!r}; expected title, summary, source, paragraphs, exercises")
    for text in [*data["paragraphs"], *(ex.get("prompt", "") for ex in data["exercises"])]:
        try:
            written(text, CellNames("index"))
        except QubicError as exc:
            raise DataFormatError(f"{where}: {exc}") from None
    for n, ex in enumerate(data["exercises"], start=1):
        if ex.get("kind") not in KINDS:
            raise DataFormatError(f"{where}, exercise {n}: kind {ex.get('kind')!r}; expected one of {', '.join(KINDS)}")
        if ex["kind"] == "win" and not isinstance(ex.get("moves"), int):
            raise DataFormatError(f"{where}, exercise {n}: a win needs 'moves', the length of the forced win")
        parse_position(ex["position"])
    return {"name": name, **data}


MARK = re.compile(r"\{([^{}]*)\}")


def written(text: str, names: CellNames) -> str:
    """A lesson's ``text`` with the cells in braces (McDaniel's 1..64) written in ``names``.

    >>> written('after `{1-2,22}` X holds {1} and {22} of {1 6 11 16}', CellNames('index'))
    'after `0 1 21` X holds 0 and 21 of 0 5 10 15'
    >>> written('{1-2,22}, {64}', CellNames('number')), written('{64}', CellNames('lrc'))
    ('1-2,22, 64', '444')
    >>> written('{65}', CellNames('index'))
    Traceback (most recent call last):
    ...
    qubic_logic.errors.NotationError: cells in braces are McDaniel's 1..64: '65' is out of range for a cell number; expected 1..64
    """
    def cells(mark: re.Match) -> str:
        inside = mark.group(1)
        if not inside.strip():
            raise NotationError("empty braces; cells in braces are McDaniel's 1..64, e.g. {17} or {1-2,22}")
        try:
            if re.search(r"[-,]", inside):
                return names.line(parse_mcdaniel(inside))
            return names.cells(parse_cell(t, "number") for t in inside.split())
        except QubicError as exc:
            raise NotationError(f"cells in braces are McDaniel's 1..64: {exc}") from None

    return MARK.sub(cells, text)


def in_notation(data: dict, names: CellNames) -> dict:
    """A lesson (as :func:`lesson` gives it) with its paragraphs and prompts written in ``names``."""
    return {**data, "paragraphs": [written(t, names) for t in data["paragraphs"]],
            "exercises": [{**ex, "prompt": written(ex.get("prompt", ""), names)} for ex in data["exercises"]]}


def answer(exercise: dict, position: Position, left: int, move: int, form: str = "index") -> Answer:
    """Judge ``move`` in an exercise's ``position`` (``left``: attacker moves still allowed, for a win)."""
    if exercise["kind"] == "win":
        return puzzle_answer(position, left, move, form)
    position.play(move)  # raises for an occupied cell
    side, them = position.to_move.upper(), other(position.to_move)
    cell = lambda c: format_cell(c, form)
    if exercise["kind"] == "defend":
        if move in defences(position):
            return Answer("solved", move, None, 0, f"{side} {cell(move)} stops {them.upper()}'s forced win")
        after = position.play(move)
        win = win_of(after, them)
        line = CellNames(form).line(win.sequence)
        return Answer("wrong", move, win.sequence[0] if win.sequence else None, left,
                      f"{them.upper()} still wins by force in {win.length} after {side} {cell(move)}: {line}")
    book = patashnik_dictionary().move_for(position)
    if book is None:
        raise QubicError("this position is not in Patashnik's dictionary; expected one of his positions")
    if same_move(position, move, book):
        return Answer("solved", move, None, 0, f"{side} {cell(move)} is Patashnik's strategic move (up to symmetry)")
    return Answer("wrong", move, None, left, f"Patashnik's dictionary plays {cell(book)} here (or a cell the same "
                                             "up to the board's symmetries)")
