% three-two-zero-files.pl -- a user's claim, checked by `qubic check` (docs/checks.md).
%
% Citrenbaum (seed 000, L2948): "all 3-0 planes having three 2-0 files lead to a terminal
% forcing sequence". Checked on every placement of three X marks in plane 1 (and, to see
% the rule fail, of three X marks and one O mark).
%
% The position is set (threats:set_position) before `violated` is tried; the project's
% geometry, threats and forcing modules are loaded. why/1 explains a counterexample.

domain(plane(1, 3, 0)).
domain(plane(1, 3, 1)).

% 2-0 files for X: lines with two X marks and no O mark.
x_two_zero_files(N) :- aggregate_all(count, line_state(_, x, 2, 0), N).

% X, moving next, wins by a threat sequence (rules/forcing.pl, docs/design.md section 3).
x_forces :- side_masks(x, A, D), forced_win_masks(A, D, 0, _, _, _).

violated :- x_two_zero_files(3), \+ x_forces.
why('three 2-0 files for X and no forced win').
