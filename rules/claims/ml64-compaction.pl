% ml64-compaction.pl -- McDaniel's ML64 test vector (seed 003 L625): after 1-2,22-4,27 and O's
% reply, the one line 43-64,11-59,17-32,49-33,16-38,6 is a forced win for X for each of the 44
% listed replies; after O's 16 X has no forced win at all. Uses geometry.pl, threats.pl,
% forcing.pl and witness.pl (docs/design.md section 3). Cells are McDaniel's 1..64.
listed([3,5,7,8,9,10,12,13,14,15,18,19,20,21,23,25,26,28,29,30,31,34,35,36,37,39,40,41,42,
        45,46,47,50,51,52,53,55,56,57,58,60,61,62,63]).
ml64_line([43,64,11,59,17,32,49,33,16,38,6]).
mask(Cells, M) :- foldl([C, A0, A]>>(A is A0 \/ 1 << (C - 1)), Cells, 0, M).
% the line checked as a witness of a forced win for X against O's reply R
line_wins(R) :- mask([1, 22, 27], X), mask([2, 4, R], O), ml64_line(L),
    maplist([C, K]>>(K is C - 1), L, Moves), \+ witness_error(X, O, Moves, _, _).
:- discontiguous figure/2.
figure(listed_replies, N) :- listed(Rs), length(Rs, N).
figure(line_wins_for_listed, N) :- listed(Rs), aggregate_all(count, (member(R, Rs), line_wins(R)), N).
figure(line_fails_for, Fs) :- listed(Rs), findall(R, (member(R, Rs), \+ line_wins(R)), Fs).
figure(x_forced_win_after_16, B) :- set_position([0, 21, 26], [1, 3, 15]),
    ( forced_win(0, _, _) -> B = true ; B = false ).
