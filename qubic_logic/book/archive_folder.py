"""The folder an export writes: a new or empty one, or a book archive it replaces, never anything else.

``qubic book export BOOK DIR`` writes the whole archive to a temporary
folder beside ``DIR`` and renames it into place. What was at ``DIR`` decides
whether it may (:func:`export_target`, before any work):

* nothing, or an empty folder: the archive is made there;
* a book archive — an ``index.json`` that ``qubic book export`` wrote, and
  no file but the proof files it lists: it is replaced as a whole, and only
  those files are deleted (:func:`replace_folder`);
* anything else (a file, a project that happens to hold an ``index.json``, an
  archive with a file of the user's added, the folder holding the book
  itself, the current folder): refused in one line, nothing changed.

A symbolic link is followed: the folder it leads to is written (a dangling
link's target is made) and the link stays a link.

>>> import tempfile, os
>>> folder = tempfile.mkdtemp()
>>> open(os.path.join(folder, 'notes.txt'), 'w').close()
>>> export_target(folder, '/elsewhere/b.sqlite')  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
qubic_logic.errors.QubicError: cannot replace ...: it holds 1 file that is not part of a book archive (notes.txt); expected a new or empty folder, or an archive written by `qubic book export` (nothing was changed)
"""

from __future__ import annotations

import os
import shutil
import signal
import stat
import tempfile
from pathlib import Path

from ..errors import QubicError
from ..saving import _path, _umask, check_name, kind_of
from ..supervisor import sigint_held
from .archive_index import INDEX, load_index
from .store import position_name

EXPECTED = "expected a new or empty folder, or an archive written by `qubic book export` (nothing was changed)"
SHOWN_NAMES = 3


def proof_file(position) -> str:  # noqa: ANN001 - a Position
    """The file name of a position's proof.

    >>> from qubic_logic.notation import parse_patashnik
    >>> proof_file(parse_patashnik('x1o'))
    'x1o.dict.gz'
    """
    return f"{position_name(position)}.dict.gz"


def _archive_files(real: Path) -> set[str]:
    """The names the archive at ``real`` holds by its index: ``index.json`` and the proof files that
    ``qubic book export`` names after their positions (none when its index is not an archive's)."""
    try:
        index = load_index(real)
    except QubicError:
        return set()
    return {INDEX} | {e.proof for e in index.entries if e.proof == proof_file(e.board)}


def export_target(folder: str | os.PathLike, book: str | os.PathLike) -> tuple[Path, list[str] | None]:
    """The folder an export of ``book`` to ``folder`` writes (a link followed) and the names of the archive
    there to replace (None: nothing there, the folder is made); :class:`QubicError` when it may not."""
    text = os.fspath(folder)
    check_name(text)
    real = Path(os.path.realpath(text))
    seen = _path(text) if os.fspath(real) == os.path.abspath(text) else f"{_path(text)} (-> {_path(real)})"
    try:
        here = Path.cwd()
    except OSError:
        here = None
    if here is not None and (here == real or here.is_relative_to(real)):
        raise QubicError(f"cannot replace {seen}: it is the folder this command runs in (a shell there would be "
                         "left in a deleted folder); run the export from another folder, e.g. its parent (nothing "
                         "was changed)")
    if Path(os.path.realpath(book)).is_relative_to(real):
        raise QubicError(f"cannot export {_path(book)} into {seen}: the book is inside it; expected a folder "
                         "apart from the book (nothing was changed)")
    if not real.parent.is_dir():
        raise QubicError(f"cannot write {seen}: the folder {_path(real.parent)} does not exist")
    if not os.access(real.parent, os.W_OK | os.X_OK):
        raise QubicError(f"cannot write {seen}: the folder {_path(real.parent)} is not writable")
    try:
        mode = os.lstat(real).st_mode
    except FileNotFoundError:
        return real, None
    if not stat.S_ISDIR(mode):
        raise QubicError(f"cannot write {seen}: it is {kind_of(mode) or 'a file'}; {EXPECTED}")
    names = sorted(os.listdir(real))
    if not names:
        return real, []
    ours = _archive_files(real) if INDEX in names else set()
    foreign = [n for n in names if n not in ours or not stat.S_ISREG(os.lstat(real / n).st_mode)]
    if foreign:
        listed = ", ".join(_path(n) for n in foreign[:SHOWN_NAMES]) + (", …" if len(foreign) > SHOWN_NAMES else "")
        count = f"{len(foreign):,} file{'s' * (len(foreign) != 1)} that {'is' if len(foreign) == 1 else 'are'}"
        raise QubicError(f"cannot replace {seen}: it holds {count} not part of a book archive ({listed}); "
                         f"{EXPECTED}")
    return real, names


def replace_folder(work: Path, real: Path, old: list[str] | None) -> Path | None:
    """Rename the finished archive ``work`` to ``real``, where the archive files ``old`` were (None: nothing);
    deletes only those. Returns the folder where files that appeared in the old archive meanwhile were kept.

    Ctrl-C waits until the swap and the deletion are done (a fraction of a second), so a stop never leaves
    the old archive aside without the new one in its place."""
    os.chmod(work, 0o777 & ~_umask())  # (mkdtemp makes it private) as a folder made by mkdir would be
    try:
        with sigint_held(signal.SIGTERM):
            if not old:  # a new name, or an empty folder (which a rename replaces)
                os.rename(work, real)
                return None
            aside = Path(tempfile.mkdtemp(prefix=f".{real.name}.old.", dir=real.parent))
            os.rename(real, aside / "archive")
            try:
                os.rename(work, real)
            except OSError:
                os.rename(aside / "archive", real)
                aside.rmdir()
                raise
            for name in old:
                (aside / "archive" / name).unlink(missing_ok=True)
            try:
                (aside / "archive").rmdir()
            except OSError:  # something was put there during the export: it is not ours to delete
                return aside / "archive"
            aside.rmdir()
            return None
    except OSError as exc:
        raise QubicError(f"cannot write {_path(real)}: {exc.strerror or exc}") from None


def new_work_folder(real: Path) -> Path:
    """A private temporary folder beside ``real`` to write the archive in."""
    try:
        return Path(tempfile.mkdtemp(prefix=f".{real.name}.", dir=real.parent))
    except OSError as exc:
        raise QubicError(f"cannot write {_path(real)}: {exc.strerror or exc}") from None


def discard(work: Path) -> None:
    """Remove an unfinished archive (only ever a folder :func:`new_work_folder` made)."""
    shutil.rmtree(work, ignore_errors=True)
