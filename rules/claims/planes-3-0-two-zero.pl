% planes-3-0-two-zero.pl -- Citrenbaum's Table IV (summary of Table III): 3-0 plane classes by
% their number of 2-0 files; the four-symmetry rule. Uses geometry.pl and plane.pl.
% A 2-0 file here is a planar line with two or more X marks (a 3-0 file counts too).
:- discontiguous figure/2.

config(Cs) :- numlist(1, 16, Ks), member(A, Ks), member(B, Ks), A < B, member(C, Ks), B < C, Cs = [A, B, C].
:- table class/1.
class(R) :- aggregate_all(set(R0), (config(Cs), canonical(dihedral, Cs, R0)), Rs), member(R, Rs).
twos(R, N) :- cells_mask(R, M), two_zero_files(M, 0, N).
stabilizer(R, N) :- aggregate_all(count, ( dihedral(G), plane_symmetry(G, Map),
    maplist([K, K2]>>nth1(K, Map, K2), R, I), msort(I, R) ), N).
figure(Name, N) :- member(T, [0, 1, 2, 3]), atom_concat(classes_with_, T, Name),
    aggregate_all(count, (class(R), twos(R, T)), N).
% four-symmetry classes: a TFS exactly when they have one or three 2-0 files
broken(R) :- class(R), stabilizer(R, 2), twos(R, T), cells_mask(R, M),
    ( plane_forced_win(M, 0) -> \+ memberchk(T, [1, 3]) ; memberchk(T, [1, 3]) ).
figure(four_symmetry_rule_holds, B) :- ( broken(_) -> B = false ; B = true ).
