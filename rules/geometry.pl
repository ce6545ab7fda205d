/** <module> Qubic geometry: cells, the 76 lines and the 18 planes, declared

The same predicate names as rules/geometry.lp (docs/design.md section 1). Cells are
numbered C = X + 4*Y + 16*Z (Patashnik's 0..63). Lines are numbered 0..75 in
ascending order of their cell tuples (the order of qubic_logic.geometry.LINES).
Planes are numbered 1..18 in McDaniel's Table I order (seed 003): 1-4 levels z,
5-8 rows y, 9-12 columns x, 13 x=z, 14 y=z, 15 x=3-z, 16 y=3-z, 17 y=x,
18 x+y=3; plane P is qubic_logic.geometry.PLANES[P-1].

Relations are tabled, so each is computed once per session.

==
?- line_cells(L, 0, 21, 42, 63).
L = 6.
==
*/
:- module(geometry,
          [ cell/1, coord/4, line/1, line_cells/5, in_line/2, line_kind/2,
            plane/1, in_plane/2, plane_cell/3, line_in_plane/2,
            line_mask/2, lines_through_masks/2
          ]).

%!  cell(?C) is nondet.
%   C is a cell, 0..63.
cell(C) :- between(0, 63, C).

%!  coord(?C, ?X, ?Y, ?Z) is nondet.
%   Cell C has column X, row Y and level Z (each 0..3).
coord(C, X, Y, Z) :-
    (   integer(C)
    ->  X is C /\ 3, Y is (C >> 2) /\ 3, Z is C >> 4
    ;   between(0, 3, Z), between(0, 3, Y), between(0, 3, X), C is X + 4*Y + 16*Z
    ).

% A line moves each coordinate one of three ways along its steps I = 0..3:
% fixed at K, rising (I) or falling (3-I); the first moving coordinate rises.
way(fix(K)) :- between(0, 3, K).
way(up).
way(down).

at(fix(K), _, K).
at(up, I, I).
at(down, I, J) :- J is 3 - I.

direction(up, WY, WZ) :- way(WY), way(WZ).
direction(fix(K), up, WZ) :- between(0, 3, K), way(WZ).
direction(fix(K), fix(J), up) :- between(0, 3, K), between(0, 3, J).

line_tuple([A, B, C, D]) :-
    direction(WX, WY, WZ),
    findall(Cell, ( between(0, 3, I), at(WX, I, X), at(WY, I, Y), at(WZ, I, Z),
                    Cell is X + 4*Y + 16*Z ), Cells),
    msort(Cells, [A, B, C, D]).

:- table line_cells/5.

%!  line_cells(?L, ?A, ?B, ?C, ?D) is nondet.
%   Line L (0..75) holds cells A < B < C < D.
line_cells(L, A, B, C, D) :-
    findall(T, line_tuple(T), Ts),
    msort(Ts, Sorted),
    nth0(L, Sorted, [A, B, C, D]).

%!  line(?L) is nondet.
%   L is a line, 0..75.
line(L) :- line_cells(L, _, _, _, _).

%!  in_line(?C, ?L) is nondet.
%   Cell C lies on line L.
in_line(C, L) :- line_cells(L, A, B, E, D), member(C, [A, B, E, D]).

%!  line_kind(?L, ?Kind) is nondet.
%   Kind is orthogonal, planar_diagonal or space_diagonal.
line_kind(L, Kind) :-
    line_cells(L, A, B, _, _),
    coord(A, X1, Y1, Z1), coord(B, X2, Y2, Z2),
    N is abs(X1 - X2) + abs(Y1 - Y2) + abs(Z1 - Z2),
    nth1(N, [orthogonal, planar_diagonal, space_diagonal], Kind).

%!  plane(?P) is nondet.
%   P is a plane, 1..18 in McDaniel's order.
plane(P) :- between(1, 18, P).

%!  in_plane(?C, ?P) is nondet.
%   Cell C lies in plane P.
in_plane(C, P) :- coord(C, X, Y, Z), plane(P), plane_rule(P, X, Y, Z).

plane_rule(P, _, _, Z) :- P =< 4, Z =:= P - 1.
plane_rule(P, _, Y, _) :- P >= 5, P =< 8, Y =:= P - 5.
plane_rule(P, X, _, _) :- P >= 9, P =< 12, X =:= P - 9.
plane_rule(13, X, _, Z) :- X =:= Z.
plane_rule(14, _, Y, Z) :- Y =:= Z.
plane_rule(15, X, _, Z) :- X =:= 3 - Z.
plane_rule(16, _, Y, Z) :- Y =:= 3 - Z.
plane_rule(17, X, Y, _) :- Y =:= X.
plane_rule(18, X, Y, _) :- X + Y =:= 3.

:- table plane_cell/3.

%!  plane_cell(?P, ?K, ?C) is nondet.
%   C is the K-th cell (1..16, ascending) of plane P (McDaniel Fig. 26).
plane_cell(P, K, C) :-
    plane(P),
    findall(C1, (cell(C1), in_plane(C1, P)), Cells),
    nth1(K, Cells, C).

%!  line_in_plane(?L, ?P) is nondet.
%   All four cells of line L lie in plane P.
line_in_plane(L, P) :-
    line_cells(L, A, B, C, D), plane(P),
    forall(member(E, [A, B, C, D]), in_plane(E, P)).

:- table line_mask/2.

%!  line_mask(?L, ?Mask) is nondet.
%   Mask is the 64-bit mask (bit C for cell C) of line L.
line_mask(L, Mask) :-
    line_cells(L, A, B, C, D),
    Mask is 1 << A \/ 1 << B \/ 1 << C \/ 1 << D.

:- table lines_through_masks/2.

%!  lines_through_masks(+C, -Masks) is det.
%   Masks of the lines through cell C (7 for corners and core, 4 otherwise).
lines_through_masks(C, Masks) :-
    cell(C),
    findall(M, (in_line(C, L), line_mask(L, M)), Masks).

% Fill the tables when the file loads, so the first queries pay nothing.
:- initialization(forall(cell(C), lines_through_masks(C, _))).
