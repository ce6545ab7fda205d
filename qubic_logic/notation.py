"""Notations for cells, move lists and positions (docs/design.md §1).

Cell forms (the cell of x=0, y=1, z=3 in each):

========== ================================== =======
form       meaning                             example
========== ================================== =======
``index``  ``x + 4y + 16z``, 0..63 (Patashnik)  ``52``
``number`` index + 1, 1..64 (McDaniel, Doake)   ``53``
``lrc``    level-row-column digits 1..4         ``421``
``hp67``   Stein's HP-67 ``.zyx``               ``.421``
========== ================================== =======

Position forms:

* ``qubic`` — the project's own notation: the four levels (z = 0..3) separated
  by ``/``, each level's four rows (y = 0..3) separated by ``,``, each row four
  characters ``x``, ``o`` or ``.`` for x = 0..3. It round-trips exactly.
  Example: ``x..o,....,....,x.../....,.o..,....,..../....,....,....,..../....,....,....,...o``.
* ``patashnik`` — run-length strings from Patashnik's dictionary
  (``xo1x8x8o41o``; digits are runs of empty cells, trailing empties omitted).
* ``mcdaniel`` — McDaniel's move lists in 1..64 numbering, ``X-O`` pairs
  separated by commas (``1-2,22-52,27``).
* ``moves`` — moves in 0..63 order after the prefix ``moves:`` (``moves:0,1,21``).
* ``empty`` — the empty board.

Any form may be forced with a prefix such as ``patashnik:x14o``.

>>> format_cell(52, 'lrc'), format_cell(52, 'hp67'), parse_cell('.421')
('421', '.421', 52)
>>> p = parse_position('1-2,22-52,27')
>>> format_position(p, 'patashnik')
'xo19x4x24o'
>>> parse_position(format_position(p)) == p
True

One rule names cells in every answer: the notation of the user's input
(:func:`input_notation`), unless ``--notation`` says otherwise. A
:class:`CellNames` writes cells and move lines in it; JSON keeps 0..63.

>>> names = CellNames.of('1-2,22-52,27-4')
>>> names.form, names.cell(63), names.line([42, 63, 10])
('number', '64', '43-64,11')
>>> CellNames.of('moves:0,1,21').line([42, 63, 10]), CellNames.of('.231 .322').cell(63)
('42 63 10', '.444')
"""

from __future__ import annotations

import re

from dataclasses import dataclass
from typing import Iterable

from .errors import IllegalMoveError, NotationError, QubicError
from .geometry import cell_at, coords
from .position import Game, Position

CELL_FORMS = ("index", "number", "lrc", "hp67")
POSITION_FORMS = ("qubic", "patashnik", "mcdaniel", "moves", "empty")

_EXPECT_CELL = (
    "expected a cell as 0..63 (index), 1..64 (number), level-row-column digits "
    "1..4 such as 421 (lrc), or HP-67 .zyx such as .421 (hp67)"
)


def format_cell(cell: int, form: str = "index") -> str:
    """Write a cell in one of :data:`CELL_FORMS`."""
    if form not in CELL_FORMS:
        raise NotationError(f"unknown cell form {form!r}; expected one of {', '.join(CELL_FORMS)}")
    if not isinstance(cell, int) or not 0 <= cell <= 63:
        raise NotationError(f"{cell!r} is not a cell; expected 0..63")
    if form == "index":
        return str(cell)
    if form == "number":
        return str(cell + 1)
    x, y, z = coords(cell)
    digits = f"{z + 1}{y + 1}{x + 1}"
    return digits if form == "lrc" else "." + digits


