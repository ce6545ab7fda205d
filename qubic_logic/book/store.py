"""The opening book's SQLite store: one row per position up to symmetry, one transaction per settled one.

A book file is an SQLite database whose ``application_id`` marks it as a
qubic-logic opening book and whose ``user_version`` is the schema version;
anything else (another program's database, a text file, a damaged page) is
refused with one clear line (a book of an earlier schema version — 1, before saved
search tables, or 2, before the search tree of ``qubic book solve`` — is upgraded in
place when opened). Positions are kept in canonical form (the least
image under the 192 automorphisms, :func:`~qubic_logic.symmetry.canonical_masks`),
with the best move in that frame; a lookup maps it back onto the orientation
of the query.

>>> import tempfile, os
>>> from qubic_logic.notation import parse_position
>>> path = os.path.join(tempfile.mkdtemp(), 'b.sqlite')
>>> with OpeningBook.open(path, create=True) as book:
...     _ = book.add_positions([parse_position('moves:63')])
...     book.settle(BookEntry(parse_position('moves:0'), 'loss', move=21, proof_size=3))
...     book.lookup(parse_position('moves:63')).move        # 21 seen from the other corner
42
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator, NamedTuple

from ..core import core_module
from ..errors import DataFormatError, QubicError
from ..notation import format_patashnik, parse_patashnik, shown
from ..position import Position
from ..sqlitefile import damaged, guarded, open_database
from ..symmetry import INVERSES, TRANSFORMS, canonical_masks
from ..strategy.dictionary import StrategyDictionary

APPLICATION_ID = 0x5142_4F4B  # 'QBOK'
MADE_BY = "`qubic book build`"
SCHEMA_VERSION = 3
VALUES = ("win", "loss", "no win", "open")
SETTLED = ("win", "loss", "no win")

TABLES = """
CREATE TABLE tables (               -- an open position's saved search table, to go on from (version 2)
    x INTEGER NOT NULL, o INTEGER NOT NULL, saved_at TEXT NOT NULL, blob BLOB NOT NULL,
    UNIQUE (x, o)
);
"""
TREE = """
CREATE TABLE tree_nodes (           -- the proof-number tree of `qubic book solve`: X attacks (version 3)
    x INTEGER NOT NULL, o INTEGER NOT NULL,    -- canonical masks, as in positions
    pn INTEGER NOT NULL, dn INTEGER NOT NULL,  -- proof and disproof numbers of X's win
    expanded INTEGER NOT NULL DEFAULT 0,       -- 1: its children are nodes (tree_edges)
    how TEXT NOT NULL DEFAULT '',              -- what set its numbers: new | threats | book | search | children
    target INTEGER NOT NULL DEFAULT 0,         -- nodes its searches are to reach before it counts as unsettled
    spent INTEGER NOT NULL DEFAULT 0,          -- nodes of its searches since its saved table began
    nodes INTEGER NOT NULL DEFAULT 0,          -- nodes of all its searches
    searches INTEGER NOT NULL DEFAULT 0,       -- its searches that used their whole budget unsettled
    PRIMARY KEY (x, o)
) WITHOUT ROWID;
CREATE TABLE tree_edges (
    x INTEGER NOT NULL, o INTEGER NOT NULL, child_x INTEGER NOT NULL, child_o INTEGER NOT NULL,
    move INTEGER NOT NULL, penalty INTEGER NOT NULL,  -- the move in the parent's frame; X's moves: df-pn's penalty
    PRIMARY KEY (x, o, child_x, child_o)
) WITHOUT ROWID;
CREATE TABLE tree_roots (
    id INTEGER PRIMARY KEY, x INTEGER NOT NULL, o INTEGER NOT NULL, position TEXT NOT NULL,
    added_at TEXT NOT NULL, seconds REAL NOT NULL DEFAULT 0, settled_at TEXT, verdict TEXT, UNIQUE (x, o)
);
CREATE TABLE tree_jobs (            -- every job the search handed out
    id INTEGER PRIMARY KEY, root INTEGER NOT NULL, x INTEGER NOT NULL, o INTEGER NOT NULL,
    kind TEXT NOT NULL,             -- search | verify
    state TEXT NOT NULL,            -- running | done | lost | refuted
    budget INTEGER, went_on INTEGER NOT NULL DEFAULT 0, worker TEXT, started_at REAL NOT NULL,
    finished_at REAL, status TEXT, nodes INTEGER NOT NULL DEFAULT 0, seconds REAL NOT NULL DEFAULT 0,
    proof_number INTEGER, disproof_number INTEGER, verify_seconds REAL NOT NULL DEFAULT 0, note TEXT
);
CREATE INDEX tree_jobs_by_state ON tree_jobs (state, x, o);
CREATE TABLE tree_trace (           -- the root's numbers as the search went on
    id INTEGER PRIMARY KEY, root INTEGER NOT NULL, at REAL NOT NULL, seconds REAL NOT NULL,
    nodes INTEGER NOT NULL, jobs INTEGER NOT NULL, proof_number INTEGER NOT NULL, disproof_number INTEGER NOT NULL
);
"""
SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE positions (
    x INTEGER NOT NULL,            -- canonical masks (cell c is bit c), stored as signed 64-bit
    o INTEGER NOT NULL,
    stones INTEGER NOT NULL,
    to_move TEXT NOT NULL CHECK (to_move IN ('x', 'o')),
    value TEXT NOT NULL CHECK (value IN ('win', 'loss', 'no win', 'open')),
    move INTEGER,                  -- best move in the canonical frame
    proof_size INTEGER,            -- strategic positions of the stored strategy
    nodes INTEGER NOT NULL DEFAULT 0,
    seconds REAL NOT NULL DEFAULT 0,
    how TEXT NOT NULL DEFAULT '',  -- solved | replies | over ('' while open)
    budget REAL,                   -- the largest time limit a search of it had (0: none)
    strategy BLOB,                 -- zlib-compressed dictionary in Patashnik's format
    settled_at TEXT,
    PRIMARY KEY (x, o)
) WITHOUT ROWID;
CREATE INDEX positions_by_stones ON positions (stones, value);
CREATE TABLE builds (
    id INTEGER PRIMARY KEY, started_at TEXT NOT NULL, stones INTEGER NOT NULL, budget REAL,
    executor TEXT NOT NULL, jobs INTEGER NOT NULL, stopped TEXT
);
CREATE TABLE solves (               -- every search a build ran, settled or not
    id INTEGER PRIMARY KEY, build INTEGER NOT NULL, x INTEGER NOT NULL, o INTEGER NOT NULL,
    status TEXT NOT NULL, nodes INTEGER NOT NULL, seconds REAL NOT NULL, budget REAL,
    finished_at TEXT NOT NULL,
    proof_number INTEGER, disproof_number INTEGER  -- the root's when the search stopped open (version 2)
);
""" + TABLES + TREE

