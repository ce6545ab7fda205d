% lines.pl -- how many lines the board has, by kind (the Prolog twin of lines.lp). Uses geometry.pl.
:- discontiguous figure/2.
figure(lines, N) :- aggregate_all(count, line(_), N).
figure(K, N) :- member(K, [orthogonal, planar_diagonal, space_diagonal]), aggregate_all(count, line_kind(_, K), N).
