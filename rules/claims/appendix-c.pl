% appendix-c.pl -- McDaniel's Appendix C: "All logical games for 1-2,22-4". Every game must
% replay legally and end with X completing four in a row. Uses geometry.pl; reads
% record(R, SeedLine, Tokens, TokenLines): signed cells 1..64 (X positive, O negative) in play
% order; a run of two or more O tokens lists alternative replies sharing what follows.
:- discontiguous figure/2.

% steps(+Tokens, +Lines, -Steps): x(Cell, Line) | o(Cells, Line) with Cells the alternatives
steps([], [], []).
steps([T|Ts], [L|Ls], [x(T, L)|Ss]) :- T > 0, !, steps(Ts, Ls, Ss).
steps(Ts, [L|Ls0], [o(Os, L)|Ss]) :- o_run(Ts, [L|Ls0], Os, Rest, RestL), steps(Rest, RestL, Ss).
o_run([T|Ts], [_|Ls], [C|Cs], Rest, RestL) :- T < 0, !, C is -T, o_run(Ts, Ls, Cs, Rest, RestL).
o_run(Ts, Ls, [], Ts, Ls).

% one game: a choice of one alternative at each O step -> list of move(Side, Cell, Line)
game([], []).
game([x(C, L)|Ss], [move(x, C, L)|Ms]) :- game(Ss, Ms).
game([o(Os, L)|Ss], [move(o, C, L)|Ms]) :- member(C, Os), game(Ss, Ms).

% replay(+Moves, -Outcome): ok | problem(Line, Text)
replay(Moves, Outcome) :- replay(Moves, x, 0, 0, Outcome).
replay([], _, X, _, Outcome) :-
    ( won(X) -> Outcome = ok ; Outcome = problem(0, 'the game ends without four in a row for X') ).
replay([move(Side, C, L)|Ms], ToMove, X, O, Outcome) :-
    B is 1 << ((C - 1) /\ 63),
    (   Side \== ToMove
    ->  format(atom(T), '~w plays ~w out of turn (two ~w moves in a row)', [Side, C, Side]),
        Outcome = problem(L, T)
    ;   ( C < 1 ; C > 64 )
    ->  format(atom(T), '~w plays ~w, not a cell 1..64', [Side, C]), Outcome = problem(L, T)
    ;   (X \/ O) /\ B =\= 0
    ->  format(atom(T), '~w plays ~w, an occupied cell', [Side, C]), Outcome = problem(L, T)
    ;   ( won(X) ; won(O) )
    ->  format(atom(T), '~w plays ~w after the game is over', [Side, C]), Outcome = problem(L, T)
    ;   Side == x
    ->  X1 is X \/ B, replay(Ms, o, X1, O, Outcome)
    ;   O1 is O \/ B,
        ( won(O1) -> format(atom(T), 'O completes four with ~w', [C]), Outcome = problem(L, T)
        ; replay(Ms, x, X, O1, Outcome) )
    ).
won(M) :- line_mask(_, L), M /\ L =:= L, !.

outcome(R, Line, Outcome) :-
    record(R, Line, Tokens, Lines), steps(Tokens, Lines, Steps), game(Steps, Moves), replay(Moves, Outcome).
problem_text(Line, Text) :-
    outcome(_, Line, problem(L0, T)), ( L0 =:= 0 -> L = Line ; L = L0 ),
    format(atom(Text), 'L~w: ~w', [L, T]).

figure(records, N) :- aggregate_all(count, record(_, _, _, _), N).
figure(games, N) :- aggregate_all(count, outcome(_, _, _), N).
figure(games_ok, N) :- aggregate_all(count, outcome(_, _, ok), N).
figure(records_with_problems, N) :- aggregate_all(set(R), outcome(R, _, problem(_, _)), Rs), length(Rs, N).
figure(problems, Texts) :- aggregate_all(set(T), problem_text(_, T), Texts).
figure(all_replay_and_x_wins, B) :- ( outcome(_, _, problem(_, _)) -> B = false ; B = true ).