_canonical = getattr(core_module(), "canonical", canonical_masks)


def canonical_key(position: Position) -> tuple[int, int, int]:
    """``(x, o, transform)`` of the canonical form (native when built).

    >>> canonical_key(Position.from_cells([63]))
    (1, 0, 7)
    """
    return _canonical(position.x, position.o)


def position_name(position: Position) -> str:
    """A position in Patashnik's format, ``empty`` for the empty board.

    >>> position_name(Position()), position_name(Position.from_cells([0]))
    ('empty', 'x')
    """
    return format_patashnik(position) or "empty"


def _signed(mask: int) -> int:
    return mask - (1 << 64) if mask >> 63 else mask


def _unsigned(value: int) -> int:
    return value & ((1 << 64) - 1)


def book_order(entry: "BookEntry") -> tuple[int, int, int]:
    """The order :meth:`OpeningBook.entries` reads entries in: fewest stones first, then the stored masks.

    >>> book_order(BookEntry(Position.from_cells([0]), "loss"))
    (1, 1, 0)
    """
    return entry.position.count, _signed(entry.position.x), _signed(entry.position.o)


def _now() -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime())


@dataclass(frozen=True)
class BookEntry:
    """One position of the book, in its canonical frame (``move`` too).

    ``value`` is for the side to move: ``win``, ``loss`` (the other side wins
    whatever it does), ``no win`` (proven: it cannot force a win; draw or loss
    not settled) or ``open``. For a loss, ``move`` is the reply that holds out
    longest (the largest proof). ``how``: ``solved`` (its own search),
    ``replies`` (propagated from the entries after each move), ``over``.
    """

    position: Position
    value: str
    move: int | None = None
    proof_size: int | None = None
    nodes: int = 0
    seconds: float = 0.0
    how: str = ""
    budget: float | None = None
    strategy_text: str | None = None

    @property
    def stones(self) -> int:
        return self.position.count

    @property
    def settled(self) -> bool:
        return self.value in SETTLED

    def strategy(self) -> StrategyDictionary | None:
        """The stored strategy (the winner's: the side to move's for a win, the other's for a loss)."""
        if self.strategy_text is None:
            return None
        return StrategyDictionary.parse(self.strategy_text, f"book entry {format_patashnik(self.position)}")


