% prime-cells.pl -- lines through each cell; the prime cells (the Prolog twin of prime-cells.lp).
degree(C, N) :- cell(C), aggregate_all(count, in_line(C, _), N).
:- discontiguous figure/2.
figure(cells_on_7_lines, N) :- aggregate_all(count, degree(_, 7), N).
figure(cells_on_4_lines, N) :- aggregate_all(count, degree(_, 4), N).
figure(prime_cells, Ks) :- findall(K, (degree(C, 7), K is C + 1), Ks).
