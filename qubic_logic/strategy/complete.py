"""The complete dictionary: every decision X makes with no forced-win routine, up to symmetry.

A dictionary relies on rule (4): where it has no entry, X finds a forced
win by threat sequence. A player without that routine needs a move at every
position it meets where it neither wins now nor blocks a three: the
dictionary's own positions and every position along the forced wins the
verifier found (after each forced block of the opponent). Any suffix of a
forced win is a forced win from where it starts, so the first move met for a
position (the dictionary's before the witnesses') keeps the strategy winning.

>>> d = StrategyDictionary.parse("root: x2x1o6x14o20o\\n---\\nx2x1o6x14o20o 21\\n")
>>> len(d), len(complete_dictionary(d))     # the entry, then each step of the forced wins after it
(1, 287)
"""

from __future__ import annotations

from collections.abc import Iterable

from ..core import core_module
from ..errors import Interrupted, QubicError
from .dictionary import Entry, StrategyDictionary
from .verify import Progress, Witness, verify


def decisions(dictionary: StrategyDictionary, witnesses: Iterable[Witness]) -> StrategyDictionary:
    """The dictionary's entries, then each X decision along the ``witnesses`` (forced wins), once up to symmetry."""
    core = core_module()
    result = StrategyDictionary((), dictionary.header)
    for entry in dictionary:
        result.add(Entry(entry.position, entry.move))
    for witness in witnesses:
        position = witness.position
        for i, cell in enumerate(witness.sequence):
            if i % 2 == 0:
                decides = not core.threat_cells(position.x, position.o) and not core.threat_cells(position.o, position.x)
                if decides and position not in result:
                    result.add(Entry(position, cell))
            position = position.play(cell)
            if position.is_over:
                break
    return result


def complete_dictionary(dictionary: StrategyDictionary, *, progress: Progress | None = None) -> StrategyDictionary:
    """Every X decision of the verified ``dictionary`` played from its root (see the module text).

    The verification comes first (``progress(phase, done, total)`` as it goes). Stopped by Ctrl-C,
    in it or while the decisions are listed, it raises :class:`~qubic_logic.errors.Interrupted` saying
    how far it got (nothing is listed: a list missing some forced wins would not be the complete one); a dictionary that does not
    win is a :class:`~qubic_logic.errors.QubicError`.
    """
    v = verify(dictionary, dictionary.root, progress=progress)
    if v.verdict == "incomplete":
        raise Interrupted(f"the verification was stopped ({v.stopped}) after {v.positions:,} positions up to "
                          f"symmetry and {len(v.witnesses):,} forced wins ({v.unsettled:,} not settled); nothing "
                          "listed: the list is complete only once the verification is", partial=v)
    if v.verdict != "verified":
        raise QubicError(f"the dictionary is {v.verdict}, not verified; expected a winning dictionary "
                         "(qubic verify dictionary FILE)")
    try:
        return decisions(dictionary, v.witnesses)
    except KeyboardInterrupt:
        raise Interrupted(f"the verification was done ({v.positions:,} positions up to symmetry, "
                          f"{len(v.witnesses):,} forced wins), then stopped while listing their decisions; "
                          "nothing listed: the list is complete only once every forced win is walked") from None
