"""Certificates: every rule-(4) position of a verification with its forced-win witness.

The file follows the dictionary's layout: header lines, a dashed separator,
then one line per position — the position in Patashnik's run-length format
(the attacker to move), a space, and the witness as comma-separated cells
(attacker and defender alternately, ending with the move completing four).

>>> from qubic_logic.position import Position
>>> w = Witness(Position.from_cells([0, 16, 1, 17, 2, 18]), (3,))
>>> text = certificate_text([w], ['example'])
>>> text.splitlines()[-1]
'xxx13ooo 3'
>>> parse_certificate(text)[0] == w
True
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Iterable, Sequence

from ..errors import DataFormatError
from ..notation import format_patashnik, shown
from ..saving import line_safe, write_atomically
from .dictionary import read_position
from .verify import Verification, Witness

_LINE = re.compile(r"([xo0-9]*) ([0-9]+(?:,[0-9]+)*)")
SEPARATOR = "-" * 41


def certificate_text(witnesses: Iterable[Witness], header: Sequence[str]) -> str:
    """The certificate file text (each header line kept to its line)."""
    lines = [*map(line_safe, header), SEPARATOR]
    lines += [f"{format_patashnik(w.position)} {','.join(map(str, w.sequence))}" for w in witnesses]
    return "\n".join(lines) + "\n"


def write_certificate(verification: Verification, path: str | os.PathLike, source: str) -> None:
    """Write the certificate of ``verification`` (of dictionary ``source``) atomically."""
    v = verification
    header = [
        f"qubic-logic certificate for {source}",
        f"root: {format_patashnik(v.root)}",
        f"verdict: {v.verdict}; {v.positions} positions; by rule {v.by_rule}; "
        f"longest forced sequence {v.longest}",
        "Each line: a position (Patashnik's run-length format, the attacker to move), a space, and a",
        "forced win by threat sequence (docs/design.md section 3): cells 0..63, attacker and defender",
        "alternately, comma-separated, ending with the move that completes four.",
    ]
    write_atomically(path, certificate_text(v.witnesses, header))


def parse_certificate(text: str, source: str = "<text>") -> list[Witness]:
    """The witnesses of a certificate; malformed lines raise :class:`DataFormatError` with their number."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    try:
        sep = lines.index(SEPARATOR)
    except ValueError:
        raise DataFormatError(f"{source}: no separator line {SEPARATOR!r}; expected a certificate") from None
    out = []
    for number, line in enumerate(lines[sep + 1 :], start=sep + 2):
        m = _LINE.fullmatch(line)
        if m is None:
            raise DataFormatError(
                f"{source} line {number}: {shown(line)} is not a certificate line; expected a Patashnik "
                "position, a space and comma-separated cells, e.g. 'xxx13ooo 3'"
            )
        position = read_position(m.group(1), f"{source} line {number}")
        wrong = [c for c in m.group(2).split(",") if len(c) > 2 or int(c) > 63]
        if wrong:
            cell = wrong[0] if len(wrong[0]) <= 6 else shown(wrong[0], 6)
            raise DataFormatError(f"{source} line {number}: cell {cell} is not a cell; expected 0..63")
        cells = tuple(int(c) for c in m.group(2).split(","))
        if len(cells) > 64 - position.count:
            raise DataFormatError(f"{source} line {number}: a witness of {len(cells):,} moves; expected at most "
                                  f"the {64 - position.count} empty cells")
        out.append(Witness(position, cells))
    return out


def load_certificate(path: str | os.PathLike) -> list[Witness]:
    """Read a certificate file."""
    try:
        text = Path(path).read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError) as exc:
        raise DataFormatError(f"cannot read certificate {shown(str(path))}: {exc}") from None
    return parse_certificate(text, str(path))
