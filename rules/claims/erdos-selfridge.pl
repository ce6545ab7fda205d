% erdos-selfridge.pl -- Erdos-Selfridge values of McDaniel's Table IV situations (one plane).
% Uses geometry.pl and plane.pl; reads situation(N, SeedLine, A, B, C, Category).
% V(P) = sum over the plane's lines with no defender mark of 2^(attacker marks on the line);
% the draw criterion is V(P) < 16. O attacks; X has no mark in the plane.
value(N, V) :-
    situation(N, _, A, B, C, _), cells_mask([A, B, C], O),
    aggregate_all(sum(W), ( planar_line_mask(L), W is 2 ** popcount(L /\ O) ), V).
figure(undetected_draws, Ns) :- findall(N, ( between(4, 8, N), value(N, V), V >= 16 ), Ns).
figure(values, Vs) :- findall([N, V], value(N, V), Vs).