def parse_cell(text: str, form: str | None = None) -> int:
    """Read a cell; with ``form=None`` the form is detected where that is unambiguous.

    A bare number 1..63 may be an index or a 1..64 number, so it needs ``form``.

    >>> parse_cell('22', 'number'), parse_cell('64'), parse_cell('0')
    (21, 63, 0)
    """
    s = text.strip()
    if form is not None and form not in CELL_FORMS:
        raise NotationError(f"unknown cell form {form!r}; expected one of {', '.join(CELL_FORMS)}")
    if form in (None, "hp67") and re.fullmatch(r"\.[1-4]{3}", s):
        z, y, x = (int(ch) - 1 for ch in s[1:])
        return cell_at(x, y, z)
    if form == "hp67":
        raise NotationError(f"{shown(text)} is not an HP-67 cell; expected .zyx with digits 1..4, e.g. .421")
    if form in (None, "lrc") and re.fullmatch(r"[1-4]{3}", s):
        z, y, x = (int(ch) - 1 for ch in s)
        return cell_at(x, y, z)
    if form == "lrc":
        raise NotationError(f"{shown(text)} is not a level-row-column cell; expected three digits 1..4, e.g. 421")
    if not re.fullmatch(r"[0-9]{1,2}", s):  # (ASCII digits only: \d also matches Arabic-Indic and other digits)
        raise NotationError(f"{shown(text)} is not a cell; {_EXPECT_CELL}")
    n = int(s)
    if form == "index":
        if n > 63:
            raise NotationError(f"{shown(text)} is out of range for an index; expected 0..63")
        return n
    if form == "number":
        if not 1 <= n <= 64:
            raise NotationError(f"{shown(text)} is out of range for a cell number; expected 1..64")
        return n - 1
    if n == 0:
        return 0
    if n == 64:
        return 63
    if n > 64:
        raise NotationError(f"{shown(text)} is not a cell; {_EXPECT_CELL}")
    raise NotationError(
        f"{shown(text)} is ambiguous: it may be index {n} (0..63) or number {n} (1..64, cell {n - 1}); "
        "say which notation (index or number), or write it as level-row-column digits"
    )


def read_move(text: str, notation: str) -> int:
    """A cell typed by the user: any cell notation, bare numbers in ``notation``.

    >>> read_move('.421', 'index'), read_move('421', 'index'), read_move('53', 'number'), read_move('5', 'index')
    (52, 52, 52, 5)
    """
    s = text.strip()
    if re.fullmatch(r"\d{1,2}", s) and notation in ("index", "number"):
        return parse_cell(s, notation)
    return parse_cell(s)


def shown(text: str, limit: int = 60) -> str:
    """``text`` quoted for an error message, cut at a word within ``limit`` characters, with its
    length (1 MB in is not 1 MB out).

    >>> shown('1-2,' * 30)
    "'1-2,1-2,1-2,1-2,1-2,1-2,1-2,1-2,1-2,1-2,1-2,1-2,1-2,1-2,1-2,…' (120 characters)"
    >>> shown('a long sentence of many words ' * 3, 20)
    "'a long sentence of …' (90 characters)"
    """
    if len(text) <= limit:
        return repr(text)
    return f"{cut_at_word(text, limit)!r}"[:-1] + f"…' ({len(text)} characters)"


