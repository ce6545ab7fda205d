/** <module> Qubic threats: line states, threat cells, forcing moves, related pairs

The same predicate names as rules/threats.lp (docs/design.md section 2). A position
enters as facts user:x(C) and user:o(C) (cells 0..63 held by X and O); use
set_position/2 to replace them. The side to move is derived from the counts
(X moves first). S is a side, x or o.

Besides the relations, the module exports the mask operations the search in
forcing.pl uses: a mask is a 64-bit integer with bit C set for cell C.

==
?- set_position([0, 1, 2], [16, 17]), threat(x, C).
C = 3.
==
*/
:- module(threats,
          [ set_position/2, side/1, opponent/2, mark/2, empty/1, to_move/1,
            line_state/4, threat/2, forcing_move/2, related_pair/4, major_cell/2,
            double_threat/1, counter_threat/2,
            side_masks/3, threat_mask/3, forcing_mask/3, mask_cell/2
          ]).
:- use_module(geometry).

:- dynamic user:x/1, user:o/1.

%!  set_position(+Xs:list, +Os:list) is det.
%   Replace the position facts user:x/1 and user:o/1 by the cells Xs and Os.
set_position(Xs, Os) :-
    retractall(user:x(_)), retractall(user:o(_)),
    forall(member(C, Xs), assertz(user:x(C))),
    forall(member(C, Os), assertz(user:o(C))).

%!  side(?S) is nondet.
side(x).
side(o).

%!  opponent(?S, ?T) is nondet.
opponent(x, o).
opponent(o, x).

%!  mark(?S, ?C) is nondet.
%   Side S holds cell C.
mark(x, C) :- user:x(C).
mark(o, C) :- user:o(C).

%!  empty(?C) is nondet.
%   Nobody holds cell C.
empty(C) :- cell(C), \+ user:x(C), \+ user:o(C).

%!  to_move(?S) is semidet.
%   S moves next: x when the counts are equal, o when X has one more.
to_move(S) :-
    aggregate_all(count, user:x(_), NX),
    aggregate_all(count, user:o(_), NO),
    (   NX =:= NO -> S = x ; NX =:= NO + 1 -> S = o ).

%!  side_masks(?S, -Own, -Theirs) is nondet.
%   Own and Theirs are the masks of S and of its opponent.
side_masks(S, Own, Theirs) :-
    side(S), opponent(S, T),
    side_mask(S, Own), side_mask(T, Theirs).

side_mask(S, Mask) :-
    aggregate_all(sum(1 << C), mark(S, C), Mask).

%!  line_state(?L, ?S, ?M, ?N) is nondet.
%   Line L is an M-N line for S: M marks of S and N of the opponent.
line_state(L, S, M, N) :-
    side_masks(S, Own, Theirs),
    line_mask(L, LM),
    M is popcount(LM /\ Own), N is popcount(LM /\ Theirs).

%!  threat(?S, ?C) is nondet.
%   C is a threat cell of S: the empty cell of a 3-0 line of S.
threat(S, C) :-
    side_masks(S, Own, Theirs), threat_mask(Own, Theirs, T), mask_cell(T, C).

%!  forcing_move(?S, ?C) is nondet.
%   Playing C makes a threat for S: an empty cell of a 2-0 line of S.
forcing_move(S, C) :-
    side_masks(S, Own, Theirs), forcing_mask(Own, Theirs, F), mask_cell(F, C).

%!  related_pair(?S, ?C, ?L1, ?L2) is nondet.
%   2-0 lines L1 < L2 of S meet at the empty major cell C.
related_pair(S, C, L1, L2) :-
    side_masks(S, Own, Theirs),
    findall(L-LM, ( line_mask(L, LM), LM /\ Theirs =:= 0, popcount(LM /\ Own) =:= 2 ), Found),
    msort(Found, TwoZero),  % tabled answers come in no particular order
    append(_, [L1-M1 | Later], TwoZero),
    member(L2-M2, Later),
    Meet is M1 /\ M2 /\ \ Own,
    mask_cell(Meet, C).

%!  major_cell(?S, ?C) is nondet.
%   C is a major cell of S: playing it makes a double threat.
major_cell(S, C) :-
    side(S),
    findall(C1, related_pair(S, C1, _, _), Cs),
    sort(Cs, Majors),
    member(C, Majors).

%!  double_threat(?S) is nondet.
%   S has two or more distinct threat cells.
double_threat(S) :-
    side_masks(S, Own, Theirs), threat_mask(Own, Theirs, T),
    popcount(T) >= 2.

%!  counter_threat(?S, ?C) is nondet.
%   S has no threat and the opponent threatens exactly one cell C: S, to move,
%   must block at C (docs/design.md section 3, step 2).
counter_threat(S, C) :-
    side_masks(S, Own, Theirs),
    threat_mask(Own, Theirs, 0),
    threat_mask(Theirs, Own, T),
    popcount(T) =:= 1,
    C is lsb(T).

%!  threat_mask(+Own, +Theirs, -Mask) is det.
%   Mask of the empty cells of lines with 3 of Own and none of Theirs.
threat_mask(Own, Theirs, Mask) :-
    open_lines_mask(3, Own, Theirs, Mask).

%!  forcing_mask(+Own, +Theirs, -Mask) is det.
%   Mask of the empty cells of lines with 2 of Own and none of Theirs.
forcing_mask(Own, Theirs, Mask) :-
    open_lines_mask(2, Own, Theirs, Mask).

%!  open_lines_mask(+N, +Own, +Theirs, -Mask) is det.
%   Mask of the empty cells of lines with N of Own and none of Theirs.
open_lines_mask(N, Own, Theirs, Mask) :-
    findall(LM, line_mask(_, LM), LMs),
    foldl(add_open_line(N, Own, Theirs), LMs, 0, Mask).

add_open_line(N, Own, Theirs, LM, M0, M) :-
    (   LM /\ Theirs =:= 0, popcount(LM /\ Own) =:= N
    ->  M is M0 \/ (LM /\ \ Own)
    ;   M = M0
    ).

%!  mask_cell(+Mask, -C) is nondet.
%   C is a cell set in Mask, in ascending order.
mask_cell(Mask, C) :-
    Mask =\= 0,
    Low is lsb(Mask),
    (   C = Low
    ;   Rest is Mask /\ \ (1 << Low), mask_cell(Rest, C)
    ).
