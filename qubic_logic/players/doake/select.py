"""Move selection (L658–1031, digest §8): threes and patterns, look-aheads, SUGOAL, counter scoring.

Ties go to the first square 1..64 (every comparison is ``IF(score.LE.best)``).
Where the listing and its plausible intent behave differently, ``literal``
selects the listing (docs/players.md, "Doake" section):

* the reply test's +30 goes into SUB1 (plausible) or, as L769 reads, into
  SUB, which then raises that square's base score for the rest of the session;
* a pattern is the computer's when its sums are made of 5s (plausible) or,
  in the computer look-ahead, as L898 reads, only when both its first two
  sums are at least 5 (so the computer's own 10,0,10,10 is misread);
* when the counter scoring method did not run, MARGE is 0 (plausible) or
  keeps its value from an earlier move (L1012–1027, stale).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .board import COMPUTER, LINES, OPPONENT, START, SUB, Board
from .search import THREE, search, sugoal
from .tables import Tables, describe, is_computer

OPPONENT_THREE, OPPONENT_PATTERN, OPPONENT_REPLY = 4, 9, 30  # L712, L719, L769
COMPUTER_THREE, COMPUTER_PATTERN = 5, 10  # L874, L880
SUGOAL_BONUS = 8  # L963
ATTACK_THRESHOLD, DEFENCE_THRESHOLD = 14, 15  # LARGE >= 14, BIG > 15 (L930–931)


@dataclass
class Choice:
    """The square chosen, why, and the TEST column that fired (if a pattern chose it).

    ``why`` names squares as ``{0}``, ``{1}``, ... for the ``squares`` (1..64) it cites,
    so that the player can write them in the user's notation.
    """

    square: int
    why: str
    column: int = 0
    squares: tuple[int, ...] = ()


@dataclass
class Selector:
    """Doake's move selection over a set of tables; keeps SUB and MARGE/LL between moves."""

    tables: Tables
    literal: bool = False
    rng: random.Random = field(default_factory=random.Random)
    sub: list[int] = field(default_factory=lambda: list(SUB))
    marge: int = 0
    ll: int = 0

    def choose(self, board: Board, own_moves: int) -> Choice:
        """The computer's move on ``board`` (5 = computer); ``own_moves`` = SCOUNT."""
        test = self.tables.test
        found = search(board, test, literal=self.literal)
        if found.m3 == THREE:
            what = "completes its three" if found.m2 == THREE else "blocks the opponent's three"
            return Choice(found.m1, f"{what} on line {found.line} (square {{0}})", squares=(found.m1,))
        if found.m1:
            p = test[found.m3 - 1]
            whose = "its" if is_computer(p) else "the opponent's"
            return Choice(found.m1, f"plays the key square {{0}} of {whose} pattern "
                          f"{describe(p)} (TEST column {found.m3})", found.m3, (found.m1,))
        if own_moves == 0:
            blank = [s for s in START if not board.move[s]]
            square = self.rng.choice(blank) if blank else board.blanks()[0]
            return Choice(square, "first move: strong square {0} drawn at random (START)", squares=(square,))
        big, bigopp = self._opponent_look_ahead(board)
        attack = self._computer_look_ahead(board)
        if isinstance(attack, Choice):
            return attack
        large, q = attack
        if large >= ATTACK_THRESHOLD or big > DEFENCE_THRESHOLD:
            marge = self.marge if self.literal else 0
            return self._path_a(big, bigopp, large, q, marge, board)
        charge, qq = self._sugoal_look_ahead(board)
        if charge > large:
            marge = self.marge if self.literal else 0
        else:
            marge, self.ll = self._counter_scoring(board)
            self.marge = marge
        return self._path_b(big, bigopp, large, q, charge, qq, marge, board)

    # -- look-aheads ---------------------------------------------------------------------
    def _opponent_look_ahead(self, board: Board) -> tuple[int, int]:
        """BIG, BIGOPP: an opponent counter on each blank square (L689–821)."""
        test, ajust = self.tables.test, self.tables.ajust
        big = bigopp = 0
        for i in board.blanks():
            board.put(i, OPPONENT)
            hits = search(board, test, listing=True, literal=self.literal).m11
            score = self.sub[i]
            for k, (key, p) in enumerate(hits):
                if p == THREE:
                    score += OPPONENT_THREE
                    if k + 1 >= len(hits):
                        break
                elif not (k and key == hits[k - 1][0]):
                    score += OPPONENT_PATTERN + ajust[p - 1]
                board.put(key, COMPUTER)
                reply = search(board, test, literal=self.literal)
                board.clear(key)
                if not reply.m1:
                    continue
                if reply.m2 == THREE or (reply.m3 != THREE and self._computers(test[reply.m3 - 1], 767)):
                    score = 0
                elif self.literal and reply.m3 != THREE:
                    self.sub[i] = score + OPPONENT_REPLY  # L769: SUB, not SUB1
                else:
                    score += OPPONENT_REPLY
                break
            board.clear(i)
            if score > big:
                big, bigopp = score, i
        return big, bigopp

    def _computer_look_ahead(self, board: Board) -> tuple[int, int] | Choice:
        """LARGE, Q: a computer counter on each blank square (L831–921); a double pattern plays at once."""
        test = self.tables.test
        large = q = 0
        for i in board.blanks():
            board.put(i, COMPUTER)
            hits = search(board, test, listing=True, literal=self.literal).m11
            score = self.sub[i]
            double = None
            for k, (key, p) in enumerate(hits):
                if p == THREE:
                    score += COMPUTER_THREE
                    if k + 1 >= len(hits):
                        break
                elif not (k and key == hits[k - 1][0]):
                    score += COMPUTER_PATTERN
                board.put(key, OPPONENT)
                reply = search(board, test, literal=self.literal)
                board.clear(key)
                if not reply.m1:
                    continue
                if reply.m2 == THREE or (reply.m3 != THREE and self._computers(test[reply.m3 - 1], 898)):
                    double = (key, reply)
                else:
                    score = 0
                break
            board.clear(i)
            if double:
                key, reply = double
                what = ("a three of its own" if reply.m2 == THREE
                        else f"its pattern {describe(test[reply.m3 - 1])}")
                return Choice(i, "double pattern: after {0} and the reply on its key square {1} "
                              f"it still has {what} (computer look-ahead, L926)", squares=(i, key))
            if score > large:
                large, q = score, i
        return large, q

    def _computers(self, pattern, listing_line: int) -> bool:
        """Whether a reply-test hit is a computer pattern: made of 5s, or as the listing tests it."""
        if not self.literal:
            return is_computer(pattern)
        if listing_line == 767:  # TEST(1).GT.4 .OR. TEST(2).GT.4
            return pattern[0] > 4 or pattern[1] > 4
        return pattern[0] >= 5 and pattern[1] >= 5  # L898: TEST(1).LT.5 .OR. TEST(2).LT.5 is the opponent's

    def _sugoal_look_ahead(self, board: Board) -> tuple[int, int]:
        """CHARGE, QQ: +8 where a computer counter makes a SUTEST pattern (L941–959)."""
        charge = qq = 0
        sutest = self.tables.sutest
        for i in board.blanks():
            board.put(i, COMPUTER)
            key, _ = sugoal(board, sutest) if sutest else (0, 0)
            board.clear(i)
            score = self.sub[i] + (SUGOAL_BONUS if key else 0)
            if score > charge:
                charge, qq = score, i
        return charge, qq

    def _counter_scoring(self, board: Board) -> tuple[int, int]:
        """MARGE, LL: +1 per line of 5, +2 per line of 10 through each blank (L971–1003)."""
        su1 = list(self.sub)
        for j in range(1, 77):
            bonus = {5: 1, 10: 2}.get(board.sums[j], 0)
            if bonus:
                for s in LINES[j]:
                    su1[s] += bonus
        marge = ll = 0
        for s in board.blanks():
            if su1[s] > marge:
                marge, ll = su1[s], s
        return marge, ll

    # -- the final choice (L1011–1029) -----------------------------------------------------
    def _defend_or_css(self, big: int, bigopp: int, marge: int, board: Board) -> Choice:
        if marge >= big and self._ll_ok(board):
            return Choice(self.ll, f"counter scoring: square {{0}} scores {marge} >= the "
                          f"opponent's best {big}", squares=(self.ll,))
        return Choice(bigopp, f"defends: square {{0}} is the opponent's best, scoring {big} "
                      "in the opponent look-ahead", squares=(bigopp,))

    def _attack_or_css(self, large: int, q: int, marge: int, board: Board) -> Choice:
        if large > marge or not self._ll_ok(board):
            return Choice(q, f"attacks: square {{0}} scores {large} in the computer look-ahead", squares=(q,))
        return Choice(self.ll, f"counter scoring: square {{0}} scores {marge} "
                      f"(computer look-ahead best {large})", squares=(self.ll,))

    def _ll_ok(self, board: Board) -> bool:
        # A stale LL (literal reading) may be occupied; the 1972 program would overwrite it.
        return self.ll > 0 and not board.move[self.ll]

    def _path_a(self, big, bigopp, large, q, marge, board) -> Choice:
        if big > large:
            return self._defend_or_css(big, bigopp, marge, board)
        return self._attack_or_css(large, q, marge, board)

    def _path_b(self, big, bigopp, large, q, charge, qq, marge, board) -> Choice:
        if charge < big:
            return self._defend_or_css(big, bigopp, marge, board)
        if charge <= marge:
            return self._attack_or_css(large, q, marge, board)
        return Choice(qq, f"SUGOAL: square {{0}} makes a SUTEST pattern (+8, score {charge})", squares=(qq,))

