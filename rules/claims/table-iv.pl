% table-iv.pl -- McDaniel's Table IV: the unique situations of three O marks alone in a plane,
% in four categories. Uses geometry.pl and plane.pl; reads situation(N, SeedLine, A, B, C, Category).
category(Cells, Cat) :- category_of(Cells, C0), Cat = C0.
category_of(Cells, three_in_a_row) :- cells_mask(Cells, M), threat_cells(M, 0, T), T =\= 0, !.
category_of(Cells, no_two_in_a_row) :- cells_mask(Cells, M), two_zero_files(M, 0, 0), !.
category_of(Cells, forced_wins) :- cells_mask(Cells, M), plane_forced_win(M, 0), !.
category_of(_, no_solution).

:- table class/1.

class(Rep) :- findall(C, (numlist(1, 16, Ks), subset3(Ks, T), canonical(plane, T, C)), Cs), sort(Cs, Set), member(Rep, Set).
subset3(Ks, [A, B, C]) :- member(A, Ks), member(B, Ks), A < B, member(C, Ks), B < C.

correct(N) :- situation(N, _, A, B, C, Cat), category([A, B, C], Cat).
figure(classes, N) :- aggregate_all(count, class(_), N).
figure(Cat, N) :- member(Cat, [three_in_a_row, no_two_in_a_row, no_solution, forced_wins]),
    aggregate_all(count, (class(R), category(R, Cat)), N).
figure(listed_distinct, N) :-
    aggregate_all(set(R), (situation(_, _, A, B, C, _), canonical(plane, [A, B, C], R)), Rs), length(Rs, N).
figure(rows_correct, N) :- aggregate_all(count, correct(_), N).
figure(wrong_rows, Ls) :- findall(L, (situation(N, L, _, _, _, _), \+ correct(N)), Ls).
