% plane-17-trap.pl -- McDaniel's plane-17 example: after 1-2,22-52,27 (X on 1, 22, 27; O on
% 2, 52), which replies of O leave X without a forced win? Uses geometry.pl, threats.pl and
% forcing.pl (docs/design.md section 3, no length bound). Cells are McDaniel's 1..64.
start([0, 21, 26], [1, 51]).                       % 1-2,22-52,27 as cells 0..63
reply_length(R, Len) :-
    start(Xs, Os), between(0, 63, C), \+ memberchk(C, Xs), \+ memberchk(C, Os),
    set_position(Xs, [C | Os]), R is C + 1,
    ( forced_win(0, Len, _) -> true ; Len = 0 ).
:- table lengths/1.
lengths(Ls) :- findall(R-L, reply_length(R, L), Ls).
:- discontiguous figure/2.
figure(saving_replies, Rs) :- lengths(Ls), findall(R, member(R-0, Ls), Rs).
figure(longest_win, M) :- lengths(Ls), aggregate_all(max(L), member(_-L, Ls), M).
figure(saving_replies_in_plane_17, B) :-
    lengths(Ls), ( forall(member(R-0, Ls), (C is R - 1, in_plane(C, 17))) -> B = true ; B = false ).
