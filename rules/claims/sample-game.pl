% sample-game.pl -- the HP-67 program's sample game (seed 004): legal, and who wins when.
% Uses geometry.pl; reads entry(Move, Side, SeedLine, Z, Y, X, WinFlag): the program's .zyx
% notation (level, row, column 1..4), human first; the machine prints 1.zyx when it wins.
ply(N, Side, Cell, Flag) :-
    entry(M, Side, _, Z, Y, X, Flag), ( Side == human -> N is 2 * M - 1 ; N is 2 * M ),
    Cell is (X - 1) + 4 * (Y - 1) + 16 * (Z - 1).
won(M) :- line_mask(_, L), M /\ L =:= L, !.
% play(+Ply, +Human, +Machine, -Result): result(Winner, Move) | illegal(Ply) | unfinished
play(N, H, Mc, R) :-
    (   ply(N, Side, Cell, _)
    ->  B is 1 << Cell,
        (   (H \/ Mc) /\ B =\= 0 -> R = illegal(N)
        ;   Side == human -> H1 is H \/ B, ( won(H1) -> R = result(human, N) ; N1 is N + 1, play(N1, H1, Mc, R) )
        ;   M1 is Mc \/ B, ( won(M1) -> R = result(machine, N) ; N1 is N + 1, play(N1, H, M1, R) )
        )
    ;   R = unfinished
    ).
:- discontiguous figure/2.
figure(legal, B) :- play(1, 0, 0, R), ( R = illegal(_) -> B = false ; B = true ).
figure(winner, W) :- play(1, 0, 0, R), ( R = result(W, _) -> true ; W = none ).
figure(decided_at_move, M) :- play(1, 0, 0, result(_, N)), M is (N + 1) // 2.
figure(ends_at_last_entry, B) :- play(1, 0, 0, R), aggregate_all(max(N), ply(N, _, _, _), Last),
    ( R = result(_, Last) -> B = true ; B = false ).
figure(win_flag_on_winning_move, B) :- play(1, 0, 0, R),
    ( R = result(machine, N), ply(N, machine, _, 1) -> B = true ; B = false ).
