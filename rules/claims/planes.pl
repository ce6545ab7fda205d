% planes.pl -- planes, and lines per plane (the Prolog twin of planes.lp). Uses geometry.pl.
:- discontiguous figure/2.
figure(planes, N) :- aggregate_all(count, plane(_), N).
figure(lines_per_plane, N) :- aggregate_all(set(K), (plane(P), aggregate_all(count, line_in_plane(_, P), K)), [N]).
