"""The brain: Doake's tables and every training game in SQLite, one transaction per game.

A brain file holds ``meta`` (format name, schema version, the reading it was
trained with), ``patterns`` (TEST with AJUST and SUTEST, each with the game
that taught it and how often it fired), ``games`` (every training game: the
opponent, the learner's side, the moves, the result, the seed, what it
taught, how many patterns were known after it) and ``evaluations`` (series
against fixed opponents, with the number of training games behind them).
A game and what it taught are written in one transaction, so a crash or a
SIGKILL leaves the last complete game and never half a pattern. A file
that is not SQLite, or SQLite without this schema, is refused untouched (it is
checked read-only first), and so is a second process writing the same brain.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), 'b.sqlite')
>>> brain = Brain(path, create=True)
>>> brain.tables().test[-1], brain.game_count()
((3, -1, -1, -1, -1), 0)
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ...errors import DataFormatError, QubicError
from ...notation import shown
from ...position import Position
from ...sqlitefile import damaged, guarded, open_database, short_name
from .tables import RULE_BOOK, Entry, Tables

FORMAT = "qubic-logic doake brain"
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE patterns (
    kind TEXT NOT NULL CHECK (kind IN ('test', 'sutest')), col INTEGER NOT NULL,
    e1 INTEGER NOT NULL, e2 INTEGER NOT NULL, e3 INTEGER NOT NULL, e4 INTEGER NOT NULL,
    e5 INTEGER NOT NULL, ajust INTEGER NOT NULL DEFAULT 0, game INTEGER, fired INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (kind, col));
CREATE TABLE games (
    number INTEGER PRIMARY KEY, opponent TEXT NOT NULL, side TEXT NOT NULL, moves TEXT NOT NULL,
    result TEXT NOT NULL CHECK (result IN ('win', 'loss', 'draw')), seed INTEGER,
    lesson TEXT NOT NULL, patterns INTEGER NOT NULL);
CREATE TABLE evaluations (
    id INTEGER PRIMARY KEY, after_games INTEGER NOT NULL, opponent TEXT NOT NULL, games INTEGER NOT NULL,
    wins INTEGER NOT NULL, draws INTEGER NOT NULL, losses INTEGER NOT NULL, seed INTEGER);
"""


@lru_cache(maxsize=1)
def _columns() -> dict[str, set[str]]:
    """The tables of a brain and their columns."""
    with contextlib.closing(sqlite3.connect(":memory:")) as db:
        db.executescript(_SCHEMA)
        names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {n: {r[1] for r in db.execute(f"PRAGMA table_info({n})")} for n in names}


@dataclass(frozen=True)
class GameRow:
    """One stored training game, from the learner's side."""

    number: int
    opponent: str
    side: str
    moves: list[int]
    result: str
    seed: int | None
    lesson: str
    patterns: int


def result_for(position: Position, side: str) -> str:
    """``'win'``, ``'draw'`` or ``'loss'``: how a finished game ended for ``side``.

    >>> result_for(Position(), 'x')
    'draw'
    """
    return "draw" if position.winner is None else "win" if position.winner == side else "loss"


@dataclass(frozen=True)
class Evaluation:
    """One evaluation series: the learner against a fixed opponent after ``after_games`` games."""

    after_games: int
    opponent: str
    games: int
    wins: int
    draws: int
    losses: int
    seed: int | None


