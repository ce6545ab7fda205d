"""An archive's ``index.json``: its schema, checked whole before anything is written.

The index is untrusted input: every field of every entry is checked against
the schema below (pydantic, strict: no text read as a number, no unknown
field, numbers within what the book stores) and every position is read and
matched with its stones and side to move. One bad field refuses the whole
archive in one line naming the fields (``entries[3].proof_size``), so a
book never holds half of a damaged archive. The file itself is read as an
archive member (:func:`~qubic_logic.book.archive_files.read_member`: a
regular file inside the archive, within :data:`MAX_INDEX_BYTES`).

>>> bad = b'{"format": "qubic-logic book archive", "version": 1, "root": "empty", "stones": "lots", "entries": []}'
>>> parse_index(bad, 'proofs/index.json')
Traceback (most recent call last):
...
qubic_logic.errors.DataFormatError: proofs/index.json: 1 bad field: stones: 'lots', expected a valid integer; expected the index `qubic book export` writes
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, field_validator, model_validator

from ..errors import DataFormatError, QubicError
from ..notation import parse_patashnik, shown
from ..position import Position
from .archive_files import read_member

FORMAT = "qubic-logic book archive"
VERSION = 1
INDEX = "index.json"
MAX_INDEX_BYTES = 64 << 20  # about 200,000 positions
MAX_PROOF_SIZE = 1_000_000  # strategic positions in one proof (the shipped book's largest: 3,561)
MAX_SHOWN_ERRORS = 3
MEANINGS = {"position": "expected a position in Patashnik's format (x14o) or 'empty'",
            "root": "expected a position in Patashnik's format (x14o) or 'empty'",
            "proof": "expected the name of a file inside the archive, ending .dict.gz",
            "sha256": "expected 64 hexadecimal digits (lower case)"}

Count = Annotated[int, Field(ge=0, le=2**63 - 1)]  # what an SQLite INTEGER holds
Seconds = Annotated[float, Field(ge=0, le=1e12)]
Cell = Annotated[int, Field(ge=0, le=63)]
PositionText = Annotated[str, Field(pattern=r"^(empty|[xo0-9]{1,200})$")]
ProofName = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.+-]{0,200}\.dict(\.gz)?$")]
Digest = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]


def read_position(text: str) -> Position:
    """A position as an index names it (``empty`` for the empty board).

    >>> read_position('empty').count, read_position('x14o').count
    (0, 2)
    """
    return parse_patashnik("" if text == "empty" else text)


def _position(text: str, field: str = "") -> Position:
    try:
        return read_position(text)
    except QubicError as exc:
        raise ValueError(f"{field}{exc}") from None


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", allow_inf_nan=False, frozen=True)


class SearchRecord(_Strict):
    """One search of an open position: how it ended, nodes, seconds, the root's proof and disproof numbers."""

    status: Annotated[str, Field(max_length=200)]
    nodes: Count
    seconds: Seconds
    proof_number: Count | None = None
    disproof_number: Count | None = None


class ArchiveEntry(_Strict):
    """One position of the archive, as ``qubic book export`` lists it."""

    position: PositionText
    stones: Annotated[int, Field(ge=0, le=64)]
    to_move: Literal["x", "o"]
    value: Literal["win", "loss", "no win", "open"]
    move: Cell | None
    proof_size: Annotated[int, Field(ge=0, le=MAX_PROOF_SIZE)] | None
    nodes: Count
    seconds: Seconds
    how: Literal["solved", "replies", "over", ""]
    budget: Seconds | None
    proof: ProofName | None
    sha256: Digest | None
    searches: list[SearchRecord] = []
    _board: Position = PrivateAttr()

    @model_validator(mode="after")
    def _consistent(self) -> "ArchiveEntry":  # (each message starts with the field it is about)
        board = _position(self.position, "position: ")
        if board.count != self.stones:
            raise ValueError(f"stones: {self.stones}, but {self.position!r} has {board.count} stones")
        if board.to_move != self.to_move:
            raise ValueError(f"to_move: {self.to_move!r}, but {board.to_move} is to move in {self.position!r}")
        if (self.proof is None) != (self.sha256 is None):
            raise ValueError("sha256: expected exactly when a proof file is named")
        if self.proven != (self.proof is not None):
            raise ValueError(f"proof: {self.proof!r}, expected a proof file for, and only for, a win or a loss "
                             "settled by its own search (how 'solved')")
        if self.proven and self.proof_size is None:
            raise ValueError("proof_size: None, expected the size of its proof")
        self._board = board
        return self

    @property
    def board(self) -> Position:
        """The position (read once, when the index was checked)."""
        return self._board

    @property
    def proven(self) -> bool:
        """Settled by its own search, with a proof file to check."""
        return self.how == "solved" and self.value in ("win", "loss")


