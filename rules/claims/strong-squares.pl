% strong-squares.pl -- Doake's strong squares (on 7 lines) and weak squares (on 4). Uses geometry.pl.
degree(C, N) :- cell(C), aggregate_all(count, in_line(C, _), N).
figure(strong, S) :- findall(K, (degree(C, 7), K is C + 1), S).          % Doake's 1..64
figure(strong_count, N) :- aggregate_all(count, degree(_, 7), N).
figure(weak_count, N) :- aggregate_all(count, degree(_, 4), N).
