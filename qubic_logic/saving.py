"""Saving files: one atomic writer, and a check that an output path can be written before work starts.

Every file the project writes (strategies, certificates, trees, match
records and tables, saved games) goes through :func:`write_atomically`: a
temporary file in the target's folder, flushed to disk, then renamed over
the target, with the permissions the umask gives a new file. A crash leaves
the old file or the new one, never half of one. Text is UTF-8.

An output is a new name or a regular file. A symbolic link is followed: the
file it points to is written (renamed into place in that file's folder), and
the link stays a link. Anything else (a folder, a device such as
``/dev/null``, a FIFO, a socket) is refused, never replaced, and so is a
name longer than the system allows:

>>> check_writable('/dev/null')
Traceback (most recent call last):
...
qubic_logic.errors.QubicError: cannot write /dev/null: it is a device (character special file); expected a regular file or a new file name

Commands call :func:`check_writable` on every output path before the work,
so that hours of work are not lost to a typo in ``-o``:

>>> check_writable('/nonexistent/strategy.dict')
Traceback (most recent call last):
...
qubic_logic.errors.QubicError: cannot write /nonexistent/strategy.dict: the folder /nonexistent does not exist

Paths in messages are cut to a readable length. Text placed inside one line of a saved file (a file
name in a header or a rule file's comment) goes through :func:`line_safe`: no name can start a line
of its own, so none can add an entry to a dictionary or a rule to a strategy.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from .errors import QubicError
from .notation import shown

NAME_MAX = 255  # bytes in one file name (Linux, macOS)
PATH_MAX = 4096  # bytes in a whole path
SHOWN = 120  # characters of a path quoted in a message


LINE_BREAKS = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")  # whatever a reader may end a line at


def line_safe(text: str) -> str:
    """``text`` with every character that could end a line (in Python, Prolog, clingo or a text editor)
    written as its escape, so that it stays inside the one line (header, comment) it is written into.

    >>> print(line_safe('d.dict\\n:- initialization(halt).'))
    d.dict\\n:- initialization(halt).
    >>> print(line_safe('a\\rb\\u2028c'))
    a\\rb\\u2028c
    """
    if LINE_BREAKS.isdisjoint(text):
        return text
    return "".join(repr(c)[1:-1] if c in LINE_BREAKS else c for c in text)


def _path(path: str | os.PathLike) -> str:
    """A path for a message: as it is, or quoted and cut when long (see :func:`~qubic_logic.notation.shown`)."""
    text = os.fspath(path)
    return text if len(text) <= SHOWN else shown(text, SHOWN)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def check_name(path: str | os.PathLike) -> None:
    """:class:`QubicError` when a name in ``path`` is longer than the system allows (any file argument).

    >>> check_name('x' * 300 + '.dict')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    qubic_logic.errors.QubicError: cannot use 'xxx...' (305 characters): a file name of 305 bytes; expected at most 255 bytes per name
    """
    raw = os.fsencode(path)
    longest = max((len(part) for part in raw.split(b"/")), default=0)
    if longest > NAME_MAX:
        raise QubicError(f"cannot use {_path(path)}: a file name of {longest} bytes; expected at most "
                         f"{NAME_MAX} bytes per name")
    if len(raw) > PATH_MAX:
        raise QubicError(f"cannot use {_path(path)}: a path of {len(raw)} bytes; expected at most {PATH_MAX}")


_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a device (character special file)"),
          (stat.S_ISBLK, "a device (block special file)"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
          (stat.S_ISSOCK, "a socket"))


def kind_of(mode: int) -> str | None:
    """What a file of ``mode`` is when it is not a regular file (``'a FIFO (named pipe)'``), else None.

    >>> kind_of(os.stat('/dev/null').st_mode), kind_of(os.stat(__file__).st_mode)
    ('a device (character special file)', None)
    """
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    return next((kind for test, kind in _KINDS if test(mode)), None)


def target_of(path: str | os.PathLike) -> Path:
    """The file a write to ``path`` replaces: ``path`` itself, or the file a symbolic link leads to.

    Raises :class:`QubicError` (one line naming the path and what it is) when
    that is not a regular file or a new name.

    >>> import tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> os.symlink('real.txt', os.path.join(folder, 'link'))
    >>> target_of(os.path.join(folder, 'link')).name
    'real.txt'
    """
    text = os.fspath(path)
    if text == "" or Path(text).name in ("", ".", ".."):
        raise QubicError(f"cannot write {_path(text)!r}: expected a file name")
    check_name(text)
    real = Path(os.path.realpath(text))
    try:
        mode = os.stat(real).st_mode
    except FileNotFoundError:
        return real
    except OSError as exc:
        raise QubicError(f"cannot write {_path(text)}: {exc.strerror or exc}") from None
    kind = kind_of(mode)
    if kind is not None:
        seen = _path(text) if os.fspath(real) == os.path.abspath(text) else f"{_path(text)} (-> {_path(real)})"
        raise QubicError(f"cannot write {seen}: it is {kind}; expected a regular file or a new file name")
    return real


def check_writable(path: str | os.PathLike) -> Path:
    """``path`` as a Path if a file can be written there now, else :class:`QubicError` saying why."""
    target = Path(path)
    real = target_of(path)
    folder = real.parent
    if not folder.is_dir():
        raise QubicError(f"cannot write {_path(target)}: the folder {_path(folder)} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise QubicError(f"cannot write {_path(target)}: the folder {_path(folder)} is not writable")
    if real.exists() and not os.access(real, os.W_OK):
        raise QubicError(f"cannot write {_path(target)}: the file is read-only")
    try:  # /proc, read-only mounts and the like pass access() but refuse files
        fd, tmp = tempfile.mkstemp(prefix=".qubic.", suffix=".check", dir=folder)
    except OSError as exc:
        raise QubicError(f"cannot write {_path(target)}: {exc.strerror or exc}") from None
    os.close(fd)
    os.unlink(tmp)
    return target


def write_atomically(path: str | os.PathLike, content: str | bytes) -> None:
    """Write ``content`` (text as UTF-8) to ``path``: temp file in the same folder, fsync, rename.

    A symbolic link is written through (its target is replaced); a folder,
    device, FIFO or socket is refused (see :func:`target_of`).

    >>> import tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> write_atomically(os.path.join(folder, 'a.txt'), 'é\\n')
    >>> open(os.path.join(folder, 'a.txt'), encoding='utf-8').read()
    'é\\n'
    """
    target = target_of(path)
    data = content.encode("utf-8") if isinstance(content, str) else content
    try:
        fd, tmp = tempfile.mkstemp(prefix=".qubic.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise QubicError(f"cannot write {_path(path)}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600: give the file a new file's permissions
        target_of(path)  # (again: a device or FIFO put there during the work is not replaced either)
        os.replace(tmp, target)
    except BaseException:
        os.unlink(tmp)
        raise
    try:  # make the rename itself durable
        folder = os.open(target.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(folder)
    except OSError:
        pass
    finally:
        os.close(folder)
