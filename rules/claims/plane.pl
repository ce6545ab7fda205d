/** <module> One plane on its own: planar lines, symmetries and forcing play (claims library)

Planar cells are 1..16, four per row (McDaniel Tables II-IV, Citrenbaum Table III).
The plane is plane 1 of rules/geometry.pl (level z = 0, planar cell K = cube cell K-1),
so a set of planar cells is also a cube mask, and forced wins are those of
rules/forcing.pl (docs/design.md section 3) with no marks outside the plane: an isolated plane.

==
?- plane_forced_win([1,4,13], []).
true.
==
*/
:- module(plane, [ planar_line_mask/1, cells_mask/2, plane_symmetry/2, dihedral/1, canonical/3,
                   two_zero_files/3, threat_cells/3, plane_forced_win/2, opening_moves/3,
                   four_in_a_row/1 ]).
:- use_module('../geometry').
:- use_module('../forcing').

%!  planar_line_mask(-Mask) is nondet.
%   Mask of one of the ten lines of plane 1.
planar_line_mask(M) :- line_in_plane(L, 1), line_mask(L, M).

%!  cells_mask(+Cells, -Mask) is det.
%   Mask of planar cells (1..16).
cells_mask(Cells, M) :- foldl([K, A0, A]>>(A is A0 \/ 1 << (K - 1)), Cells, 0, M).

:- table plane_symmetry/2.

% --- symmetries: the 8 rotations/reflections after one of McDaniel's four value maps
vmap(id, V, V).
vmap(ev, V, W) :- nth0(V, [1, 0, 3, 2], W).
vmap(sc, V, W) :- nth0(V, [0, 2, 1, 3], W).
vmap(both, V, W) :- vmap(ev, V, U), vmap(sc, U, W).
flip(0, V, V).
flip(1, V, W) :- W is 3 - V.

%!  plane_symmetry(?G, -Map) is nondet.
%   G = g(Swap, FX, FY, ValueMap), Map a list of the 16 images (planar cells). 32 in all.
plane_symmetry(g(S, FX, FY, VM), Map) :-
    member(VM, [id, ev, sc, both]), member(S, [0, 1]), member(FX, [0, 1]), member(FY, [0, 1]),
    findall(K2, ( between(1, 16, K), X is (K - 1) mod 4, Y is (K - 1) // 4,
                  vmap(VM, X, X1), vmap(VM, Y, Y1),
                  ( S =:= 0 -> A = X1, B = Y1 ; A = Y1, B = X1 ),
                  flip(FX, A, A2), flip(FY, B, B2), K2 is A2 + 4 * B2 + 1 ), Map).

%!  dihedral(?G) is nondet.
%   G is one of the 8 rotations and reflections (Citrenbaum's "eight symmetries").
dihedral(g(S, FX, FY, id)) :- member(S, [0, 1]), member(FX, [0, 1]), member(FY, [0, 1]).

%!  canonical(+Group, +Cells, -Least) is det.
%   Least sorted image of Cells; Group is dihedral or plane (all 32).
canonical(Group, Cells, Least) :-
    findall(Img, ( plane_symmetry(G, Map), ( Group == dihedral -> dihedral(G) ; true ),
                   maplist([K, K2]>>nth1(K, Map, K2), Cells, I0), msort(I0, Img) ), Imgs),
    min_member(Least, Imgs).

%!  two_zero_files(+Attacker, +Defender, -N) is det.
%   Planar lines with two or more attacker marks and no defender mark (masks).
two_zero_files(A, D, N) :-
    aggregate_all(count, ( planar_line_mask(L), L /\ D =:= 0, popcount(L /\ A) >= 2 ), N).

four_in_a_row(A) :- planar_line_mask(L), L /\ A =:= L, !.

%!  threat_cells(+A, +D, -T) is det.
%   Mask of empty cells completing a planar line of A (three of A, none of D).
threat_cells(A, D, T) :-
    aggregate_all(bag(L), ( planar_line_mask(L), L /\ D =:= 0, popcount(L /\ A) =:= 3 ), Ls),
    foldl([L, T0, T1]>>(T1 is T0 \/ (L /\ \ A)), Ls, 0, T).

forcing_cells(A, D, Cells) :-
    findall(C, ( planar_line_mask(L), L /\ D =:= 0, popcount(L /\ A) =:= 2,
                 between(0, 15, C), L /\ (1 << C) =\= 0, A /\ (1 << C) =:= 0 ), Cs),
    sort(Cs, Cells).

%!  plane_forced_win(+A, +D) is semidet.
%   A (mask, to move) wins by a threat sequence against D in the isolated plane: the
%   project's forced-win search (rules/forcing.pl, docs/design.md section 3) on the plane's
%   masks; with no marks outside plane 1, every forcing move stays in the plane.
plane_forced_win(A, D) :- forced_win_masks(A, D, 0, _, _, _).

% A plays M: two threats win, one is blocked and the search goes on, none fails.
force(A, D, M) :-
    A1 is A \/ 1 << M, threat_cells(A1, D, T), T =\= 0,
    (   popcount(T) >= 2 -> true
    ;   D1 is D \/ T, plane_forced_win(A1, D1)
    ).

%!  opening_moves(+A, +D, -Cells) is det.
%   Planar cells (1..16) of the attacker's first moves that lead to a forced win.
opening_moves(A, D, Cells) :-
    threat_cells(A, D, T), T =\= 0, !,
    findall(K, ( between(0, 15, C), T /\ (1 << C) =\= 0, K is C + 1 ), Cells).
opening_moves(A, D, Cells) :-
    forcing_cells(A, D, Cs),
    findall(K, ( member(C, Cs), force(A, D, C), K is C + 1 ), Cells).
