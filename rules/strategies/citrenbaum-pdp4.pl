/*  citrenbaum-pdp4.pl -- Citrenbaum's related-pair strategy (seed 000, ch. 4, Fig. 4.1) as Prolog rules.

The same strategy as rules/strategies/citrenbaum-pdp4.lp and as the player
`citrenbaum-pdp4:preset=seven-file` (qubic_logic/players/citrenbaum_pdp4.py); a test
holds all three to the same move on generated positions. The side to move asks,
in order (L1366-1375): (a) can I make a 4-0 file? (b) must I block a 0-3 file?
(c) can I play the major cell of my own related pair? (d) can I block the
opponent's related pair at its major cell? else (e) the first vacant cell of the
preset list (the vertices and core cells first, L1387-1389).

Priorities: the clauses of play/1 are the questions in order; the strategy's move
is the first solution, so the first clause that succeeds decides. "First" means
the lowest line number (the programs scanned the 76 files in order).

Verify it:  qubic verify strategy rules/strategies/citrenbaum-pdp4.pl
*/

% (a) The vacant cell of my first 3-0 file: playing it makes a 4-0 file.
play(C) :- to_move(S), first_file(S, C).
% (b) The vacant cell of the opponent's first 0-3 file: block it.
play(C) :- to_move(S), opponent(S, T), first_file(T, C).
% (c) The major cell of my related pair: two 3-0 files at once.
play(C) :- to_move(S), first_major(S, C).
% (d) The major cell of the opponent's related pair: block both of its 2-0 files.
play(C) :- to_move(S), opponent(S, T), first_major(T, C).
% (e) The preset list: the first vacant cell.
play(C) :- preset(Cells), member(C, Cells), empty(C), !.

% The masks of the 76 files in order (line_mask/2 is tabled: its answers come in no
% particular order, and asking it for one line at a time would make a table per line).
files(Masks) :- findall(L-LM, line_mask(L, LM), Pairs), msort(Pairs, Sorted), pairs_values(Sorted, Masks).

% The vacant cell of the first 3-0 file of S.
first_file(S, C) :-
    side_masks(S, Own, Theirs),
    files(Lines), member(LM, Lines), LM /\ Theirs =:= 0, popcount(LM /\ Own) =:= 3, !,
    C is lsb(LM /\ \ Own).

% A related pair as the listing's COLT loop finds it (L4528-4531, L5299-5302): QTABLE
% holds the vacant cells of the 2-0 files, file by file in file order, and the major
% cell is the first entry of the table that occurs again later -- Appendix I, procedure
% 3 (L2725-2744), "if any cell is recorded twice it is a major cell", with the
% listing's tie-break. The cells of a file are listed ascending, so the entry is the
% lowest cell of the first 2-0 file that shares a vacant cell with a later one.
first_major(S, C) :-
    side_masks(S, Own, Theirs),
    files(Lines),
    findall(V, ( member(LM, Lines), LM /\ Theirs =:= 0, popcount(LM /\ Own) =:= 2,
                 V is LM /\ \ Own ), Vacant),
    recurring(Vacant, C).

% recurring(+VacantMasks, -C): C is in the first mask that meets the union of the later ones.
recurring([V | Later], C) :-
    foldl([M, A0, A] >> (A is A0 \/ M), Later, 0, After),
    (   V /\ After =\= 0
    ->  C is lsb(V /\ After)
    ;   recurring(Later, C)
    ).

% The preset order: the 8 vertices and 8 core cells, each on seven files (L1205-1210),
% then the other 48 cells, each ascending.
preset(Cells) :-
    Seven = [0, 3, 12, 15, 21, 22, 25, 26, 37, 38, 41, 42, 48, 51, 60, 63],
    findall(C, ( between(0, 63, C), \+ memberchk(C, Seven) ), Rest),
    append(Seven, Rest, Cells).
