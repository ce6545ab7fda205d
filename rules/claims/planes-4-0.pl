% planes-4-0.pl -- Citrenbaum's 4-0 planes: four X marks alone in a plane. Uses geometry.pl, plane.pl.
:- discontiguous figure/2.

config(Cs) :- numlist(1, 16, Ks), member(A, Ks), member(B, Ks), A < B, member(C, Ks), B < C,
    member(D, Ks), C < D, Cs = [A, B, C, D].
no_two_zero(Cs) :- config(Cs), cells_mask(Cs, M), two_zero_files(M, 0, 0).
% the configurations without a 2-0 file and their classes, computed once
:- table without/2.
without(List, Classes) :-
    findall(Cs, no_two_zero(Cs), List),
    maplist([Cs, R]>>canonical(dihedral, Cs, R), List, Reps), msort(Reps, Sorted), clumped_pairs(Sorted, Classes).
clumped_pairs(Sorted, Classes) :- findall(R-1, member(R, Sorted), Ps), clumped_sum(Ps, Classes).
clumped_sum([], []).
clumped_sum([R-N|Ps], Out) :- clumped_sum(Ps, Out0),
    ( Out0 = [R-M|Rest] -> K is N + M, Out = [R-K|Rest] ; Out = [R-N|Out0] ).
figure(configurations, N) :- aggregate_all(count, config(_), N).
figure(without_two_zero, N) :- without(L, _), length(L, N).
figure(with_two_zero, N) :- aggregate_all(count, config(_), T), without(L, _), length(L, W), N is T - W.
figure(classes_without_two_zero, N) :- without(_, Cl), length(Cl, N).
figure(orbit_sizes_without, Sizes) :- without(_, Cl), findall(S, member(_-S, Cl), S0), msort(S0, Sizes).
% four in a row is a game already won; otherwise X to move needs a TFS
fails(Cs) :- config(Cs), \+ no_two_zero(Cs), cells_mask(Cs, M), \+ four_in_a_row(M), \+ plane_forced_win(M, 0).
figure(every_one_with_two_zero_has_tfs, B) :- ( fails(_) -> B = false ; B = true ).
