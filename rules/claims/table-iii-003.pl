% table-iii-003.pl -- McDaniel's Table III: the variations of O's 1,4,13 trap (Fig. 16A), replayed.
% Uses geometry.pl and plane.pl; reads variation(I, SeedLine, Moves, Tag): planar cells, O first,
% then X, alternately; Tag = solution | none | reference (a "See"/"Same as" line, no moves).
% Each variation must follow docs/design.md section 3 with O attacking in the isolated plane: O's move
% completes four when O has a threat, blocks X's single threat when X has one, and otherwise (or
% after that block) makes a threat; X's reply is O's single threat cell. A variation may stop
% when O has no force left: it is then a failed branch. A solution ends with O completing four.
:- discontiguous figure/2.
bit(K, B) :- B is 1 << (K - 1).
cells_of(M, Ks) :- findall(K, (between(1, 16, K), M /\ (1 << (K - 1)) =\= 0), Ks).

% o_move(+Moves, +O, +X, -Result): win | stop(O, X) | stop_after_o | problem(Text)
o_move([], O, X, stop(O, X)).             % the line ends after X's reply: O to move
o_move([M|Rest], O, X, R) :-
    bit(M, B), threat_cells(O, X, Mine), threat_cells(X, O, Theirs),
    (   (O \/ X) /\ B =\= 0 -> format(atom(T), 'O plays ~w, an occupied cell', [M]), R = problem(T)
    ;   Mine =\= 0
    ->  (   Mine /\ B =:= 0 -> format(atom(T), 'O has a threat but plays ~w', [M]), R = problem(T)
        ;   Rest == [] -> R = win
        ;   R = problem('moves go on after O completes four')
        )
    ;   popcount(Theirs) >= 2 -> R = problem('X has two threats')
    ;   Theirs =\= 0, Theirs =\= B
    ->  cells_of(Theirs, [C]), format(atom(T), 'O must block X at ~w but plays ~w', [C, M]), R = problem(T)
    ;   O1 is O \/ B, threat_cells(O1, X, New),
        (   Rest == [] -> R = stop_after_o
        ;   New =:= 0 -> format(atom(T), 'O''s ~w makes no threat, yet the line goes on', [M]), R = problem(T)
        ;   x_move(Rest, O1, X, New, R)
        )
    ).
x_move([M|Rest], O, X, New, R) :-
    bit(M, B),
    (   popcount(New) =:= 1, New =\= B
    ->  cells_of(New, [C]), format(atom(T), 'X must block at ~w but plays ~w', [C, M]), R = problem(T)
    ;   (O \/ X) /\ B =\= 0 -> format(atom(T), 'X plays ~w, an occupied cell', [M]), R = problem(T)
    ;   X1 is X \/ B, o_move(Rest, O, X1, R)
    ).

result(I, R) :- variation(I, _, Moves, Tag), Tag \== reference, cells_mask([1, 4, 13], O), o_move(Moves, O, 0, R).
figure(variations, N) :- aggregate_all(count, (variation(_, _, _, T), T \== reference), N).
figure(references, N) :- aggregate_all(count, variation(_, _, _, reference), N).
figure(solution_lines, N) :- aggregate_all(count, variation(_, _, _, solution), N).
figure(tagged_solutions_win, N) :- aggregate_all(count, (variation(I, _, _, solution), result(I, win)), N).
figure(untagged_lines_win, N) :- aggregate_all(count, (variation(I, _, _, none), result(I, win)), N).
figure(illegal_lines, Ts) :- findall(T, ( variation(I, L, _, _), result(I, problem(P)),
                                          format(atom(T), 'L~w: ~w', [L, P]) ), Ts).
figure(illegal_line_count, N) :- aggregate_all(count, result(_, problem(_)), N).
% a line that stops with O to move: does O still have a forced win there (a win the table left out)?
figure(stopped_lines_o_still_wins, Ls) :-
    findall(L, ( variation(I, L, _, none), result(I, stop(O, X)), plane_forced_win(O, X) ), Ls).