def cut_at_word(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters after a space, comma or dash (mid-word only if
    there is none in the second half).

    >>> cut_at_word('one two three', 9)
    'one two '
    """
    if len(text) <= limit:
        return text
    head = text[:limit]
    end = max(head.rfind(ch) for ch in " ,-/;")
    return head[: end + 1] if end >= limit // 2 else head


def input_notation(text: str) -> str:
    """The cell notation (one of :data:`CELL_FORMS`) a user's cell, move list or position is written in.

    McDaniel's move lists and numbers above 63 name cells 1..64 (``number``); ``moves:``, Patashnik's
    and the project's notations use 0..63 (``index``); cells written ``.zyx`` are ``hp67``, three
    digits 1..4 ``lrc``.

    >>> [input_notation(t) for t in ('1-2,22-52,27', 'moves:0,1,21', '.231 .322', '231 322', 'xo1x', '64')]
    ['number', 'index', 'hp67', 'lrc', 'index', 'number']
    """
    s = text.strip()
    prefix, sep, rest = s.partition(":")
    if sep and prefix.lower() in POSITION_FORMS:
        return "number" if prefix.lower() == "mcdaniel" else "index"
    tokens = s.split()
    if tokens and all(re.fullmatch(r"\.[1-4]{3}", t) for t in tokens):
        return "hp67"
    if tokens and all(re.fullmatch(r"[1-4]{3}", t) for t in tokens):
        return "lrc"
    if re.fullmatch(r"[\d\s]*[-,][\d,\-\s]*", s) or s == "64":
        return "number"
    return "index"


def named_cells(text: str) -> str | None:
    """The cell notation ``text`` names its cells in, or None when it names none that tell.

    Like :func:`input_notation`, but a position that names no cells (Patashnik's run lengths, the
    qubic notation, ``empty``) and a bare number (index or number?) say nothing: a page reading
    them keeps the notation its reader chose.

    >>> [named_cells(t) for t in ('1-2,22', 'mcdaniel:1-2', 'moves:0,1', '.231', '231 322', 'xo1x', '37', 'empty')]
    ['number', 'number', 'index', 'hp67', 'lrc', None, None, None]
    """
    s = text.strip()
    prefix, sep, _ = s.partition(":")
    if sep and prefix.lower() in ("patashnik", "qubic", "empty"):
        return None
    if not sep and (re.fullmatch(r"[0-9]{1,2}", s) or s in ("", "empty") or "/" in s or re.search(r"[xo]", s)):
        return None
    form = input_notation(s)
    return None if form == "index" and not sep else form


@dataclass(frozen=True, slots=True)
class CellNames:
    """How answers name cells: one of :data:`CELL_FORMS` (see the module docstring).

    A ``line`` of moves (own move, reply, own move, ...) is McDaniel's ``X-O`` pairs in the
    ``number`` notation, the cells separated by spaces in the others.
    """

    form: str = "index"

    def __post_init__(self) -> None:
        if self.form not in CELL_FORMS:
            raise NotationError(f"unknown cell notation {shown(self.form)}; expected one of {', '.join(CELL_FORMS)}")

    @classmethod
    def of(cls, text: str, override: str | None = None) -> "CellNames":
        """The names for answers to ``text``: ``override`` if given, else the notation ``text`` uses."""
        return cls(override or input_notation(text))

    def cell(self, cell: int) -> str:
        """One cell."""
        return format_cell(cell, self.form)

    def cells(self, cells: Iterable[int]) -> str:
        """Cells separated by spaces (``none`` for no cells)."""
        return " ".join(self.cell(c) for c in cells) or "none"

    def line(self, moves: Iterable[int]) -> str:
        """A line of moves: McDaniel's pairs in ``number``, else cells separated by spaces."""
        moves = list(moves)
        return format_mcdaniel(moves) if self.form == "number" else self.cells(moves)

    def all(self) -> list[str]:
        """The names of cells 0..63 in order."""
        return [self.cell(c) for c in range(64)]


def replay(cells: Iterable[int], names: CellNames) -> Game:
    """The game of ``cells`` (0..63) played in order; an illegal move is named as the user wrote it.

    >>> replay([0, 1, 21, 1], CellNames('number'))
    Traceback (most recent call last):
    ...
    qubic_logic.errors.IllegalMoveError: move 4: cell 2 is already taken by O
    """
    game = Game()
    for i, cell in enumerate(cells, 1):
        mark = game.position.at(cell)
        if mark != ".":
            raise IllegalMoveError(f"move {i}: cell {names.cell(cell)} is already taken by {mark.upper()}")
        try:
            game.play(cell)
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"move {i} ({names.cell(cell)}): {exc}") from None
    return game


def parse_mcdaniel(text: str) -> list[int]:
    """Cells (0..63) of a McDaniel move list such as ``1-2,22-52,27``.

    >>> parse_mcdaniel('1-4, 22-53')
    [0, 3, 21, 52]
    >>> parse_mcdaniel('1-2 3')  # a space inside a move is no separator
    Traceback (most recent call last):
    ...
    qubic_logic.errors.NotationError: '1-2 3' is not a McDaniel move list; expected X-O pairs of cells 1..64 separated by commas, e.g. 1-2,22-52,27 (one O move per pair)
    """
    s = re.sub(r"\s*([-,])\s*", r"\1", text.strip())  # spaces around '-' and ',' only
    if not re.fullmatch(r"[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*,?", s):
        raise NotationError(
            f"{shown(text)} is not a McDaniel move list; expected X-O pairs of cells 1..64 "
            "separated by commas, e.g. 1-2,22-52,27 (one O move per pair)"
        )
    items = s.strip(",").split(",")
    lone = [item for item in items[:-1] if "-" not in item]
    if lone:
        raise NotationError(
            f"{shown(text)}: the move pairs do not line up at {shown(lone[0])}; every item but the last "
            "is an X-O pair, e.g. 1-2,22-52,27"
        )
    cells = []
    for token in re.split(r"[-,]", s.strip(",")):
        n = int(token) if len(token) <= 3 else 0
        if not 1 <= n <= 64:
            raise NotationError(f"move {shown(token)} in {shown(text)} is out of range; McDaniel cells are 1..64")
        cells.append(n - 1)
    return cells


