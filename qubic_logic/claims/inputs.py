"""Facts a claim's rules read: the seed's tables and games, parsed from the committed excerpts.

Each fact set is named in a claim's ``inputs``; the text is valid in both ASP
and Prolog (integers and lowercase atoms; Prolog-only sets may use lists).
Cells keep the seed's numbering (1..64, or planar 1..16); the rules convert.

>>> print(facts('table_iv').splitlines()[0])
situation(1, 577, 1, 2, 3, three_in_a_row).
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable

from ..errors import DataFormatError
from ..seeds import excerpts
from .catalog import claims_dir


def _appendix_b() -> list[str]:
    return [f"listed({i}, {e.line}, {', '.join(map(str, e.numbers))})."
            for i, e in enumerate(excerpts.appendix_b(), 1)]


def _table_ii() -> list[str]:
    out = []
    for i, e in enumerate(excerpts.table_ii(), 1):
        a, b, c = e.numbers
        out.append(f"row({i}, {e.line}, {a}, {b}, {c}).")
        if e.label == "unique":
            out.append(f"says_unique({i}).")
        elif e.label == "three in a row":
            out.append(f"says_three_in_a_row({i}).")
        else:
            target = [int(v) for v in e.label.split()]
            if len(target) != 3:
                raise DataFormatError(f"Table II line {e.line}: cannot read {e.label!r}")
            out.append(f"says_same({i}, {target[0]}, {target[1]}, {target[2]}).")
    return out


def _table_iv() -> list[str]:
    return [f"situation({i}, {e.line}, {', '.join(map(str, e.numbers))}, {e.label.replace(' ', '_')})."
            for i, e in enumerate(excerpts.table_iv(), 1)]


def _table_iii_003() -> list[str]:
    return [f"variation({i}, {e.line}, {list(e.numbers)}, {e.label or 'none'})."
            for i, e in enumerate(excerpts.table_iii(), 1)]


def _table_iii_000() -> list[str]:
    path = claims_dir().joinpath("seed000-table-iii.toml")
    rows = tomllib.loads(path.read_text(encoding="utf-8"))["row"]
    out = []
    for i, row in enumerate(rows, 1):
        a, b, c = row["cells"]
        out.append(f"row({i}, {row['line']}, {a}, {b}, {c}).")
        if "two_zero" in row:
            out.append(f"says_two_zero({i}, {row['two_zero']}).")
        out.append(f"says_tfs({i}, {'yes' if row['tfs'] else 'no'}).")
        if "openings" in row:
            kind = "partial" if row.get("openings_partial") else "full"
            out.append(f"says_openings({i}, {row['openings']}, {kind}).")
    return out


def _appendix_c() -> list[str]:
    out = []
    for r, record in enumerate(excerpts.appendix_c(), 1):
        out.append(f"record({r}, {record.line}, {list(record.tokens)}, {list(record.token_lines)}).")
    return out


def _sample_game() -> list[str]:
    out = []
    for move, (line, human, machine) in enumerate(excerpts.sample_game(), 1):
        for side, text in (("human", human), ("machine", machine)):
            flag, digits = text.split(".")
            z, y, x = (int(d) for d in digits)
            out.append(f"entry({move}, {side}, {line}, {z}, {y}, {x}, {int(flag or 0)}).")
    return out


def _doake_pattern_cases() -> list[str]:
    from ..players.doake.claim import facts as case_facts, pattern_cases

    return case_facts(pattern_cases())


FACT_SETS: dict[str, Callable[[], list[str]]] = {
    "appendix_b": _appendix_b,
    "table_ii": _table_ii,
    "table_iv": _table_iv,
    "table_iii_000": _table_iii_000,
    "table_iii_003": _table_iii_003,
    "appendix_c": _appendix_c,
    "sample_game": _sample_game,
    "doake_pattern_cases": _doake_pattern_cases,
}


def facts(name: str) -> str:
    """The facts of one named set, one per line."""
    if name not in FACT_SETS:
        raise DataFormatError(f"unknown input {name!r}; expected one of {sorted(FACT_SETS)}")
    return "\n".join(FACT_SETS[name]()) + "\n"
