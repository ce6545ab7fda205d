% trap-1-4-13.pl -- the cells where X stops O's 1,4,13 trap (McDaniel Fig. 16A).
% Uses geometry.pl and plane.pl. O holds planar 1, 4, 13; X plays one cell; O, to move, must
% then have no forced win in the isolated plane.
figure(blocking_cells, Cells) :-
    cells_mask([1, 4, 13], O),
    findall(K, ( between(1, 16, K), \+ memberchk(K, [1, 4, 13]),
                 cells_mask([K], X), \+ plane_forced_win(O, X) ), Cells).
