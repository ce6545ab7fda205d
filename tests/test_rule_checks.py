"""qubic check: user rules in ASP and Prolog over plane, symmetry and successor domains."""

from __future__ import annotations

from pathlib import Path

import pytest

from qubic_logic.claims.rulecheck import Domain, cases, check_rules, domains_of
from qubic_logic.cli import main
from qubic_logic.core import core_module
from qubic_logic.errors import QueryTimeout, RuleError
from qubic_logic.geometry import LINE_MASKS, PLANE_MASKS
from qubic_logic.symmetry import canonical_masks

CHECKS = Path(__file__).resolve().parents[1] / "rules" / "checks"


def _two_zero(x: int, o: int) -> int:
    return sum(1 for lm in LINE_MASKS if not lm & o and (lm & x).bit_count() == 2)


def test_domains_cover_what_they_say():
    plane = list(cases(Domain("plane", (17, 2, 1))))
    assert len(plane) == 120 * 14
    assert all((c.x | c.o) & ~PLANE_MASKS[16] == 0 for c in plane)
    one = list(cases(Domain("marks", (1, 0))))
    assert len(one) == 2  # the two first-move classes, found by canonical extension
    two = list(cases(Domain("marks", (1, 1))))
    # every (x, o) pair of cells has its canonical form among the cases, and no class twice
    forms = {canonical_masks(c.x, c.o)[:2] for c in two}
    assert len(forms) == len(two)
    assert forms == {canonical_masks(1 << a, 1 << b)[:2] for a in range(64) for b in range(64) if a != b}
    succ = list(cases(Domain("successors", ("1-2,22-52,27",))))
    assert len(succ) == 59 and all(c.move >= 0 and c.parent for c in succ)


def test_domain_errors_are_explained(tmp_path):
    with pytest.raises(RuleError, match="plane"):
        domains_of("domain(plane(1, x)).")
    f = tmp_path / "r.lp"
    f.write_text("violated :- x(0).\n")
    with pytest.raises(RuleError, match="no domain"):
        check_rules(f)


def test_prolog_example_counterexamples_match_the_core():
    result = check_rules(CHECKS / "three-two-zero-files.pl", stop_at_first=False)
    assert result.engine == "prolog" and result.checked == 560 + 560 * 13
    core = core_module()
    for case, _why in result.counterexamples:
        assert _two_zero(case.x, case.o) == 3 and core.forced_win(case.x, case.o)[0] == 0
    expected = sum(1 for c in cases(Domain("plane", (1, 3, 1)))
                   if _two_zero(c.x, c.o) == 3 and core.forced_win(c.x, c.o)[0] == 0)
    assert len(result.counterexamples) == expected > 0


def test_asp_example_counterexample_loses_fast():
    result = check_rules(CHECKS / "blocking-related-pair.lp")
    assert not result.holds
    case, shown = result.counterexamples[0]
    core = core_module()
    assert 0 < core.forced_win(case.x, case.o, 4)[0] <= 4
    parent_x, parent_o = case.parent
    assert core.major_cells(parent_x, parent_o) >> case.move & 1
    assert f"move({case.move})" in shown


def test_check_command_exit_status(capsys, tmp_path):
    f = tmp_path / "holds.pl"
    f.write_text('domain(position("1-2,22-52,27")).\nviolated :- \\+ to_move(o).\n')
    assert main(["check", str(f)]) == 0
    assert "holds in all 1 position of" in capsys.readouterr().out
    assert main(["check", str(CHECKS / "three-two-zero-files.pl")]) == 1
    assert "counterexample: X 0 1 5; O 4" in capsys.readouterr().out


def test_time_limit_reports_what_was_checked():
    with pytest.raises(QueryTimeout, match="after .* of 171 positions") as info:
        check_rules(CHECKS / "blocking-related-pair.lp", stop_at_first=False, time_limit=0.5)
    assert 0 <= info.value.partial["checked"] < 171
