"""Saving files: one atomic writer, and a check that an output path can be written before work starts.

Every file the project writes (strategies, certificates, trees, match
records and tables, saved games) goes through :func:`write_atomically`: a
temporary file in the target's folder, flushed to disk, then renamed over
the target, with the permissions the umask gives a new file. A crash leaves
the old file or the new one, never half of one. Text is UTF-8.

Commands call :func:`check_writable` on every output path before the work,
so that hours of work are not lost to a typo in ``-o``:

>>> check_writable('/nonexistent/strategy.dict')
Traceback (most recent call last):
...
qubic_logic.errors.QubicError: cannot write /nonexistent/strategy.dict: the folder /nonexistent does not exist
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .errors import QubicError


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def check_writable(path: str | os.PathLike) -> Path:
    """``path`` as a Path if a file can be written there now, else :class:`QubicError` saying why."""
    target = Path(path)
    folder = target.parent
    if str(path) == "" or target.name in ("", ".", ".."):
        raise QubicError(f"cannot write {str(path)!r}: expected a file name")
    if target.is_dir():
        raise QubicError(f"cannot write {target}: it is a folder; expected a file name")
    if not folder.is_dir():
        raise QubicError(f"cannot write {target}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise QubicError(f"cannot write {target}: the folder {folder} is not writable")
    if target.exists() and not os.access(target, os.W_OK):
        raise QubicError(f"cannot write {target}: the file is read-only")
    try:  # /proc, read-only mounts and the like pass access() but refuse files
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".check", dir=folder)
    except OSError as exc:
        raise QubicError(f"cannot write {target}: {exc.strerror or exc}") from None
    os.close(fd)
    os.unlink(tmp)
    return target


def write_atomically(path: str | os.PathLike, content: str | bytes) -> None:
    """Write ``content`` (text as UTF-8) to ``path``: temp file in the same folder, fsync, rename.

    >>> import tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> write_atomically(os.path.join(folder, 'a.txt'), 'é\\n')
    >>> open(os.path.join(folder, 'a.txt'), encoding='utf-8').read()
    'é\\n'
    """
    target = Path(path)
    data = content.encode("utf-8") if isinstance(content, str) else content
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise QubicError(f"cannot write {target}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600: give the file a new file's permissions
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
