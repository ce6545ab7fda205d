"""Parsers for the seed excerpts committed under ``rules/claims/`` (tables, appendices, games).

An excerpt file keeps the seed's lines verbatim, each prefixed with its line
number in the seed (``1073| 1 -2 22 -4 ...``), so every parsed item can say
where it came from. Cells stay in the seed's own numbering (1..64 or planar
1..16); callers convert.

>>> tokens_of('26-10 14 -7')
[26, -10, 14, -7]
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from importlib import resources

from ..errors import DataFormatError


def excerpt_lines(name: str) -> list[tuple[int, str]]:
    """``(seed line number, text)`` of an excerpt file in ``rules/claims/``, comments dropped."""
    path = resources.files("qubic_logic.rules").joinpath("claims", name)
    if not path.is_file():
        raise DataFormatError(f"seed excerpt {name!r} not found in rules/claims/")
    out = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        if raw.startswith("#") or not raw.strip():
            continue
        number, sep, text = raw.partition("| ")
        if not sep and raw.endswith("|"):
            number, text = raw[:-1], ""
        if not number.isdigit():
            raise DataFormatError(f"{name}: line {raw!r} does not start with '<seed line>| '")
        out.append((int(number), text))
    return out


def tokens_of(text: str) -> list[int]:
    """Signed cell numbers of an Appendix C line: ``-`` belongs to the number (O's move)."""
    return [int(t) for t in re.findall(r"-?\d+", text)]


@dataclass(frozen=True)
class Entry:
    """One item read from a seed: the numbers on it and the seed line it is on."""

    line: int
    numbers: tuple[int, ...]
    label: str = ""


def appendix_b(name: str = "seed003-appendix-b.txt") -> list[Entry]:
    """McDaniel's Appendix B situations ``X1 O1 X2 O2`` (1..64), read down each column.

    >>> entries = appendix_b()
    >>> entries[0].numbers, entries[-1].numbers
    ((1, 2, 22, 3), (1, 22, 13, 49))
    """
    blocks: list[list[list[Entry]]] = []  # a block: consecutive lines with the same column count
    for number, text in excerpt_lines(name):
        groups = [g for g in re.split(r"\t+|\s{2,}", text.strip()) if g]
        quads = [tuple(int(v) for v in g.split()) for g in groups if re.fullmatch(r"\d+( \d+){3}", g)]
        if not quads:
            continue
        if not blocks or len(blocks[-1]) != len(quads):
            blocks.append([[] for _ in quads])
        for column, quad in zip(blocks[-1], quads):
            column.append(Entry(number, quad))
    return [entry for block in blocks for column in block for entry in column]


def table_ii(name: str = "seed003-table-ii.txt") -> list[Entry]:
    """McDaniel's Table II rows: three planar cells and ``label`` = 'unique', 'three in a row' or
    the equivalent triple as text ``'a b c'``.

    >>> rows = table_ii()
    >>> len(rows), rows[0].numbers, rows[0].label, rows[1].label
    (36, (1, 4, 6), 'unique', '1 4 6')
    """
    rows = []
    for number, text in excerpt_lines(name):
        m = re.fullmatch(r"(\d+) (\d+) (\d+)\t(.*)", text.strip())
        if m:
            label = m.group(4).strip().lower()
            rows.append(Entry(number, tuple(int(v) for v in m.group(1, 2, 3)), label))
    return rows


def table_iv(name: str = "seed003-table-iv.txt") -> list[Entry]:
    """McDaniel's Table IV situations, by their ``N.`` labels; ``label`` is the column heading.

    >>> rows = table_iv()
    >>> len(rows), rows[26].numbers, rows[26].label
    (28, (1, 4, 13), 'forced wins')
    """
    headings: list[str] = []
    found: dict[int, Entry] = {}
    for number, text in excerpt_lines(name):
        if "Three in a Row" in text:
            headings = [h.strip().lower() for h in text.split("\t") if h.strip()]
            continue
        for m in re.finditer(r"(\d+)\. (\d+) (\d+) (\d+)", text):
            found[int(m.group(1))] = Entry(number, tuple(int(v) for v in m.group(2, 3, 4)))
    if not headings or sorted(found) != list(range(1, len(found) + 1)):
        raise DataFormatError("Table IV: expected a heading row and situations numbered 1..N")
    # The columns are Three in a Row 1-3, No Two 4-8, No Solution 9-17, Forced Wins 18-28 (L576).
    bounds = [(1, 3), (4, 8), (9, 17), (18, len(found))]
    out = []
    for k, entry in sorted(found.items()):
        column = next(i for i, (lo, hi) in enumerate(bounds) if lo <= k <= hi)
        out.append(Entry(entry.line, entry.numbers, headings[column]))
    return out


@dataclass(frozen=True)
class Record:
    """One Appendix C record: its tokens and the seed line of each token."""

    line: int
    tokens: tuple[int, ...]
    token_lines: tuple[int, ...]


def appendix_c(name: str = "seed003-appendix-c.txt") -> list[Record]:
    """McDaniel's Appendix C records (blank-line separated, each starting ``1 -2 22 -4``).

    >>> records = appendix_c()
    >>> records[0].tokens[:8], records[0].line
    ((1, -2, 22, -4, 27, -3, -5, -7), 1073)
    """
    records: list[Record] = []
    tokens: list[int] = []
    lines: list[int] = []
    for number, text in excerpt_lines(name) + [(0, "")]:
        if not text.strip():
            if tokens:
                records.append(Record(lines[0], tuple(tokens), tuple(lines)))
            tokens, lines = [], []
            continue
        if not tokens and not text.lstrip().startswith("1 -2"):
            continue  # headings
        found = tokens_of(text)
        tokens += found
        lines += [number] * len(found)
    return records


def record_games(record: Record) -> list[list[tuple[int, int]]]:
    """Expand a record's runs of O alternatives into games: lists of ``(signed cell, seed line)``.

    A run of several negative tokens lists O replies that share the continuation (L625).

    >>> [[c for c, _ in g] for g in record_games(Record(1, (1, -2, -3, 4), (1, 1, 1, 1)))]
    [[1, -2, 4], [1, -3, 4]]
    """
    games: list[list[tuple[int, int]]] = [[]]
    i, tokens = 0, record.tokens
    while i < len(tokens):
        j = i
        while tokens[i] < 0 and j < len(tokens) and tokens[j] < 0:
            j += 1
        run = list(zip(tokens[i:j], record.token_lines[i:j])) if j > i + 1 else [(tokens[i], record.token_lines[i])]
        games = [g + [alt] for g in games for alt in run]
        i = max(j, i + 1)
    return games


def table_iii(name: str = "seed003-table-iii.txt") -> list[Entry]:
    """McDaniel's Table III variations of the 1,4,13 trap: planar moves O, X, O, X, ... in order;
    ``label`` is ``'solution'``, ``'reference'`` (a "See"/"Same as" line, no moves) or ``''``.

    >>> rows = table_iii()
    >>> rows[0].numbers, rows[14].numbers, rows[14].label
    ((2, 3, 5, 9, 7, 10, 6, 8, 11, 16), (2, 3, 9, 5, 10, 7, 6, 14, 11, 12, 16), 'solution')
    """
    rows = []
    for number, text in excerpt_lines(name):
        text = text.strip()
        if not re.match(r"\d+-\d+", text):
            continue
        if "See" in text or "Same as" in text:
            rows.append(Entry(number, (), "reference"))
            continue
        m = re.fullmatch(r"([\d,\- ]+)\.\s*(Solution)?", text)
        if not m:
            raise DataFormatError(f"Table III line {number}: cannot read {text!r}")
        moves = tuple(int(v) for v in re.findall(r"\d+", m.group(1)))
        rows.append(Entry(number, moves, "solution" if m.group(2) else ""))
    return rows


def sample_game(name: str = "seed004-sample-game.txt") -> list[tuple[int, str, str]]:
    """The HP-67 sample game: ``(seed line, human move, machine move)`` as printed (``.zyx``).

    >>> sample_game()[9]
    (319, '.413', '1.141')
    """
    out = []
    for number, text in excerpt_lines(name):
        m = re.match(r"(\d+)\t(\d?\.\d{3})\t(\d?\.\d{3})", text)
        if m:
            out.append((number, m.group(2), m.group(3)))
    return out


#: Reasons the 1107 program printed (Citrenbaum, seed 000 App. III), matched on the OCR'd words:
#: (kind, pattern). A line counts once, for the first pattern it matches.
REASON_PATTERNS: tuple[tuple[str, str], ...] = (
    ("preset move", r"preset"),
    ("makes a 4-0 file (wins)", r"4-0 file"),
    ("forms two 3-0 files", r"two 3-0"),
    ("moves to a watch cell", r"moves to [xo]watch"),
    ("starts a TFS", r"starts a tfs"),
    ("continues a TFS", r"continues tfs"),
    ("blocks a TFS", r"\ba t[fe]s\b"),
    ("blocks a related pair", r"related"),
    ("blocks a three in a row", r"[o0]\W?-\W?[%]?3|3-0 (file|pile)"),
    ("forms an excess plane", r"\ban [@e]xcess|forms excess"),
)


def appendix_iii_reasons(name: str = "seed000-appendix-iii.txt") -> dict[str, Counter[str]]:
    """Citrenbaum's Appendix III: for each game, how often each reason was printed (as far as the
    OCR can be read: reasons split over columns are counted by their distinctive words).

    >>> games = appendix_iii_reasons()
    >>> list(games), games["Game Three"]["continues a TFS"]
    (['Game One', 'Game Two', 'Game Three'], 2)
    """
    games: dict[str, Counter[str]] = {}
    current: Counter[str] | None = None
    for _number, text in excerpt_lines(name):
        heading = re.search(r"Game (One|Two|Three)", text)
        if heading:
            current = games.setdefault(f"Game {heading.group(1)}", Counter())
            continue
        if current is None:
            continue
        low = text.lower().replace("=", "-").replace("~", "-")
        for kind, pattern in REASON_PATTERNS:
            if re.search(pattern, low):
                current[kind] += 1
                break
    return games
