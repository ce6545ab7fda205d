% planes-3-0.pl -- Citrenbaum's isolated 3-0 planes: three X marks alone in a plane.
% Uses geometry.pl and plane.pl. Classes under the 8 rotations and reflections of the square.
config(Cs) :- numlist(1, 16, Ks), member(A, Ks), member(B, Ks), A < B, member(C, Ks), B < C, Cs = [A, B, C].
:- table class/1.
class(R) :- aggregate_all(set(R0), (config(Cs), canonical(dihedral, Cs, R0)), Rs), member(R, Rs).
symmetries(R, N) :- aggregate_all(count, ( dihedral(G), plane_symmetry(G, Map),
    maplist([K, K2]>>nth1(K, Map, K2), R, I), msort(I, R) ), N).
figure(configurations, N) :- aggregate_all(count, config(_), N).
figure(classes, N) :- aggregate_all(count, class(_), N).
figure(eight_symmetry, N) :- aggregate_all(count, (class(R), symmetries(R, 1)), N).
figure(four_symmetry, N) :- aggregate_all(count, (class(R), symmetries(R, 2)), N).
figure(with_tfs, N) :- aggregate_all(count, (class(R), cells_mask(R, M), plane_forced_win(M, 0)), N).
