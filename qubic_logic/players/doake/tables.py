"""The learned tables: TEST (with AJUST), SUTEST, and where each pattern came from.

TEST holds up to 32 patterns of at most five line sums (L578), SUTEST up to
20 patterns of at most three (computer colours only); missing elements are
−1. Columns 1–4 are the rule book: four in a row and three in a row for
both sides, 20, 4, 15, 3, as SEARCH treats them (L1753; digest §13 item 7:
the data page's "only 20 and 4" would leave threes unseen, so both readings
pre-load all four).

>>> t = Tables()
>>> t.test[:4], t.find((20, -1, -1, -1, -1)), t.find((20, 4, -1, -1, -1))
([(20, -1, -1, -1, -1), (4, -1, -1, -1, -1), (15, -1, -1, -1, -1), (3, -1, -1, -1, -1)], 0, -1)
>>> describe((10, 5, 10, -1, -1))
'10,5,10'
"""

from __future__ import annotations

from dataclasses import dataclass, field

TEST_SIZE, SUTEST_SIZE = 32, 20
RULE_BOOK: tuple[tuple[int, ...], ...] = tuple((s, -1, -1, -1, -1) for s in (20, 4, 15, 3))

Pattern = tuple[int, ...]


def describe(pattern: Pattern) -> str:
    """A pattern as Doake writes it: its line sums joined by commas."""
    return ",".join(str(v) for v in pattern if v >= 0)


def is_computer(pattern: Pattern) -> bool:
    """Whether a pattern is in the computer's colours (its sums are made of 5s).

    >>> is_computer((10, 0, 10, 10, -1)), is_computer((2, 1, 2, -1, -1))
    (True, False)
    """
    return max(pattern) >= 5


@dataclass
class Entry:
    """One learned pattern: its sums, the game that taught it, how often it fired."""

    pattern: Pattern
    game: int | None = None
    fired: int = 0


@dataclass
class Tables:
    """TEST + AJUST and SUTEST, rule book first; learned entries carry their origin."""

    tests: list[Entry] = field(default_factory=lambda: [Entry(p) for p in RULE_BOOK])
    ajust: list[int] = field(default_factory=lambda: [0] * len(RULE_BOOK))
    sutests: list[Entry] = field(default_factory=list)

    @property
    def test(self) -> list[Pattern]:
        """TEST columns in order (column c is ``test[c - 1]``)."""
        return [e.pattern for e in self.tests]

    @property
    def sutest(self) -> list[Pattern]:
        """SUTEST columns in order."""
        return [e.pattern for e in self.sutests]

    def find(self, pattern: Pattern) -> int:
        """TESTT (L1662–1698): the 0-based column of an exact match (the last one), or −1."""
        same = -1
        for i, e in enumerate(self.tests):
            if e.pattern == pattern:
                same = i
        return same

    def add_test(self, pattern: Pattern, game: int | None) -> bool:
        """Append a TEST column; False when TEST is full (32 columns, no overflow check in the listing)."""
        if len(self.tests) >= TEST_SIZE:
            return False
        self.tests.append(Entry(pattern, game))
        self.ajust.append(0)
        return True

    def add_sutest(self, pattern: Pattern, game: int | None) -> bool:
        """Append a SUTEST column; False when SUTEST is full (20 columns)."""
        if len(self.sutests) >= SUTEST_SIZE:
            return False
        self.sutests.append(Entry(pattern, game))
        return True

    def learned(self) -> int:
        """Number of learned TEST and SUTEST patterns."""
        return len(self.tests) - len(RULE_BOOK) + len(self.sutests)
