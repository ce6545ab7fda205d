/** <module> Qubic forced wins by threat sequence (docs/design.md section 3)

The same concept as rules/forcing.lp. The attacker is the side to move of the
position in user:x/1 and user:o/1 (see threats.pl). The search is iterative
deepening over 64-bit masks: it tries candidate moves only among the empty
cells of the attacker's 2-0 lines (or the defender's single threat cell, the
counter-threat rule), re-checks only the lines through the last move, and keeps
a table of positions that failed at a depth.

Length = number of attacker moves up to and including the move that completes
four. A sequence alternates attacker and defender cells and ends with the
completing move.

==
?- set_position([0, 21, 26], [1, 3, 51]), forced_win(0, N, Seq).
N = 6,
Seq = [16, 31, 42, 63, 10, 58, 15, 5, 48, 32, 37].
==
*/
:- module(forcing,
          [ forced_win/3, win_length/2, winning_move/4, forced_win_masks/6 ]).
:- use_module(geometry).
:- use_module(threats).

:- dynamic failed/3.

%!  forced_win(+MaxLength, -Length, -Sequence) is semidet.
%   The side to move has a forced win of minimal length Length =< MaxLength
%   (0: no bound), one witness being Sequence. Fails when there is none.
forced_win(MaxLength, Length, Sequence) :-
    to_move(S),
    side_masks(S, A, D),
    forced_win_masks(A, D, MaxLength, Length, Sequence, _).

%!  win_length(+MaxLength, -Length) is semidet.
%   Length of the shortest forced win within MaxLength (0: no bound).
win_length(MaxLength, Length) :-
    forced_win(MaxLength, Length, _).

%!  winning_move(+MaxLength, ?Move, -Length, -Sequence) is nondet.
%   Move, a first move of the side to move, starts a forced win of length
%   Length =< MaxLength (0: no bound), minimal among the wins starting with
%   Move; Sequence is a witness. Enumerates the moves in ascending order.
%   Example: a forced win of length =< 6 starting in plane 17:
%   ?- winning_move(6, M, N, Seq), in_plane(M, 17).
winning_move(MaxLength, Move, Length, Sequence) :-
    to_move(S),
    side_masks(S, A, D),
    threat_mask(A, D, Mine),
    (   Mine =\= 0
    ->  mask_cell(Mine, Move), Length = 1, Sequence = [Move]
    ;   threat_mask(D, A, Theirs),
        Theirs /\ (Theirs - 1) =:= 0,
        (   Theirs =\= 0 -> Candidates = Theirs ; forcing_mask(A, D, Candidates) ),
        mask_cell(Candidates, Move),
        A2 is A \/ 1 << Move,
        new_threats(A2, D, Move, T),
        T =\= 0,
        (   T /\ (T - 1) =\= 0
        ->  ( MaxLength =:= 0 ; MaxLength >= 2 ),
            B is lsb(T), W is lsb(T /\ \ (1 << B)),
            Length = 2, Sequence = [Move, B, W]
        ;   B is lsb(T), D2 is D \/ T,
            new_threats(D2, A2, B, Theirs2),
            Rest is max(0, MaxLength - 1),
            ( MaxLength =:= 0 ; Rest >= 2 ),
            retractall(failed(_, _, _)),  % a failure recorded under another root may hide a cut
            deepen(2, Rest, A2, D2, Theirs2, Length1, Rest1, _),
            Length is Length1 + 1, Sequence = [Move, B | Rest1]
        )
    ).

%!  forced_win_masks(+A, +D, +MaxLength, -Length, -Sequence, -Reached) is semidet.
%   As forced_win/3 for attacker mask A against defender mask D. Reached is
%   the deepest length searched completely.
forced_win_masks(A, D, MaxLength, Length, Sequence, Reached) :-
    retractall(failed(_, _, _)),
    threat_mask(A, D, Mine),
    (   Mine =\= 0
    ->  Length = 1, C is lsb(Mine), Sequence = [C], Reached = 1
    ;   threat_mask(D, A, Theirs),
        deepen(2, MaxLength, A, D, Theirs, Length, Sequence, Reached)
    ).

deepen(Depth, Max, A, D, Theirs, Length, Sequence, Reached) :-
    (   Max =\= 0, Depth > Max
    ->  fail
    ;   Searched is Depth - 1,  % progress, reported if a time limit cuts the search
        format(atom(Progress), 'no forced win of length <= ~d', [Searched]),
        nb_setval(qubic_progress, Progress),
        nb_setval(qubic_cut, false),
        (   win(A, D, Theirs, Depth, Sequence0)
        ->  Length = Depth, Sequence = Sequence0, Reached = Depth
        ;   nb_getval(qubic_cut, true),
            Next is Depth + 1,
            deepen(Next, Max, A, D, Theirs, Length, Sequence, Reached)
        )
    ).

% win(+A, +D, +Theirs, +Depth, -Seq): A to move, with no threat of its own,
% wins within Depth moves; Theirs is D's threat mask.
win(A, D, Theirs, Depth, Seq) :-
    (   Theirs /\ (Theirs - 1) =\= 0
    ->  fail
    ;   failed(A, D, F), F >= Depth
    ->  fail
    ;   (   Theirs =\= 0 -> Candidates = Theirs ; forcing_mask(A, D, Candidates) ),
        (   try(Candidates, A, D, Depth, Seq)
        ->  true
        ;   retractall(failed(A, D, _)), assertz(failed(A, D, Depth)), fail
        )
    ).

try(Candidates, A, D, Depth, Seq) :-
    mask_cell(Candidates, M),
    A2 is A \/ 1 << M,
    new_threats(A2, D, M, T),
    T =\= 0,
    (   T /\ (T - 1) =\= 0
    ->  B is lsb(T), W is lsb(T /\ \ (1 << B)), Seq = [M, B, W]
    ;   Depth < 3
    ->  nb_setval(qubic_cut, true), fail
    ;   B is lsb(T), D2 is D \/ T,
        new_threats(D2, A2, B, Theirs),
        Depth1 is Depth - 1,
        win(A2, D2, Theirs, Depth1, Rest),
        Seq = [M, B | Rest]
    ).

% new_threats(+Own, +Theirs, +C, -T): threat cells of Own on the lines through C.
new_threats(Own, Theirs, C, T) :-
    lines_through_masks(C, LMs),
    foldl(add_new(Own, Theirs), LMs, 0, T).

add_new(Own, Theirs, LM, T0, T) :-
    (   LM /\ Theirs =:= 0, popcount(LM /\ Own) =:= 3
    ->  T is T0 \/ (LM /\ \ Own)
    ;   T = T0
    ).