class SearchLog(NamedTuple):
    """One search a build ran: its build, status (``won``, ``unknown (time limit)``, …), nodes and
    seconds, and, when it stopped open, the root's proof and disproof numbers then."""

    build: int
    status: str
    nodes: int
    seconds: float
    proof_number: int | None = None
    disproof_number: int | None = None


@dataclass(frozen=True)
class Answer:
    """A lookup: the stored entry and the best move mapped onto the query's orientation."""

    query: Position
    entry: BookEntry
    move: int | None

    @property
    def value(self) -> str:
        return self.entry.value

    def to_json(self) -> dict:
        """The object ``qubic book show --json`` prints."""
        e = self.entry
        return {"position": position_name(self.query), "canonical": position_name(e.position),
                "to_move": self.query.to_move, "value": e.value, "move": self.move,
                "proof_size": e.proof_size, "nodes": e.nodes, "seconds": round(e.seconds, 3), "how": e.how}


class OpeningBook:
    """An opening book file; open with :meth:`open` (a context manager closes it)."""

    WHAT, MADE_BY = "opening book", MADE_BY

    def __init__(self, path: Path, connection: sqlite3.Connection) -> None:
        self.path = path
        self.db = connection

    # ------------------------------------------------------------------ opening

    @classmethod
    def open(cls, path: str | os.PathLike, *, create: bool = False, write: bool = False,
             check: bool = False) -> "OpeningBook":
        """Open the book at ``path``: read-only, or as its one writer with ``write``, or with ``create``
        (a new book is made if the file is absent or empty); ``check``: also scan every page first.

        The file is checked read-only (application id, schema version, tables and columns, with
        ``check`` SQLite's quick_check) before anything is changed; a second writer is refused.
        """
        path = Path(path)
        scans = [check]

        def valid(db: sqlite3.Connection) -> bool:
            return _check_book(path, db, scans.pop() if scans else False)

        writer = create or write
        db, new = open_database(path, valid, what="opening book", made_by=MADE_BY, create=create, write=writer)
        version = None if new else db.execute("PRAGMA user_version").fetchone()[0]
        old = version is not None and version < SCHEMA_VERSION
        if old and not writer:  # upgrading needs the writer's connection
            db.close()
            db, _ = open_database(path, valid, what="opening book", made_by=MADE_BY, write=True)
        try:
            with damaged(path, "opening book", MADE_BY):
                # each script is one transaction: a process killed meanwhile leaves the file as it was
                if new:
                    db.executescript("BEGIN;" + SCHEMA + f"PRAGMA application_id = {APPLICATION_ID};"
                                     f"PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;")
                elif old:
                    # version 1 had no saved search tables, nor the numbers of open searches; 2 no search tree
                    upgrade = (TABLES + "ALTER TABLE solves ADD COLUMN proof_number INTEGER;"
                               "ALTER TABLE solves ADD COLUMN disproof_number INTEGER;") if version == 1 else ""
                    db.executescript(f"BEGIN;{upgrade}{TREE}PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;")
                if writer or old:
                    # WAL: a commit survives a killed process without an fsync per settled position
                    db.execute("PRAGMA journal_mode = WAL")
                    db.execute("PRAGMA synchronous = NORMAL")
        except BaseException:
            db.close()
            raise
        return cls(path, db)

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> "OpeningBook":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ meta

    @guarded
    def meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else row[0]

    @guarded
    def set_meta(self, **values: object) -> None:
        with self.db:
            self.db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", [(k, str(v)) for k, v in values.items()])

    @property
    @guarded
    def stones(self) -> int | None:
        """The ``--stones`` the book was last built to."""
        found = self.meta("stones")  # (digits: checked on opening)
        return None if found is None else int(found)

    @property
    @guarded
    def root(self) -> Position:
        """The position the book starts from (the empty board unless built with ``--root``)."""
        return parse_patashnik(self.meta("root") or "")

    # ------------------------------------------------------------------ writing

    @guarded
    def add_positions(self, positions: Iterable[Position]) -> int:
        """Record positions as ``open`` unless present (one transaction); returns how many were new."""
        rows = []
        for p in positions:
            x, o, _ = canonical_key(p)
            rows.append((_signed(x), _signed(o), p.count, p.to_move))
        with self.db:
            before = self.db.total_changes
            self.db.executemany("INSERT OR IGNORE INTO positions (x, o, stones, to_move, value) "
                                "VALUES (?, ?, ?, ?, 'open')", rows)
            return self.db.total_changes - before

    @guarded
    def settle(self, entry: BookEntry, solve: SearchLog | None = None, table: bytes | None = None) -> None:
        """Store ``entry`` (any orientation) in one transaction, with the search that gave it in the log.

        ``table``: an open entry's saved search table (a settled entry's is dropped).
        """
        with self.db:
            self.write(entry, solve, table)

    def write(self, entry: BookEntry, solve: SearchLog | None = None, table: bytes | None = None) -> None:
        """:meth:`settle` inside a transaction the caller holds (``with book.db:``), so that several
        entries are stored together or not at all (an archive's import)."""
        x, o, t = canonical_key(entry.position)
        move = None if entry.move is None else TRANSFORMS[t][entry.move]
        strategy = None if entry.strategy_text is None else zlib.compress(entry.strategy_text.encode("ascii"), 6)
        self.db.execute(
            "INSERT OR REPLACE INTO positions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (_signed(x), _signed(o), entry.stones, entry.position.to_move, entry.value, move,
             entry.proof_size, entry.nodes, entry.seconds, entry.how, entry.budget, strategy,
             _now() if entry.settled else None))
        if solve is not None:
            self.db.execute("INSERT INTO solves (build, x, o, status, nodes, seconds, budget, finished_at, "
                            "proof_number, disproof_number) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                            (solve.build, _signed(x), _signed(o), solve.status, solve.nodes, solve.seconds,
                             entry.budget, _now(), solve.proof_number, solve.disproof_number))
        if table is not None and not entry.settled:
            self.db.execute("INSERT OR REPLACE INTO tables (x, o, saved_at, blob) VALUES (?, ?, ?, ?)",
                            (_signed(x), _signed(o), _now(), table))
        else:
            self.db.execute("DELETE FROM tables WHERE x = ? AND o = ?", (_signed(x), _signed(o)))

    @guarded
    def start_build(self, stones: int, budget: float | None, executor: str, jobs: int) -> int:
        """Log a build; returns its id for :meth:`settle` and :meth:`finish_build`."""
        with self.db:
            return self.db.execute("INSERT INTO builds (started_at, stones, budget, executor, jobs) "
                                   "VALUES (?, ?, ?, ?, ?)", (_now(), stones, budget, executor, jobs)).lastrowid

    @guarded
    def finish_build(self, build: int, stopped: str | None) -> None:
        with self.db:
            self.db.execute("UPDATE builds SET stopped = ? WHERE id = ?", (stopped or "complete", build))

    # ------------------------------------------------------------------ reading

    @guarded
    def get(self, position: Position) -> BookEntry | None:
        """The stored entry of ``position``'s class (canonical frame), or None."""
        x, o, _ = canonical_key(position)
        return self._get(x, o)

    @guarded
    def _get(self, x: int, o: int) -> BookEntry | None:
        row = self.db.execute("SELECT * FROM positions WHERE x = ? AND o = ?", (_signed(x), _signed(o))).fetchone()
        return None if row is None else _entry(row)

    @guarded
    def saved_table(self, position: Position) -> bytes | None:
        """The saved search table of ``position``'s class (open, searched before), or None."""
        x, o, _ = canonical_key(position)
        row = self.db.execute("SELECT blob FROM tables WHERE x = ? AND o = ?", (_signed(x), _signed(o))).fetchone()
        return None if row is None else row[0]

    @guarded
    def searches(self, position: Position) -> list[SearchLog]:
        """The logged searches of ``position``'s class, oldest first."""
        x, o, _ = canonical_key(position)
        rows = self.db.execute("SELECT build, status, nodes, seconds, proof_number, disproof_number FROM solves "
                               "WHERE x = ? AND o = ? ORDER BY id", (_signed(x), _signed(o)))
        return [SearchLog(*row) for row in rows]

    @guarded
    def saved_tables(self) -> tuple[int, int]:
        """How many saved search tables the book holds, and their bytes."""
        return self.db.execute("SELECT count(*), coalesce(sum(length(blob)), 0) FROM tables").fetchone()

    @guarded
    def value(self, key: tuple[int, int]) -> str | None:
        """The value stored for the canonical masks ``key``, or None (a quick check without the entry)."""
        row = self.db.execute("SELECT value FROM positions WHERE x = ? AND o = ?",
                              (_signed(key[0]), _signed(key[1]))).fetchone()
        return None if row is None else row[0]

    @guarded
    def lookup(self, position: Position) -> Answer | None:
        """The entry of ``position`` with its best move in ``position``'s own orientation, or None."""
        x, o, t = canonical_key(position)
        entry = self._get(x, o)
        if entry is None:
            return None
        move = None if entry.move is None else TRANSFORMS[INVERSES[t]][entry.move]
        return Answer(position, entry, move)

    @guarded
    def entries(self, value: str | None = None, stones: int | None = None) -> Iterator[BookEntry]:
        """Every stored entry (optionally of one value and stone count), in :func:`book_order`."""
        sql, args = "SELECT * FROM positions WHERE 1", []
        if value is not None:
            sql, args = sql + " AND value = ?", [*args, value]
        if stones is not None:
            sql, args = sql + " AND stones = ?", [*args, stones]
        for row in self.db.execute(sql + " ORDER BY stones, x, o", args).fetchall():
            yield _entry(row)

    @guarded
    def strategies(self) -> Iterator[StrategyDictionary]:
        """Every stored proof (its entries read one at a time)."""
        for x, o, blob in self.db.execute("SELECT x, o, strategy FROM positions WHERE strategy IS NOT NULL").fetchall():
            where = f"book entry {format_patashnik(Position(_unsigned(x), _unsigned(o)))}"
            yield StrategyDictionary.parse(zlib.decompress(blob).decode("ascii"), where)

    @guarded
    def keys(self, *values: str) -> list[tuple[int, int]]:
        """The canonical masks of the entries of ``values`` (no entry read whole)."""
        marks = ", ".join("?" * len(values))
        rows = self.db.execute(f"SELECT x, o FROM positions WHERE value IN ({marks})", values)
        return [(_unsigned(x), _unsigned(o)) for x, o in rows]

    @guarded
    def counts(self) -> dict[tuple[int, str], int]:
        """Entries by ``(stones, value)``."""
        rows = self.db.execute("SELECT stones, value, count(*) FROM positions GROUP BY stones, value")
        return {(s, v): n for s, v, n in rows}

    @guarded
    def solves(self, build: int | None = None) -> int:
        """How many searches were run (by one build, or ever)."""
        if build is None:
            return self.db.execute("SELECT count(*) FROM solves").fetchone()[0]
        return self.db.execute("SELECT count(*) FROM solves WHERE build = ?", (build,)).fetchone()[0]

    @guarded
    def __len__(self) -> int:
        return self.db.execute("SELECT count(*) FROM positions").fetchone()[0]


