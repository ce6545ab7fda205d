"""A dictionary compiled to a Prolog strategy file: one fact per entry and orientation.

Each entry of a Patashnik-format dictionary becomes the facts
``entry(XMask, OMask, Move)`` of all its images under the 192 automorphisms,
so that lookup up to symmetry is one indexed call; ``play/1`` computes the
position's masks and looks them up (no entry: no move). The strategy is the
dictionary's, so ``qubic verify strategy OUT.pl`` gives the counts of
``qubic verify dictionary``. Run it as
``python -m qubic_logic.strategy.compile DICTIONARY OUT.pl`` (Patashnik's
dictionary gives about 560,000 facts, 25 MB: generated, not shipped).

>>> from qubic_logic.strategy.dictionary import StrategyDictionary
>>> text = dictionary_rules(StrategyDictionary.parse("---\\nxo 5\\n"))
>>> sum(line.startswith("entry(") for line in text.splitlines()), "play(C) :-" in text
(96, True)
"""

from __future__ import annotations

import sys

from ..symmetry import TRANSFORMS
from ..saving import line_safe, write_atomically
from .dictionary import StrategyDictionary

LOOKUP = """
% The position's masks (bit C for cell C), then the entry of this orientation.
play(C) :-
    aggregate_all(sum(1 << X), x(X), XMask),
    aggregate_all(sum(1 << O), o(O), OMask),
    entry(XMask, OMask, C), !.
"""


def _image(mask: int, perm: tuple[int, ...]) -> int:
    out = 0
    while mask:
        low = mask & -mask
        out |= 1 << perm[low.bit_length() - 1]
        mask ^= low
    return out


def dictionary_rules(dictionary: StrategyDictionary, source: str = "a dictionary") -> str:
    """The Prolog text: a header comment, the lookup rule, then the facts (distinct images only)."""
    facts: dict[tuple[int, int], int] = {}
    for e in dictionary:
        for perm in TRANSFORMS:
            facts.setdefault((_image(e.position.x, perm), _image(e.position.o, perm)), perm[e.move])
    lines = [f"% {line_safe(source)} compiled by qubic_logic.strategy.compile: {len(dictionary)} entries,",
             f"% {len(facts)} distinct orientations as entry(XMask, OMask, Move).",
             ":- discontiguous entry/3.", LOOKUP]
    lines += [f"entry({x}, {o}, {m})." for (x, o), m in facts.items()]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """``python -m qubic_logic.strategy.compile DICTIONARY OUT.pl``."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2 or not args[1].endswith(".pl"):
        print("usage: python -m qubic_logic.strategy.compile DICTIONARY OUT.pl", file=sys.stderr)
        return 2
    dictionary = StrategyDictionary.load(args[0])
    write_atomically(args[1], dictionary_rules(dictionary, args[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
