% corners.pl -- a user's own rule: the eight corner cells (load with --rules).
corner(C) :- coord(C, X, Y, Z), member(X, [0, 3]), member(Y, [0, 3]), member(Z, [0, 3]).
