"""The brain: Doake's tables and every training game in SQLite, one transaction per game.

A brain file holds ``meta`` (format name, schema version, the reading it was
trained with), ``patterns`` (TEST with AJUST and SUTEST, each with the game
that taught it and how often it fired), ``games`` (every training game: the
opponent, the learner's side, the moves, the result, the seed, what it
taught, how many patterns were known after it) and ``evaluations`` (series
against fixed opponents, with the number of training games behind them).
A game and what it taught are written in one transaction, so a crash or a
SIGKILL leaves the last complete game and never half a pattern. A file
that is not SQLite, or SQLite without this schema, is refused.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), 'b.sqlite')
>>> brain = Brain(path, create=True)
>>> brain.tables().test[-1], brain.game_count()
((3, -1, -1, -1, -1), 0)
"""

from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from ...errors import DataFormatError, QubicError
from ...position import Position
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
    """A brain file; ``create`` makes a new one when the path does not exist."""

    def __init__(self, path: str | os.PathLike, create: bool = False, read_only: bool = False) -> None:
        self.path = Path(path)
        exists = self.path.exists()
        if not exists and not create:
            raise QubicError(f"no brain at {self.path}; expected a file made by `qubic learn {self.path} "
                             "--against NAME --games N`")
        try:
            if read_only:
                self.conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
            else:
                self.conn = sqlite3.connect(self.path)
                # WAL, synchronous NORMAL: a commit survives a killed process (not a power cut)
                self.conn.execute("PRAGMA journal_mode=WAL")
                self.conn.execute("PRAGMA synchronous=NORMAL")
            if exists:
                self._check()
            else:
                with self.conn:
                    self.conn.executescript(_SCHEMA)
                    self.conn.executemany("INSERT INTO meta VALUES (?, ?)",
                                          [("format", FORMAT), ("schema_version", str(SCHEMA_VERSION))])
        except sqlite3.DatabaseError as exc:
            raise DataFormatError(f"{self.path} is not a Doake brain ({exc}); expected an SQLite file "
                                  "made by qubic learn") from None

    def _check(self) -> None:
        names = {r[0] for r in self.conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "meta" not in names:
            raise DataFormatError(f"{self.path} is an SQLite file but not a Doake brain (no meta table); "
                                  "expected a file made by qubic learn")
        meta = dict(self.conn.execute("SELECT key, value FROM meta"))
        if meta.get("format") != FORMAT:
            raise DataFormatError(f"{self.path} is an SQLite file but not a Doake brain "
                                  f"(format {meta.get('format')!r}); expected {FORMAT!r}")
        if meta.get("schema_version") != str(SCHEMA_VERSION):
            raise DataFormatError(f"{self.path}: brain schema version {meta.get('schema_version')}; "
                                  f"this program reads version {SCHEMA_VERSION}")

    def close(self) -> None:
        """Close the database."""
        self.conn.close()

    def meta(self, key: str) -> str | None:
        """A value of the meta table."""
        row = self.conn.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    def tables(self) -> Tables:
        """The stored TEST, AJUST and SUTEST (the rule book when nothing is learned yet)."""
        t = Tables(tests=[], ajust=[], sutests=[])
        rows = self.conn.execute("SELECT kind, e1, e2, e3, e4, e5, ajust, game, fired FROM patterns "
                                 "ORDER BY kind, col").fetchall()
        for kind, *e, ajust, game, fired in rows:
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

    def game_count(self) -> int:
        """Number of training games stored."""
        return self.conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]

    def games(self) -> list[GameRow]:
        """Every training game, in order."""
        rows = self.conn.execute("SELECT number, opponent, side, moves, result, seed, lesson, patterns "
                                 "FROM games ORDER BY number").fetchall()
        return [GameRow(n, o, s, json.loads(m), r, seed, lesson, p) for n, o, s, m, r, seed, lesson, p in rows]

    def evaluations(self) -> list[Evaluation]:
        """Every evaluation series, in order."""
        rows = self.conn.execute("SELECT after_games, opponent, games, wins, draws, losses, seed "
                                 "FROM evaluations ORDER BY id").fetchall()
        return [Evaluation(*r) for r in rows]

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

    def record_evaluation(self, evaluation: Evaluation) -> None:
        """Store one evaluation series."""
        e = evaluation
        with self.conn:
            self.conn.execute("INSERT INTO evaluations (after_games, opponent, games, wins, draws, losses, seed) "
                              "VALUES (?, ?, ?, ?, ?, ?, ?)",
                              (e.after_games, e.opponent, e.games, e.wins, e.draws, e.losses, e.seed))
