"""A brain's patterns as declarative rules: ASP (``.lp``) or Prolog (``.pl``).

Each TEST pattern c (columns 5..) becomes one rule ``doake_pattern(c, P, M1)``:
seen from side P (P's counters 5, the other side's 1, as Doake's computer
sees the board) the pattern's lines are on the board and M1 (a cell 0..63,
Doake's square M1 + 1) is its key square. The rules say what SEARCH tests
(L1708–1979): line 1 and line 2 meet at the blank M1, line 3 passes through
a blank of line 2, line 4 has a blank on line 2, line 5 only has its sum;
lines are distinct. SEARCH reports the first realisation in its line order;
the rules give every key square. They read ``x/1`` and ``o/1`` and use the
project's geometry (``cell/1``, ``line/1``, ``line_cells/5``, ``in_line/2``),
so they load next to ``rules/geometry.lp`` or ``geometry.pl``.

>>> print(pattern_rule(5, (10, 10, -1, -1, -1), 'asp'))
doake_pattern(5, P, M1) :- doake_sum(P, L1, 10), in_line(M1, L1), doake_blank(M1), in_line(M1, L2), L2 != L1, doake_sum(P, L2, 10).
"""

from __future__ import annotations

from pathlib import Path

from ...errors import QubicError
from ...saving import line_safe, write_atomically
from .tables import Pattern, Tables, describe, is_computer

_PRELUDE = {
    "asp": """\
doake_side(x;o).
doake_other(x, o). doake_other(o, x).
doake_mark(x, C) :- x(C).
doake_mark(o, C) :- o(C).
doake_blank(C) :- cell(C), not x(C), not o(C).
% the sum of line L seen from side P: 5 per counter of P, 1 per counter of the other side
doake_sum(P, L, 5 * N + M) :- doake_side(P), doake_other(P, Q), line(L),
    N = #count { C : in_line(C, L), doake_mark(P, C) }, M = #count { C : in_line(C, L), doake_mark(Q, C) }.
""",
    "prolog": """\
:- discontiguous doake_pattern/3.
doake_side(x).
doake_side(o).
doake_other(x, o).
doake_other(o, x).
doake_mark(x, C) :- x(C).
doake_mark(o, C) :- o(C).
doake_blank(C) :- cell(C), \\+ x(C), \\+ o(C).
% the sum of line L seen from side P: 5 per counter of P, 1 per counter of the other side
doake_sum(P, L, S) :- doake_side(P), doake_other(P, Q), line_cells(L, A, B, C, D),
    aggregate_all(count, (member(E, [A, B, C, D]), doake_mark(P, E)), N),
    aggregate_all(count, (member(E, [A, B, C, D]), doake_mark(Q, E)), M),
    S is 5 * N + M.
""",
}
_NE = {"asp": "!=", "prolog": "\\=="}


def pattern_rule(column: int, pattern: Pattern, language: str) -> str:
    """The rule of one TEST column (``language`` 'asp' or 'prolog')."""
    ne = _NE[language]
    t1, t2, t3, t4, t5 = pattern
    body = [f"doake_sum(P, L1, {t1})", "in_line(M1, L1)", "doake_blank(M1)",
            "in_line(M1, L2)", f"L2 {ne} L1", f"doake_sum(P, L2, {t2})"]
    if t3 >= 0:
        body += ["in_line(M2, L2)", "doake_blank(M2)", "in_line(M2, L3)", f"L3 {ne} L1", f"L3 {ne} L2",
                 f"doake_sum(P, L3, {t3})"]
    if t4 >= 0:
        body += ["in_line(M4, L2)", "doake_blank(M4)", "in_line(M4, L4)",
                 *(f"L4 {ne} L{k}" for k in (1, 2, 3)), f"doake_sum(P, L4, {t4})"]
    if t5 >= 0:
        body += [f"doake_sum(P, L5, {t5})", *(f"L5 {ne} L{k}" for k in (1, 2, 3, 4))]
    return f"doake_pattern({column}, P, M1) :- {', '.join(body)}."


def rules_text(tables: Tables, language: str) -> str:
    """The whole rules file: a header, the shared predicates, one commented rule per learned pattern."""
    comment = "%"
    lines = [f"{comment} Doake's Score 4 (1972, seed 001): learned TEST patterns as rules (qubic learn --export).",
             f"{comment} doake_pattern(Column, P, M1): TEST column Column matches seen from side P; M1 = key cell.",
             "", _PRELUDE[language]]
    for column, (entry, ajust) in enumerate(zip(tables.tests, tables.ajust), 1):
        if column <= 4:
            continue
        origin = f"game {entry.game}" if entry.game is not None else "given"
        colour = "computer" if is_computer(entry.pattern) else "opponent"
        lines.append(line_safe(f"{comment} TEST {column}: {describe(entry.pattern)} ({colour}'s colours; taught by "
                               f"{origin}; AJUST {ajust}; fired {entry.fired})"))
        lines.append(pattern_rule(column, entry.pattern, language))
    if language == "asp":
        lines.append("#show doake_pattern/3.")
    return "\n".join(lines) + "\n"


def write_rules(tables: Tables, path: str) -> int:
    """Write the rules to ``path`` (``.lp`` ASP, ``.pl`` Prolog) atomically; returns the number of patterns."""
    suffix = Path(path).suffix
    languages = {".lp": "asp", ".pl": "prolog"}
    if suffix not in languages:
        raise QubicError(f"cannot export to {path!r}; expected a file name ending in .lp (ASP) or .pl (Prolog)")
    write_atomically(path, rules_text(tables, languages[suffix]))
    return len(tables.tests) - 4
