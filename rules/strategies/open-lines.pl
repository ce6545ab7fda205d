/*  open-lines.pl -- a quiet-move strategy that wins from a mid-game position of Patashnik's tree.

The same strategy as rules/strategies/open-lines.lp. The side to move, when it has
no 2-0 line, plays the empty cell with the most of its own marks on the lines
through it that the opponent has not blocked (ties: the lowest cell); when it has
a 2-0 line it gives no move (play/1 fails), so that the rule order of the verifier
decides: (1) win now, (2) block, (4) a forced win by threat sequence.

From Patashnik's position xx1oo1x1oo2o8o3x15xxo19x (X to move, 14 marks; Oren
Patashnik's dictionary, 1977, plays 37 there) it wins against every reply:
  qubic verify strategy rules/strategies/open-lines.pl --root xx1oo1x1oo2o8o3x15xxo19x
*/

% No 2-0 line of mine (no forcing move), then the best cell: the highest score, then the
% lowest cell (the key N * 64 + 63 - C orders both at once).
play(C) :-
    to_move(S), \+ forcing_move(S, _),
    side_masks(S, Own, Theirs),
    aggregate_all(max(K), ( empty(C0), score(C0, Own, Theirs, N), K is N * 64 + 63 - C0 ), K),
    C is 63 - K mod 64.

% The score of cell C: my marks on the open lines (none of the opponent's) through it.
score(C, Own, Theirs, N) :-
    lines_through_masks(C, Masks),
    aggregate_all(sum(M), ( member(LM, Masks), LM /\ Theirs =:= 0, M is popcount(LM /\ Own) ), N).
