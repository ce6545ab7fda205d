"""An archive's files read as untrusted input: its own regular files only, within a bound, streamed.

A member of an archive is a name inside its folder (never a path). It is
read only if it is a regular file there: a symbolic link (inside or outside
the archive), a FIFO, a folder or a device is refused by name, unopened or
opened without blocking and without following links, so nothing outside
the archive is ever read and nothing hangs. Every read has a bound: the
index's (:data:`~qubic_logic.book.archive_index.MAX_INDEX_BYTES`), and a
proof's from the size its index claims (:func:`proof_limit`): the text of
a proof of ``n`` strategic positions is its header and ``n`` lines, so a
compressed file that would inflate past that is refused after reading at
most that much, whatever its checksum says.

>>> import tempfile, os
>>> folder = tempfile.mkdtemp()
>>> os.mkfifo(os.path.join(folder, 'x.dict.gz'))
>>> read_proof(folder, 'x.dict.gz', '0' * 64, 10)
Traceback (most recent call last):
...
qubic_logic.errors.DataFormatError: a FIFO (named pipe); expected a regular file inside the archive
"""

from __future__ import annotations

import errno
import gzip
import hashlib
import os
import stat
import zlib
from typing import BinaryIO

from ..errors import DataFormatError
from ..saving import kind_of

HEADER_BYTES = 64 << 10  # a proof's free text above its separator line (the book's own: a few hundred bytes)
ENTRY_BYTES = 68  # the longest entry line: a position of 64 cells, a space, a move of two digits, a newline
GZIP_SLACK = 1 << 20  # compressed text can be a little larger than the text itself
CHUNK = 1 << 16
EXPECTED = "expected a regular file inside the archive"


def proof_limit(proof_size: int) -> int:
    """The most bytes of text a proof of ``proof_size`` strategic positions can take.

    >>> proof_limit(0), proof_limit(1000)
    (65536, 133536)
    """
    return HEADER_BYTES + proof_size * ENTRY_BYTES


def open_member(folder: str | os.PathLike, name: str) -> BinaryIO | None:
    """The regular file ``name`` of the archive at ``folder``, open for reading; None when it is absent.

    Raises :class:`DataFormatError` saying what it is when it is anything else (nothing is opened
    through a link, and a FIFO or device is never opened).
    """
    path = os.path.join(folder, name)
    try:
        before = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise DataFormatError(f"cannot read it ({exc.strerror}); {EXPECTED}") from None
    kind = kind_of(before.st_mode)
    if kind is not None:
        raise DataFormatError(f"{kind}; {EXPECTED}")
    try:  # (no link followed, no wait on a FIFO put there since the look above)
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        what = "a symbolic link" if exc.errno == errno.ELOOP else f"cannot read it ({exc.strerror})"
        raise DataFormatError(f"{what}; {EXPECTED}") from None
    now = os.fstat(fd)
    if not stat.S_ISREG(now.st_mode) or (now.st_dev, now.st_ino) != (before.st_dev, before.st_ino):
        os.close(fd)
        raise DataFormatError(f"{kind_of(now.st_mode) or 'replaced while read'}; {EXPECTED}")
    return os.fdopen(fd, "rb")


def read_member(folder: str | os.PathLike, name: str, limit: int, what: str) -> bytes | None:
    """The bytes of the member ``name`` (None when absent), refused past ``limit`` bytes; ``what`` names it."""
    where = os.path.join(folder, name)
    try:
        member = open_member(folder, name)
    except DataFormatError as exc:
        raise DataFormatError(f"{where}: {exc}") from None
    if member is None:
        return None
    with member:
        data = member.read(limit + 1)
    if len(data) > limit:
        raise DataFormatError(f"{where}: larger than {limit >> 20:,} MB; expected {what} of at most that")
    return data


class _Hashed:
    """A file read through a SHA-256, at most ``limit`` bytes (then :class:`DataFormatError`)."""

    def __init__(self, raw: BinaryIO, limit: int) -> None:
        self.raw, self.limit, self.count = raw, limit, 0
        self.digest = hashlib.sha256()

    def read(self, size: int = -1) -> bytes:
        want = CHUNK if size is None or size < 0 else min(size, CHUNK)
        data = self.raw.read(want)
        self.count += len(data)
        if self.count > self.limit:
            raise _TooLarge
        self.digest.update(data)
        return data

    def drain(self) -> None:
        while self.read(CHUNK):
            pass


class _TooLarge(Exception):
    pass


def read_proof(folder: str | os.PathLike, name: str, sha256: str, proof_size: int) -> str:
    """The text of the proof file ``name`` (gzip-compressed when it ends ``.gz``), checked against its
    SHA-256 and read within :func:`proof_limit` of ``proof_size``; :class:`DataFormatError` saying what is
    wrong with it otherwise."""
    limit = proof_limit(proof_size)
    too_large = DataFormatError(f"larger than a proof of {proof_size:,} strategic positions can be (more than "
                                f"{limit:,} bytes of text)")
    member = open_member(folder, name)
    if member is None:
        raise DataFormatError("missing: the archive holds no such file")
    compressed = name.endswith(".gz")
    with member:
        if os.fstat(member.fileno()).st_size > limit + (GZIP_SLACK if compressed else 0):
            raise too_large
        hashed = _Hashed(member, limit + GZIP_SLACK)
        failure: Exception | None = None
        try:
            try:
                if compressed:
                    with gzip.GzipFile(fileobj=hashed, mode="rb") as text:  # type: ignore[arg-type]
                        data = text.read(limit + 1)  # (reads on until that much or the end)
                else:
                    data = b"".join(iter(lambda: hashed.read(CHUNK), b""))
            except (OSError, EOFError, zlib.error) as exc:
                data, failure = b"", exc
            if len(data) > limit:
                raise too_large
            hashed.drain()  # the checksum covers every byte of the file
        except _TooLarge:
            raise too_large from None
    if hashed.digest.hexdigest() != sha256:
        raise DataFormatError("damaged: its SHA-256 does not match the index")
    if failure is not None:
        raise DataFormatError(f"damaged: {failure}")
    try:
        return data.decode("ascii")
    except UnicodeDecodeError as exc:
        raise DataFormatError(f"damaged: not ASCII text ({exc.reason} at byte {exc.start:,}); expected a "
                              "strategy dictionary") from None