class Brain:
    """A brain file, read-only unless ``create`` (a missing or empty file becomes a new brain) or
    ``write``; a writer is the file's only one (another is refused, or waited for ``wait`` seconds).
    The file is checked read-only before anything is changed."""

    WHAT, MADE_BY = "Doake brain", "qubic learn"

    def __init__(self, path: str | os.PathLike, create: bool = False, write: bool = False, wait: float = 0.0) -> None:
        self.path = Path(path)
        if not create and not os.path.lexists(self.path):  # (a name too long: open_database says so)
            raise QubicError(f"no brain at {short_name(self.path)}; expected a file made by `qubic learn BRAIN "
                             "--against NAME --games N`")
        scans = [create or write]  # a writer first reads the whole file: it changes nothing it cannot read

        def valid(db: sqlite3.Connection) -> bool:
            return self._check(db, scans.pop() if scans else False)

        self.conn, new = open_database(self.path, valid, what=self.WHAT, made_by=self.MADE_BY,
                                       create=create, write=write, wait=wait)
        if create or write:
            try:
                with damaged(self.path, self.WHAT, self.MADE_BY):
                    if new:
                        with self.conn:
                            self.conn.executescript(_SCHEMA)
                            self.conn.executemany("INSERT INTO meta VALUES (?, ?)",
                                                  [("format", FORMAT), ("schema_version", str(SCHEMA_VERSION))])
                    # WAL, synchronous NORMAL: a commit survives a killed process (not a power cut)
                    self.conn.execute("PRAGMA journal_mode=WAL")
                    self.conn.execute("PRAGMA synchronous=NORMAL")
            except BaseException:
                self.conn.close()
                raise

    def _check(self, db: sqlite3.Connection, scan: bool) -> bool:
        """Is ``db`` new (no tables)? Raises for anything but a brain of this schema (``scan``: also
        for a damaged page or a row that cannot be read)."""
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not names:
            return True
        if "meta" not in names:
            raise DataFormatError(f"{self.path} is an SQLite file but not a Doake brain (no meta table); "
                                  "expected a file made by qubic learn")
        meta = dict(db.execute("SELECT key, value FROM meta"))
        if meta.get("format") != FORMAT:
            raise DataFormatError(f"{self.path} is an SQLite file but not a Doake brain "
                                  f"(format {str(meta.get('format'))[:40]!r}); expected {FORMAT!r}")
        if meta.get("schema_version") != str(SCHEMA_VERSION):
            raise DataFormatError(f"{self.path}: brain schema version {str(meta.get('schema_version'))[:20]}; "
                                  f"this program reads version {SCHEMA_VERSION}")
        for table, columns in _columns().items():
            found = {r[1] for r in db.execute(f"PRAGMA table_info({table})")}
            if not columns <= found:
                what = f"no table {table!r}" if not found else f"table {table!r} lacks some columns"
                raise DataFormatError(f"{self.path}: a damaged Doake brain ({what}); expected a file made by "
                                      "qubic learn")
        if scan:
            if db.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise DataFormatError(f"{self.path}: a damaged Doake brain (SQLite quick_check failed); "
                                      "expected a file made by qubic learn")
            for (moves,) in db.execute("SELECT moves FROM games"):
                if not isinstance(json.loads(moves), list):
                    raise DataFormatError(f"{self.path}: a damaged Doake brain (a game's moves are not a list); "
                                          "expected a file made by qubic learn")
            db.execute("SELECT * FROM games").fetchall()  # text that is not UTF-8 fails here
            db.execute("SELECT * FROM evaluations").fetchall()
            self._tables(db.execute("SELECT kind, e1, e2, e3, e4, e5, ajust, game, fired FROM patterns "
                                    "ORDER BY kind, col").fetchall())
        return False

    def close(self) -> None:
        """Close the database."""
        self.conn.close()

    @guarded
    def meta(self, key: str) -> str | None:
        """A value of the meta table."""
        row = self.conn.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    @guarded
    def tables(self) -> Tables:
        """The stored TEST, AJUST and SUTEST (the rule book when nothing is learned yet)."""
        return self._tables(self.conn.execute("SELECT kind, e1, e2, e3, e4, e5, ajust, game, fired FROM patterns "
                                              "ORDER BY kind, col").fetchall())

    def _tables(self, rows: list[tuple]) -> Tables:
        t = Tables(tests=[], ajust=[], sutests=[])
        for kind, *e, ajust, game, fired in rows:
            if not all(isinstance(v, int) for v in (*e, ajust, fired)) or not isinstance(game, (int, type(None))):
                raise DataFormatError(f"{self.path}: a damaged Doake brain (a pattern holds "
                                      f"{shown(str([*e, ajust, game, fired]), 30)}); expected a file made by qubic learn")
            entry = Entry(tuple(e) if kind == "test" else tuple(e[:3]), game, fired)
            if kind == "test":
                t.tests.append(entry)
                t.ajust.append(ajust)
            else:
                t.sutests.append(entry)
        if not t.tests:
            return Tables()
        if tuple(e.pattern for e in t.tests[:4]) != RULE_BOOK:
            raise DataFormatError(f"{self.path}: TEST does not start with the rule book 20, 4, 15, 3")
        return t

    @guarded
    def game_count(self) -> int:
        """Number of training games stored."""
        return self.conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]

    @guarded
    def games(self) -> list[GameRow]:
        """Every training game, in order."""
        rows = self.conn.execute("SELECT number, opponent, side, moves, result, seed, lesson, patterns "
                                 "FROM games ORDER BY number").fetchall()
        return [GameRow(n, o, s, json.loads(m), r, seed, lesson, p) for n, o, s, m, r, seed, lesson, p in rows]

    @guarded
    def evaluations(self) -> list[Evaluation]:
        """Every evaluation series, in order."""
        rows = self.conn.execute("SELECT after_games, opponent, games, wins, draws, losses, seed "
                                 "FROM evaluations ORDER BY id").fetchall()
        return [Evaluation(*r) for r in rows]

    @guarded
    def record_game(self, game: GameRow, tables: Tables, reading: str) -> None:
        """Store one game and the tables after it, in one transaction."""
        rows = [("test", i, *e.pattern, tables.ajust[i - 1], e.game, e.fired) for i, e in enumerate(tables.tests, 1)]
        rows += [("sutest", i, *e.pattern, -1, -1, 0, e.game, e.fired) for i, e in enumerate(tables.sutests, 1)]
        with self.conn:
            self.conn.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                              (game.number, game.opponent, game.side, json.dumps(game.moves), game.result,
                               game.seed, game.lesson, game.patterns))
            self.conn.execute("DELETE FROM patterns")
            self.conn.executemany("INSERT INTO patterns VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
            self.conn.execute("INSERT OR REPLACE INTO meta VALUES ('reading', ?)", (reading,))

    @guarded
    def record_evaluation(self, evaluation: Evaluation) -> None:
        """Store one evaluation series."""
        e = evaluation
        with self.conn:
            self.conn.execute("INSERT INTO evaluations (after_games, opponent, games, wins, draws, losses, seed) "
                              "VALUES (?, ?, ?, ?, ?, ?, ?)",
                              (e.after_games, e.opponent, e.games, e.wins, e.draws, e.losses, e.seed))
