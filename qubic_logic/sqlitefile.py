"""The project's SQLite files (opening books, Doake brains): checked before they are changed, one writer at a time.

:func:`open_database` opens a file read-only first (SQLite's ``mode=ro``)
and runs the caller's schema check on that connection; only a file that
passes is opened again for writing, and a writer holds an exclusive lock
(:class:`WriterLock`, ``flock`` on the file itself) for as long as it is
open, so a second writer is told so at once instead of racing the first.
A file that is damaged, foreign, or another program's database is never
touched. :func:`damaged` turns what SQLite, zlib or JSON raise on a bad
file into one :class:`~qubic_logic.errors.DataFormatError` line naming it.

>>> import sqlite3, tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), 'n.sqlite')
>>> def check(db):  # a file with no tables is new; anything else needs a table 'notes'
...     return not db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
>>> db, new = open_database(path, check, what="notes file", made_by="the example", create=True)
>>> new
True
>>> _ = db.execute("CREATE TABLE notes (text)")
>>> open_database(path, check, what="notes file", made_by="the example", create=True)
Traceback (most recent call last):
  ...
qubic_logic.errors.QubicError: ... is being written by another qubic process; wait for it to finish ...
>>> db.close()
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import inspect
import json
import os
import sqlite3
import time
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from .errors import DataFormatError, QubicError

F = TypeVar("F", bound=Callable[..., Any])

#: What a damaged file can raise while it is read: SQLite's errors (a malformed page, a missing
#: table, text that is not UTF-8), zlib's (a broken compressed blob), JSON's and text decoding's.
DAMAGE = (sqlite3.DatabaseError, zlib.error, json.JSONDecodeError, UnicodeDecodeError)


def _reason(exc: BaseException) -> str:
    """The first line of an error, at most 160 characters (SQLite may quote a whole bad value)."""
    lines = str(exc).strip().splitlines() or [type(exc).__name__]
    text = lines[0]
    return text if len(text) <= 160 else text[:157] + "..."


def _a(what: str) -> str:
    return ("an " if what[0] in "aeiou" else "a ") + what


def short_name(path: Path) -> str:
    """A path for a message: a long one cut to its last 117 characters."""
    text = str(path)
    return text if len(text) <= 120 else "..." + text[-117:]


@contextlib.contextmanager
def damaged(path: str | os.PathLike, what: str, made_by: str) -> Iterator[None]:
    """Turn an error of a damaged file into one line naming it, the cause and what is expected.

    >>> with damaged('b.sqlite', 'opening book', '`qubic book build`'):
    ...     zlib.decompress(b'not zlib')
    Traceback (most recent call last):
      ...
    qubic_logic.errors.DataFormatError: b.sqlite: not a readable opening book (Error -3 while decompressing data: incorrect header check); expected a file made by `qubic book build`
    """
    try:
        yield
    except DAMAGE as exc:
        raise DataFormatError(f"{short_name(Path(path))}: not a readable {what} ({_reason(exc)}); "
                              f"expected a file made by {made_by}") from None


def guarded(method: F) -> F:
    """A method of a store object (with ``path``, ``WHAT`` and ``MADE_BY``) whose damage errors become
    one line naming the file (generators too: the error may come while iterating)."""
    if inspect.isgeneratorfunction(method):
        @functools.wraps(method)
        def generator(self, *args: Any, **kwargs: Any) -> Any:
            with damaged(self.path, self.WHAT, self.MADE_BY):
                yield from method(self, *args, **kwargs)

        return generator  # type: ignore[return-value]

    @functools.wraps(method)
    def wrapper(self, *args: Any, **kwargs: Any) -> Any:
        with damaged(self.path, self.WHAT, self.MADE_BY):
            return method(self, *args, **kwargs)

    return wrapper  # type: ignore[return-value]


class WriterLock:
    """An exclusive ``flock`` on ``path`` (the database file itself) while one process writes it.

    SQLite's own locks are POSIX record locks, which ``flock`` does not touch; this lock only
    keeps a second qubic writer out (readers are never stopped).
    """

    def __init__(self, path: Path, what: str, wait: float = 0.0) -> None:
        self.fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        give_up = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() < give_up:
                    time.sleep(0.05)
                    continue
            os.close(self.fd)
            raise QubicError(f"{short_name(path)} is being written by another qubic process; wait for it to "
                             f"finish (one writer at a time: a second one would repeat its work on this "
                             f"{what})") from None

    def release(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def is_being_written(path: str | os.PathLike) -> bool:
    """Whether a qubic process holds ``path``'s :class:`WriterLock` now (a build or a search running on it)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return False
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # (releases the lock it took)


