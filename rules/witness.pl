/** <module> Is a witness a forced win by threat sequence? (docs/design.md section 3)

The same rules and error names as rules/witness.lp. A problem is
w(P, A, D, Moves): A and D are the masks (bit C = cell C) of the attacker,
who is to move, and the defender; Moves alternates attacker moves and the
defender's replies and ends with the move completing four.

==
?- check_witnesses([w(1, 7, 458752, [3])], Errors).
Errors = [].
?- check_witnesses([w(1, 7, 458752, [4])], Errors).
Errors = [[1, 1, must_complete_four]].
==
*/
:- module(witness, [check_witnesses/2, witness_error/5]).
:- use_module(geometry).

%!  check_witnesses(+Problems:list, -Errors:list) is det.
%   Errors holds [P, I, R] for each problem P whose step I breaks rule R.
check_witnesses(Problems, Errors) :-
    findall([P, I, R], ( member(w(P, A, D, Moves), Problems),
                         witness_error(A, D, Moves, I, R) ), Errors).

%!  witness_error(+A, +D, +Moves, -I, -R) is semidet.
%   Step I of Moves is the first to break rule R; fails for a legal forced win.
witness_error(_, _, [], 0, empty_sequence) :- !.
witness_error(A, D, Moves, I, R) :-
    attacker_step(Moves, 1, A, D, I, R).

% attacker_step(+Moves, +I, +A, +D, -ErrStep, -Reason): the attacker moves at step I.
attacker_step([M|Rest], I, A, D, EI, R) :-
    threat_cells(A, D, Mine),
    (   Mine =\= 0
    ->  (   \+ has(Mine, M) -> EI = I, R = must_complete_four
        ;   Rest \== [] -> EI = I, R = game_over_but_sequence_goes_on
        )
    ;   occupied(M, A, D) -> EI = I, R = occupied
    ;   Rest == [] -> EI = I, R = last_move_does_not_complete_four
    ;   threat_cells(D, A, Theirs),
        (   popcount(Theirs) >= 2 -> EI = I, R = defender_has_two_threats
        ;   Theirs =\= 0, \+ has(Theirs, M) -> EI = I, R = must_block_the_counter_threat
        ;   A2 is A \/ (1 << M),
            threat_cells(A2, D, New),
            (   New =:= 0 -> EI = I, R = move_makes_no_threat
            ;   defender_step(Rest, I, A2, D, New, EI, R)
            )
        )
    ).

% defender_step(+Moves, +I, +A, +D, +Threats, -ErrStep, -Reason): reply at step I+1.
defender_step([Reply|Rest], I, A, D, Threats, EI, R) :-
    J is I + 1,
    (   occupied(Reply, A, D) -> EI = J, R = occupied
    ;   \+ has(Threats, Reply) -> EI = J, R = reply_is_not_a_threat_cell
    ;   Rest == [] -> EI = J, R = ends_with_a_defender_move
    ;   D2 is D \/ (1 << Reply),
        K is I + 2,
        attacker_step(Rest, K, A, D2, EI, R)
    ).

%!  threat_cells(+S, +O, -T) is det.
%   T is the mask of empty cells completing a line with three S marks and no O mark.
threat_cells(S, O, T) :-
    line_masks(Lines),
    foldl(add_threat(S, O), Lines, 0, T).

% The 76 line masks, collected once (a stored fact rather than tabling: queries run
% under time limits, and tabled calls interrupted there are not worth the risk).
:- dynamic line_mask_list/1.
line_masks(Lines) :-
    (   line_mask_list(Lines)
    ->  true
    ;   findall(LM, line_mask(_, LM), Lines),
        assertz(line_mask_list(Lines))
    ).

add_threat(S, O, LM, T0, T) :-
    (   LM /\ O =:= 0, popcount(LM /\ S) =:= 3
    ->  T is T0 \/ (LM /\ \ S)
    ;   T = T0
    ).

has(Mask, C) :- Mask /\ (1 << C) =\= 0.
occupied(C, A, D) :- has(A \/ D, C).
