% planes-4-0.pl -- Citrenbaum's 4-0 planes: four X marks alone in a plane. Uses geometry.pl, plane.pl.
:- discontiguous figure/2.

config(Cs) :- numlist(1, 16, Ks), member(A, Ks), member(B, Ks), A < B, member(C, Ks), B < C,
    member(D, Ks), C < D, Cs = [A, B, C, D].
no_two_zero(Cs) :- config(Cs), cells_mask(Cs, M), two_zero_files(M, 0, 0).
figure(configurations, N) :- aggregate_all(count, config(_), N).
figure(without_two_zero, N) :- aggregate_all(count, no_two_zero(_), N).
figure(with_two_zero, N) :- aggregate_all(count, (config(Cs), \+ no_two_zero(Cs)), N).
figure(classes_without_two_zero, N) :-
    aggregate_all(set(R), (no_two_zero(Cs), canonical(dihedral, Cs, R)), Rs), length(Rs, N).
figure(orbit_sizes_without, Sizes) :-
    aggregate_all(set(R), (no_two_zero(Cs), canonical(dihedral, Cs, R)), Rs),
    findall(S, ( member(R, Rs), aggregate_all(count, (no_two_zero(Cs), canonical(dihedral, Cs, R)), S) ), S0),
    msort(S0, Sizes).
% four in a row is a game already won; otherwise X to move needs a TFS
fails(Cs) :- config(Cs), \+ no_two_zero(Cs), cells_mask(Cs, M), \+ four_in_a_row(M), \+ plane_forced_win(M, 0).
figure(every_one_with_two_zero_has_tfs, B) :- ( fails(_) -> B = false ; B = true ).
