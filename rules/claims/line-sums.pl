% line-sums.pl -- Doake's line sums: computer counter 5, opponent 1, empty 0. Does a line's sum
% tell exactly what is in it? Uses geometry.pl (a line has four cells).
content(C, O) :- between(0, 4, C), between(0, 4, O), C + O =< 4.       % computer, opponent counts
line_sum(C, O, S) :- content(C, O), S is 5 * C + O.
ambiguous(S) :- line_sum(C1, O1, S), line_sum(C2, O2, S), (C1, O1) \== (C2, O2).
cells_per_line(N) :- line_cells(0, A, B, C, D), length([A, B, C, D], N).
decode(S, Text) :- line_sum(C, O, S), cells_per_line(N), E is N - C - O,
    format(atom(Text), '~w computer, ~w opponent, ~w empty', [C, O, E]).
:- discontiguous figure/2.
figure(contents, N) :- aggregate_all(count, content(_, _), N).
figure(distinct_sums, N) :- aggregate_all(set(S), line_sum(_, _, S), Ss), length(Ss, N).
figure(sums_identify_contents, B) :- ( ambiguous(_) -> B = false ; B = true ).
figure(Name, Text) :- member(S, [10, 11, 20, 4, 15, 3]), atom_concat(sum_, S, Name), decode(S, Text).
