% table-iii-000.pl -- Citrenbaum's Table III, the legible rows: for three X marks alone in a
% plane, the number of 2-0 files, whether a TFS exists, and the opening moves of the TFS.
% Uses geometry.pl and plane.pl; reads row(I, SeedLine, A, B, C), says_two_zero(I, N),
% says_tfs(I, yes|no), says_openings(I, Cells, full|partial) (planar cells 1..16).
:- discontiguous figure/2.
computed(I, Twos, Tfs, Openings) :-
    row(I, _, A, B, C), cells_mask([A, B, C], M), two_zero_files(M, 0, Twos),
    ( plane_forced_win(M, 0) -> Tfs = yes ; Tfs = no ), opening_moves(M, 0, Openings).
wrong(I, Why) :- says_two_zero(I, N), computed(I, T, _, _), N =\= T,
    format(atom(Why), '2-0 files: seed ~w, computed ~w', [N, T]).
wrong(I, Why) :- says_tfs(I, S), computed(I, _, T, _), S \== T,
    format(atom(Why), 'TFS: seed ~w, computed ~w', [S, T]).
wrong(I, Why) :- says_openings(I, Os, Kind), says_tfs(I, yes), computed(I, _, _, Cs),
    ( Kind == full -> msort(Os, Cs1), Cs1 \== Cs ; \+ subset(Os, Cs) ),
    format(atom(Why), 'opening moves: seed ~w (~w), computed ~w', [Os, Kind, Cs]).
figure(rows, N) :- aggregate_all(count, row(_, _, _, _, _), N).
figure(rows_agreeing, N) :- aggregate_all(count, (row(I, _, _, _, _), \+ wrong(I, _)), N).
figure(disagreements, Ts) :- findall(T, ( row(I, L, A, B, C), wrong(I, Why),
    format(atom(T), 'L~w ~w,~w,~w: ~w', [L, A, B, C, Why]) ), Ts).