def format_mcdaniel(moves: list[int]) -> str:
    """Write moves (0..63) as a McDaniel list.

    >>> format_mcdaniel([0, 3, 21])
    '1-4,22'
    """
    pairs = [moves[i : i + 2] for i in range(0, len(moves), 2)]
    return ",".join("-".join(str(c + 1) for c in pair) for pair in pairs)


def parse_patashnik(text: str) -> Position:
    """A position from Patashnik's run-length string.

    >>> parse_patashnik('x14o').o == 1 << 15
    True
    >>> parse_patashnik('x99')
    Traceback (most recent call last):
    ...
    qubic_logic.errors.NotationError: 'x99' runs past cell 63; a Patashnik position has 64 cells
    """
    s = text.strip()
    if not re.fullmatch(r"[xo0-9]*", s):
        raise NotationError(
            f"{shown(text)} is not a Patashnik position; expected x, o and digits (runs of empty cells), "
            "e.g. xo1x8x8o41o"
        )
    x = o = 0
    cell = 0
    for mark, run in re.findall(r"([xo])|([0-9]+)", s):
        if run:
            cell += int(run) if len(run) <= 3 else 64
            continue
        if cell > 63:
            raise NotationError(f"{shown(text)} runs past cell 63; a Patashnik position has 64 cells")
        if mark == "x":
            x |= 1 << cell
        else:
            o |= 1 << cell
        cell += 1
    if cell > 64:  # a run of empty cells past the last one
        raise NotationError(f"{shown(text)} runs past cell 63; a Patashnik position has 64 cells")
    return Position(x, o)


def format_patashnik(position: Position) -> str:
    """Patashnik's run-length string of a position."""
    out = []
    run = 0
    for cell in range(64):
        mark = position.at(cell)
        if mark == ".":
            run += 1
            continue
        if run:
            out.append(str(run))
            run = 0
        out.append(mark)
    return "".join(out)


def parse_qubic(text: str) -> Position:
    """A position in the project notation (see module docstring)."""
    levels = text.strip().lower().split("/")
    rows = [level.split(",") for level in levels]
    if len(levels) != 4 or any(len(r) != 4 for r in rows) or any(
        not re.fullmatch(r"[xo.]{4}", row) for r in rows for row in r
    ):
        raise NotationError(
            f"{shown(text)} is not a qubic position: expected four levels separated by '/', each four "
            "rows of four characters x, o or . separated by ',', e.g. x...,....,....,..../....,.o..,....,..../..."
        )
    x = o = 0
    for z, level in enumerate(rows):
        for y, row in enumerate(level):
            for xx, ch in enumerate(row):
                bit = 1 << cell_at(xx, y, z)
                if ch == "x":
                    x |= bit
                elif ch == "o":
                    o |= bit
    return Position(x, o)


def format_qubic(position: Position) -> str:
    """The project notation of a position."""
    return "/".join(
        ",".join("".join(position.at(cell_at(x, y, z)) for x in range(4)) for y in range(4))
        for z in range(4)
    )


def parse_moves(text: str) -> list[int]:
    """Comma-separated moves in 0..63 (the ``moves:`` form)."""
    tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    if not all(re.fullmatch(r"[0-9]{1,2}", t) and int(t) <= 63 for t in tokens):
        raise NotationError(f"{shown(text)} is not a list of cells; expected numbers 0..63 separated by commas")
    return [int(t) for t in tokens]


def parse_position(text: str) -> Position:
    """A position in any form of :data:`POSITION_FORMS`, detected or given as ``form:`` prefix.

    >>> parse_position('moves:0,1,21') == parse_position('1-2,22')
    True
    """
    s = text.strip()
    prefix, sep, rest = s.partition(":")
    if sep and prefix.lower() in POSITION_FORMS:
        form, body = prefix.lower(), rest
    else:
        form, body = _detect(s), s
    if form == "empty":
        if body.strip() not in ("", "empty"):
            raise NotationError(f"{shown(text)}: the empty form takes no text")
        return Position()
    if form == "qubic":
        return parse_qubic(body)
    if form == "patashnik":
        return parse_patashnik(body)
    if form == "mcdaniel":
        return replay(parse_mcdaniel(body), CellNames("number")).position
    return replay(parse_moves(body), CellNames("index")).position


