% planes-5-0.pl -- "For 5-0 planes ... a terminal forcing sequence exists" (Citrenbaum).
% Uses geometry.pl and plane.pl. All 4368 sets of five X cells in an empty plane, X to move.
config(M) :- numlist(0, 15, Cs), member(A, Cs), member(B, Cs), A < B, member(C, Cs), B < C,
    member(D, Cs), C < D, member(E, Cs), D < E,
    M is 1 << A \/ 1 << B \/ 1 << C \/ 1 << D \/ 1 << E.
fails(M) :- config(M), \+ four_in_a_row(M), \+ plane_forced_win(M, 0).
figure(configurations, N) :- aggregate_all(count, config(_), N).
figure(every_one_has_tfs, B) :- ( fails(_) -> B = false ; B = true ).
