"""A compressed strategy written as ASP or Prolog rules: one pattern per wildcard line.

Every wildcard line (:mod:`.compress`) has X's marks in canonical form (the
least image of X's marks under the 192 automorphisms), so a position
matches a line only in the frames that bring X's marks there.

- **Prolog** (``play/1`` over ``x/1`` and ``o/1``): the rules try the 192
  automorphisms (``board_map(T, Cells)``, the image of cell C as argument
  C+1), map X's marks, look the mask up among the ``pattern(XMask, OBase,
  Wildcards, Move)`` facts (indexed on X's mask), check that O's marks are the
  base plus one wildcard cell (or the base alone for a line without
  wildcards), and map the move back.
- **ASP**: the rules read the position's canonical form through the
  canonical-form predicates ``canonical_x/1`` and ``canonical_o/1``, declared
  ``#external`` and set at each call by the strategy runner
  (:class:`~qubic_logic.strategy.sources.AspStrategy`). One rule per line and
  symmetry of its X marks proposes ``candidate(M)``; the least candidate is
  ``canonical_play(M)``, a move in the canonical frame that the runner maps
  back onto the board.

>>> from qubic_logic.strategy.wildcard import WildcardLine
>>> text = strategy_rules([WildcardLine(1, 0, 6, 21)], "asp")
>>> [line for line in text.splitlines() if line.startswith("candidate")][:1]
['candidate(21) :- xs(1), 1 { canonical_o(1); canonical_o(2) }.']
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Sequence

from ..geometry import cells_of
from ..notation import format_patashnik
from ..saving import line_safe
from ..symmetry import TRANSFORMS, map_mask
from .dictionary import StrategyDictionary
from .wildcard import WildcardLine

CANONICAL_EXTERNALS = """\
% The position's canonical form (its least image under the 192 automorphisms), set at each call by
% the strategy runner: canonical_x(C), canonical_o(C) are its marks. A move derived as
% canonical_play(M) is in that frame; the runner maps it back onto the board.
#external canonical_x(C) : cell(C).
#external canonical_o(C) : cell(C).
"""

PROLOG_LOOKUP = """\
% X to move: map X's marks by each automorphism T, find a pattern with those X marks,
% check O's marks (the base, plus one wildcard cell when the pattern has wildcards),
% and play the pattern's move mapped back by T.
play(C) :-
    findall(X, x(X), Xs), findall(O, o(O), Os),
    length(Xs, N), length(Os, N),
    board_map(_, Map),
    mask_image(Xs, Map, 0, XMask),
    pattern(XMask, OBase, Wild, Move),
    mask_image(Os, Map, 0, OMask),
    OMask /\\ \\Wild =:= OBase,
    arg(I, Map, Move), C is I - 1, !.

mask_image([], _, Mask, Mask).
mask_image([C|Cs], Map, Mask0, Mask) :-
    I is C + 1, arg(I, Map, D),
    Mask1 is Mask0 \\/ (1 << D),
    mask_image(Cs, Map, Mask1, Mask).
"""


def _stabiliser(mask: int) -> list[int]:
    """The automorphisms that map ``mask`` onto itself."""
    return [t for t in range(len(TRANSFORMS)) if map_mask(t, mask) == mask]


def _cells(mask: int) -> str:
    return ", ".join(map(str, cells_of(mask)))


def asp_rules(lines: Sequence[WildcardLine]) -> list[str]:
    """The ASP program: X patterns, one candidate rule per line and symmetry of its X marks, the choice."""
    patterns: dict[int, int] = {}
    out = [CANONICAL_EXTERNALS, "xmarks(N) :- N = #count { C : canonical_x(C) }.", ""]
    for line in lines:
        if line.x not in patterns:
            k = patterns[line.x] = len(patterns) + 1
            body = ", ".join(f"canonical_x({c})" for c in cells_of(line.x))
            out.append(f"xs({k}) :- {body + ', ' if body else ''}xmarks({line.x.bit_count()}).")
    out.append("")
    by_x: dict[int, list[WildcardLine]] = defaultdict(list)
    for line in lines:
        by_x[line.x].append(line)
    for x, group in by_x.items():
        symmetries = _stabiliser(x)
        for line in group:
            seen: set[tuple[int, int, int]] = set()
            for t in symmetries:
                base, wild, move = map_mask(t, line.o), map_mask(t, line.wild), TRANSFORMS[t][line.move]
                if (base, wild, move) in seen:
                    continue
                seen.add((base, wild, move))
                body = [f"xs({patterns[x]})", *(f"canonical_o({c})" for c in cells_of(base))]
                if wild:
                    body.append("1 { " + "; ".join(f"canonical_o({c})" for c in cells_of(wild)) + " }")
                out.append(f"candidate({move}) :- {', '.join(body)}.")
    out += ["",
            "% The least candidate (a symmetric position may match in several frames).",
            "smaller(M) :- candidate(M), candidate(M1), M1 < M.",
            "canonical_play(M) :- candidate(M), not smaller(M)."]
    return out


def prolog_rules(lines: Sequence[WildcardLine]) -> list[str]:
    """The Prolog program: the lookup, the 192 automorphisms, one ``pattern/4`` fact per line."""
    out = [PROLOG_LOOKUP, "% board_map(T, Map): arg(C + 1, Map, D) when automorphism T maps cell C to D."]
    out += [f"board_map({t}, m({', '.join(map(str, perm))}))." for t, perm in enumerate(TRANSFORMS)]
    out += ["", "% pattern(XMask, OBase, Wildcards, Move): X's marks (canonical), O's fixed marks, the wildcard",
            "% cells (one of them holds an O mark), X's move; bit C is cell C."]
    out += [f"pattern({line.x}, {line.o}, {line.wild}, {line.move}).  % x {_cells(line.x)}; o {_cells(line.o)}"
            f"{'; one o of ' + _cells(line.wild) if line.wild else ''}" for line in lines]
    return out


def strategy_rules(lines: Sequence[WildcardLine], language: str, dictionary: StrategyDictionary | None = None,
                   name: str = "a dictionary", file: str | None = None) -> str:
    """The rule file text in ``language`` (``asp`` or ``prolog``) for the compressed ``lines``; its first
    line is ``% FILE -- what it is``, as in every shipped rule file (``qubic list strategies`` shows it),
    when the ``file`` it goes to is known.

    >>> first = strategy_rules([], "prolog", name="mine.dictionary", file="out/mine.pl").splitlines()[0]
    >>> first.split(" as ")[0], "in Prolog" in first
    ('% mine.pl -- mine.dictionary', True)
    """
    rules = asp_rules(lines) if language == "asp" else prolog_rules(lines)
    root = dictionary.root if dictionary is not None else None
    what = (f"{name} as {len(lines)} patterns (wildcard lines up to symmetry) in "
            f"{'ASP' if language == 'asp' else 'Prolog'}, written by qubic strategy convert.")
    header = [f"% {line_safe(os.path.basename(file))} -- {line_safe(what)}" if file else f"% {line_safe(what)}",
              "% X's move at every strategic position; the verifier adds (1) win now, (2) block a three and",
              "% (4) a forced win by threat sequence (docs/strategies.md).",
              f"% Verify: qubic verify strategy THIS_FILE{' --root ' + format_patashnik(root) if root and root.count else ''}"]
    if dictionary is not None and dictionary.header:
        header += ["%", "% The dictionary's own header (its source and terms):", *(f"% {line_safe(h)}".rstrip() for h in dictionary.header)]
    return "\n".join([*header, "", *rules]) + "\n"

