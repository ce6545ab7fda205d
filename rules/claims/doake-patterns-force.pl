% doake-patterns-force.pl -- Doake's claim (seed 001 L2223): a recognised pattern "always starts a
% genuine forcing sequence once M1 is played, unless in defending, the opponent accidentally makes
% up a three". Facts case(Id, A, D): A = the marks of the side whose pattern matched, with its key
% square M1 played; D = the other side's marks, D to reply. Uses threats.pl (threat_mask/3) and
% forcing.pl (forced_win_masks/6, docs/design.md section 3).

% M1 is forcing: two threats at once win; one threat forces the block, then A needs a forced win.
starts_forcing(A, D) :-
    threat_mask(A, D, T),
    T =\= 0,
    (   T /\ (T - 1) =\= 0
    ->  true
    ;   D2 is D \/ T,
        forced_win_masks(A, D2, 0, _, _, _)
    ).

holds(Id) :- case(Id, A, D), starts_forcing(A, D).

% The seed's exception: the block D is forced to make gives D a three.
excepted(Id) :-
    case(Id, A, D), \+ holds(Id),
    threat_mask(A, D, T), T =\= 0, T /\ (T - 1) =:= 0,
    D2 is D \/ T, threat_mask(D2, A, Theirs), Theirs =\= 0.

fails_other(Id) :- case(Id, _, _), \+ holds(Id), \+ excepted(Id).

:- discontiguous figure/2.
figure(cases, N) :- aggregate_all(count, case(_, _, _), N).
figure(holds, N) :- aggregate_all(count, holds(_), N).
figure(fails, N) :- aggregate_all(count, (case(Id, _, _), \+ holds(Id)), N).
figure(fails_excepted, N) :- aggregate_all(count, excepted(_), N).
figure(fails_other, N) :- aggregate_all(count, fails_other(_), N).
figure(failures, Label) :- fails_other(Id), case_label(Id, Label).