class LockedConnection(sqlite3.Connection):
    """A connection that releases its :class:`WriterLock` when closed."""

    writer_lock: WriterLock | None = None

    def close(self) -> None:
        try:
            super().close()
        finally:
            if self.writer_lock is not None:
                self.writer_lock.release()


HEADER = b"SQLite format 3\x00"


def _header(path: Path) -> bytes:
    with open(path, "rb") as f:
        return f.read(len(HEADER))


def _read_only(path: Path) -> sqlite3.Connection:
    # a URI names the file exactly (a '?' or '%' in a name is quoted); mode=ro never writes it
    return sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True, timeout=30)


def open_database(path: str | os.PathLike, check: Callable[[sqlite3.Connection], bool], *, what: str,
                  made_by: str, create: bool = False, write: bool = False,
                  wait: float = 0.0) -> tuple[sqlite3.Connection, bool]:
    """The SQLite file at ``path``, checked by ``check`` on a read-only connection before anything
    else, and whether it is new (no tables yet).

    ``check(db)`` raises :class:`~qubic_logic.errors.DataFormatError` for a foreign or damaged
    file and returns True for an empty database (no tables: a new file). ``create``: a missing
    or empty file (0 bytes or no tables) may be made, and the connection is a writer's;
    ``write``: an existing file is opened for writing. A writer's connection holds the file's
    :class:`WriterLock` until it is closed (and is checked again under it; ``wait``: seconds to wait
    for another writer to finish before refusing); a reader's is read-only.
    """
    path = Path(path)
    try:
        return _open(path, check, what, made_by, create, write, wait)
    except OSError as exc:  # a name too long, a folder without permission, ...
        raise QubicError(f"cannot open {short_name(path)}: {exc.strerror or exc}; expected {_a(what)} file") from None


def _open(path: Path, check: Callable[[sqlite3.Connection], bool], what: str, made_by: str, create: bool,
          write: bool, wait: float) -> tuple[sqlite3.Connection, bool]:
    if path.is_dir():
        raise QubicError(f"{short_name(path)} is a folder; expected {_a(what)} file")
    made = False
    if not path.exists():
        if not create:
            raise QubicError(f"no {what} at {short_name(path)}; expected a file made by {made_by}")
        try:
            with open(path, "xb"):
                made = True
        except FileExistsError:
            pass  # another process made it meanwhile: its lock decides below
        except OSError as exc:
            raise QubicError(f"cannot create {short_name(path)}: {exc.strerror}; expected a writable folder") from None
    elif not path.is_file():
        raise QubicError(f"{short_name(path)} is not a regular file; expected {_a(what)} file")
    lock, locking = None, False
    try:
        with damaged(path, what, made_by):
            size = path.stat().st_size
            if size == 0:
                empty = True
            elif size < 512 or _header(path) != HEADER:  # SQLite would take a few stray bytes for a new file
                raise DataFormatError(f"{short_name(path)} is not an SQLite database ({size:,} bytes); expected "
                                      f"{_a(what)} made by {made_by}")
            else:
                with contextlib.closing(_read_only(path)) as probe:
                    empty = check(probe)
            if empty and not create:
                raise DataFormatError(f"{short_name(path)} is empty, not {_a(what)}; expected a file made by {made_by}")
            if not (create or write):
                return _read_only(path), False
            locking = True
            lock = WriterLock(path, what, wait)
            db = sqlite3.connect(path, timeout=30, factory=LockedConnection)
            db.writer_lock = lock
            try:
                return db, check(db)  # again under the lock: another writer may have changed it meanwhile
            except BaseException:
                db.close()
                raise
    except BaseException:
        if lock is not None:
            lock.release()
        if made and (lock is not None or not locking) and path.exists() and path.stat().st_size == 0:
            path.unlink(missing_ok=True)  # the file this call made, still empty
        raise
