"""The fidelity report: seed records of the programs' play against the replicas."""

from __future__ import annotations

import io

from rich.console import Console

from qubic_logic import bench
from qubic_logic.bench import fidelity
from qubic_logic.seeds.excerpts import appendix_iii_reasons


def test_fidelity_section_runs_and_reports_every_record():
    assert "fidelity" in bench.sections()
    out = io.StringIO()
    bench.load("fidelity").run(Console(file=out, width=200), quick=True)
    text = out.getvalue()
    for name in fidelity.BEFORE:
        assert name in text
    assert "Appendix III" in text and "Game Three" in text


def test_disk_reproduces_appendix_c_and_the_printed_choices():
    disk_on = fidelity.appendix_c(True)
    done, total = disk_on.decisions
    assert total == 7130 and total - done == 37  # the decisions only in the five games the disk leaves out
    assert disk_on.games == (1274, 1279)
    printed = fidelity.mcdaniel_printed()
    assert printed.decisions == (5, 5)
    assert fidelity.hp67().games == (1, 1) and fidelity.mccarthy().decisions == (4, 4)


def test_appendix_iii_reasons_are_read_per_game():
    games = appendix_iii_reasons()
    assert list(games) == ["Game One", "Game Two", "Game Three"]
    assert games["Game Three"]["starts a TFS"] == 1 and games["Game Three"]["makes a 4-0 file (wins)"] == 1
    assert games["Game One"]["makes a 4-0 file (wins)"] == 0  # the tie


def test_replica_reasons_map_onto_the_appendix_kinds():
    counts = fidelity.self_play_reasons(2)
    assert counts["other"] == 0
    assert counts["preset move"] >= 8  # four preset plies per game


def test_every_1107_explanation_has_its_appendix_kind():
    from qubic_logic.notation import parse_position
    from qubic_logic.players.citrenbaum_pdp4 import block_related_pair, elementary_step, own_related_pair

    p = parse_position("moves:24,14,48,19,4,7,28,9,52,38")
    assert fidelity.reason_kind(own_related_pair(p).explanation) == "forms two 3-0 files"
    o_to_move = parse_position("moves:24,14,48,19,4,7,28,9,52,38,63")
    assert fidelity.reason_kind(block_related_pair(o_to_move, False).explanation) == "blocks a related pair"
    q = parse_position("moves:0,16,1,17,4,18")
    assert fidelity.reason_kind(elementary_step(q, False).explanation) == "blocks a three in a row"