class ArchiveIndex(_Strict):
    """The whole ``index.json``."""

    format: Literal["qubic-logic book archive"]
    version: Literal[1]
    root: PositionText
    stones: Annotated[int, Field(ge=0, le=64)]
    entries: list[ArchiveEntry]

    @field_validator("root")
    @classmethod
    def _readable_root(cls, root: str) -> str:
        _position(root)
        return root


def _where(loc: tuple) -> str:
    """``('entries', 3, 'move')`` → ``entries[3].move``."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else f".{part}" if out else str(part)
    return out or "the index"


def _got(value: object) -> str:
    if isinstance(value, (str, int, float, bool)) or value is None:
        text = repr(value)
        return text if len(text) <= 40 else shown(text, 40)
    return "a list" if isinstance(value, list) else "an object" if isinstance(value, dict) else type(value).__name__


def _wording(error: dict) -> str:
    """One pydantic error as a phrase: the field, what it holds, what was expected."""
    kind, message = error["type"], error["msg"]
    if kind == "missing":
        return f"{_where(error['loc'])} is missing"
    if kind == "extra_forbidden":
        return f"{_where(error['loc'])} is not a field of an archive index"
    if kind == "value_error":  # (an entry's own check names the field first)
        joint = "." if error["loc"] and isinstance(error["loc"][-1], int) else ": "
        return f"{_where(error['loc'])}{joint}{message.removeprefix('Value error, ')}"
    if kind == "string_pattern_mismatch":
        message = MEANINGS.get(error["loc"][-1], message)
    return f"{_where(error['loc'])}: {_got(error['input'])}, {message.replace('Input should be ', 'expected ')}"


def parse_index(data: bytes, where: str) -> ArchiveIndex:
    """The index in ``data``, checked whole; :class:`DataFormatError` naming the bad fields otherwise."""
    try:
        return ArchiveIndex.model_validate_json(data)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
    expected = "expected the index `qubic book export` writes"
    first = errors[0]
    if first["type"] == "json_invalid":
        detail = first["msg"].removeprefix("Invalid JSON: ").replace("recursion limit exceeded",
                                                                      "nested too deeply")
        raise DataFormatError(f"{where}: not readable JSON ({detail}); {expected}")
    if first["loc"] == () or any(e["loc"] == ("format",) for e in errors):
        raise DataFormatError(f"{where} is not a book archive's index; {expected}")
    version = next((e for e in errors if e["loc"] == ("version",)), None)
    if version is not None:
        raise DataFormatError(f"{where}: archive version {_got(version['input'])}; this qubic-logic reads "
                              f"version {VERSION}")
    shown_errors = "; ".join(_wording(e) for e in errors[:MAX_SHOWN_ERRORS])
    more = f"; and {len(errors) - MAX_SHOWN_ERRORS:,} more" if len(errors) > MAX_SHOWN_ERRORS else ""
    count = f"{len(errors):,} bad field{'s' * (len(errors) != 1)}"
    raise DataFormatError(f"{where}: {count}: {shown_errors}{more}; {expected}")


def load_index(folder: str | os.PathLike) -> ArchiveIndex:
    """The archive's index, read as a member of the archive and checked whole (see the module docstring)."""
    if not Path(folder).is_dir():
        raise QubicError(f"no book archive at {folder}; expected a folder written by `qubic book export`")
    path = Path(folder) / INDEX
    data = read_member(folder, INDEX, MAX_INDEX_BYTES, what="an archive index")
    if data is None:
        raise DataFormatError(f"{folder}: no {INDEX}; expected a folder written by `qubic book export`")
    return parse_index(data, str(path))


def read_index(folder: str | os.PathLike) -> dict:
    """The archive's index as JSON (the fields it holds), checked whole like :func:`load_index`."""
    return load_index(folder).model_dump(mode="json", exclude_unset=True)