def _columns(db: sqlite3.Connection) -> dict[str, set[str]]:
    names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return {name: {r[1] for r in db.execute(f'PRAGMA table_info("{name}")')} for name in names}


def _expected(version: int) -> dict[str, set[str]]:
    """The tables and columns a book of schema ``version`` (1, 2 or the current one) has."""
    with contextlib.closing(sqlite3.connect(":memory:")) as db:
        db.executescript(SCHEMA)
        tables = _columns(db)
    if version < 3:
        tables = {name: columns for name, columns in tables.items() if not name.startswith("tree_")}
    if version == 1:
        del tables["tables"]
        tables["solves"] -= {"proof_number", "disproof_number"}
    return tables


def _readable_root(text: str) -> bool:
    try:
        parse_patashnik(text)
        return True
    except QubicError:
        return False


def _check_book(path: Path, db: sqlite3.Connection, scan: bool) -> bool:
    """Is the database at ``path`` a new one (no tables)? Raises for anything but a book it can read."""
    app, version = (db.execute(f"PRAGMA {p}").fetchone()[0] for p in ("application_id", "user_version"))
    found = _columns(db)
    if app == 0 and not found:
        return True
    if app != APPLICATION_ID:
        raise DataFormatError(f"{path} is not a qubic-logic opening book (another SQLite database); "
                              f"expected a file made by {MADE_BY}")
    if version not in range(1, SCHEMA_VERSION + 1):
        raise DataFormatError(f"{path}: opening book schema version {version}; this qubic-logic reads "
                              f"version {SCHEMA_VERSION}")
    for table, columns in _expected(version).items():
        missing = columns - found.get(table, set())
        if missing:
            what = f"no table {table!r}" if table not in found else f"table {table!r} lacks {', '.join(sorted(missing))}"
            raise DataFormatError(f"{path}: a damaged opening book ({what}); rebuild it with {MADE_BY}")
    meta = dict(db.execute("SELECT key, value FROM meta"))
    stones, root = meta.get("stones", "0"), meta.get("root", "")
    if not (stones.isascii() and stones.isdigit()) or not _readable_root(root):
        raise DataFormatError(f"{path}: a damaged opening book (its meta table holds root {shown(root, 20)}, "
                              f"stones {shown(stones, 20)}); rebuild it with {MADE_BY}")
    if scan and db.execute("PRAGMA quick_check").fetchone()[0] != "ok":
        raise DataFormatError(f"{path}: the database is damaged (SQLite quick_check failed); "
                              f"rebuild it with {MADE_BY}")
    if scan:  # what quick_check passes: text that is not UTF-8, values outside the schema, broken strategies
        for value, to_move, _how, blob in db.execute("SELECT value, to_move, how, strategy FROM positions"):
            if value not in VALUES or to_move not in ("x", "o"):
                raise DataFormatError(f"{path}: a damaged opening book (a position's value {shown(value, 20)}); "
                                      f"rebuild it with {MADE_BY}")
            if blob is not None:
                zlib.decompress(blob).decode("ascii")
    return False


def _entry(row: tuple) -> BookEntry:
    x, o, _stones, _to_move, value, move, size, nodes, seconds, how, budget, blob, _at = row
    text = None if blob is None else zlib.decompress(blob).decode("ascii")
    return BookEntry(Position(_unsigned(x), _unsigned(o)), value, move, size, nodes, seconds, how, budget, text)