def _detect(s: str) -> str:
    if s in ("", "empty"):
        return "empty"
    if "/" in s:
        return "qubic"
    if re.fullmatch(r"[xo0-9]+", s) and re.search(r"[xo]", s):
        return "patashnik"
    if re.fullmatch(r"[0-9,\-\s]+", s):
        return "mcdaniel"
    raise NotationError(
        f"cannot read {shown(s)} as a position; expected one of: a McDaniel move list (1-2,22-52,27), "
        "a Patashnik string (xo1x8x8o41o), the qubic notation (x...,....,....,..../... four levels), "
        "'moves:' with cells 0..63 (moves:0,1,21), or 'empty'"
    )


GAME_FORMS = ("McDaniel 1-2,22-52,27 (one move: 1,) | moves:0,1,21 | cells separated by spaces in any "
              "unambiguous notation (.231 .322, 231 322) | empty")


def parse_game(text: str, notation: str | None = None) -> Game:
    """A game from its moves, oldest first; each move is checked for legality. Bare numbers among
    cells separated by spaces are read in ``notation`` (``index`` or ``number``).

    >>> parse_game('1-2,22').moves, parse_game('moves:0,1,21').moves, parse_game('.231 .322').moves
    ([0, 1, 21], [0, 1, 21], [24, 37])
    >>> parse_game('empty').moves, parse_game('5', 'number').moves
    ([], [4])
    >>> parse_game('5')
    Traceback (most recent call last):
    ...
    qubic_logic.errors.NotationError: '5' is ambiguous: index 5 (0..63) or number 5 (1..64); say which notation (index or number), or write the game as moves:5 (index) or 5, (McDaniel's numbers 1..64)
    """
    s = text.strip()
    if s in ("", "empty"):
        cells: list[int] = []
    elif s.startswith("mcdaniel:"):
        cells = parse_mcdaniel(s[len("mcdaniel:"):])
    elif s.startswith("moves:"):
        cells = parse_moves(s[len("moves:"):])
    elif re.fullmatch(r"[0-9,\-\s]+", s) and re.search(r"[-,]", s):
        cells = parse_mcdaniel(s)
    else:
        tokens = s.split()
        bare = notation if notation in ("index", "number") else None
        ambiguous = [t for t in tokens if bare is None and re.fullmatch(r"0?[1-9]|[1-5]\d|6[0-3]", t)]
        if ambiguous:
            n = ambiguous[0]
            raise NotationError(
                f"{shown(n)} is ambiguous: index {n} (0..63) or number {n} (1..64); say which notation (index or "
                f"number), or write the game as moves:{' '.join(tokens).replace(' ', ',')} (index) or "
                f"{','.join(tokens)}, (McDaniel's numbers 1..64)")
        try:
            cells = [parse_cell(t, bare if t.isdigit() else None) for t in tokens]
        except NotationError as exc:
            raise NotationError(f"{exc}; a game is written as {GAME_FORMS}") from None
    return replay(cells, CellNames(notation or input_notation(s)))


def root_of(text: str) -> tuple[Position, tuple[int, ...] | None]:
    """A root position and, when ``text`` is a game (a move list), the moves that reach it.

    A player judged from a root sees those moves as its game; a position in any
    other notation has no history (None).

    >>> root_of('1-2,22')[1], root_of('xx1oo')[1]
    ((0, 1, 21), None)
    """
    try:
        game = parse_game(text)
        return game.position, tuple(game.moves)
    except QubicError:
        return parse_position(text), None


def format_position(position: Position, form: str = "qubic") -> str:
    """Write a position as ``qubic`` or ``patashnik`` (move lists need the game's order)."""
    if form == "qubic":
        return format_qubic(position)
    if form == "patashnik":
        return format_patashnik(position)
    raise NotationError(f"cannot write a position as {form!r}; expected qubic or patashnik")


def diagram(position: Position, marks: dict[int, str] | None = None) -> str:
    """The four levels side by side, level 1 (z=0) on the left, as in Patashnik's header.

    ``marks`` puts a character on chosen empty cells (e.g. threat cells).

    >>> print(diagram(Position.from_cells([0, 63])).splitlines()[1])
     x  .  .  .   .  .  .  .   .  .  .  .   .  .  .  .
    """
    marks = marks or {}
    lines = [" ".join(f"{'level ' + str(z + 1):^12}" for z in range(4)).rstrip()]
    for y in range(4):
        rows = []
        for z in range(4):
            row = ""
            for x in range(4):
                c = cell_at(x, y, z)
                mark = position.at(c)
                row += f" {marks.get(c, mark) if mark == '.' else mark} "
            rows.append(row)
        lines.append(" ".join(rows).rstrip())
    return "\n".join(lines)
