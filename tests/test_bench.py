"""The benchmark runner finds its sections and the core section runs end to end (quick sets)."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from qubic_logic import bench
from qubic_logic.bench.__main__ import PIPED_WIDTH, main
from qubic_logic.core import NATIVE


def test_sections_are_discovered():
    assert "core" in bench.sections()
    assert all(not name.startswith("_") for name in bench.sections())
    with pytest.raises(KeyError, match="unknown benchmark section"):
        bench.load("nope")


def test_unknown_section_is_an_error(capsys):
    assert main(["nope"]) == 2
    assert "unknown benchmark section" in capsys.readouterr().err


@pytest.mark.skipif(NATIVE is None, reason="the native core is not built")
def test_core_section_measures_both_cores():
    out = io.StringIO()
    results = bench.load("core").run(Console(file=out, width=100), quick=True)
    text = out.getvalue()
    assert "Threat scans per second" in text and "Forced-win queries" in text
    scans = results["scans"]
    assert scans["native"]["batch"] > 0 and scans["python"]["batch"] > 0
    for row in results["forced_win"].values():
        assert row["queries"] > 0 and row["longest"] >= 3
        assert row["ratio_total"] > 0  # measured, not judged: a loaded machine may reverse any ratio


@pytest.mark.skipif(NATIVE is None, reason="the native core is not built")
def test_piped_tables_keep_every_figure_whole(capsys):
    assert main(["--quick", "core"]) == 0
    out = capsys.readouterr().out
    assert len(out.splitlines()[0]) == PIPED_WIDTH  # the section's rule spans the console: wider than 80
    assert "│" in out and "…" not in out


def test_learning_section_measures_training_speed():
    from qubic_logic.bench.learning import NATIVE as learning_native

    out = io.StringIO()
    results = bench.load("learning").run(Console(file=out, width=100), quick=True)
    assert "training games per second" in out.getvalue()
    assert results["all"] > 0 and results["TEST filling"] > 0
    if learning_native is not None:  # the replay checked both matchers play the same games
        assert results["native speed-up"] > 0


@pytest.mark.skipif(NATIVE is None, reason="the native core is not built")
def test_solve_section_compares_both_searches_and_reports_the_search_rate():
    out = io.StringIO()
    bench.load("solve").run(Console(file=out, width=200), quick=True)
    text = out.getvalue()
    assert "median whole-solve speed-up, native over Python, on 4 non-trivial positions" in text
    assert "the C search outside its leaves:" in text and "(target 1,000,000)" in text


@pytest.mark.slow
def test_forcetree_section_counts_folded_graphs_and_times_the_layout():
    from qubic_logic.bench.forcetree import graphs

    out = io.StringIO()
    results = graphs(Console(file=out, width=120), quick=True)
    tree, graph, folded = results["counts"]["1-2,22-52,27-4"]
    assert (tree, graph) == (731, 271) and folded < graph
    assert all(f <= g <= t for t, g, f in results["counts"].values())
    assert results["layout"]["nodes"] >= 1500 and results["layout"]["dot_cpu_seconds"] > 0
    assert "folded graph" in out.getvalue()


@pytest.mark.slow
def test_startup_section_times_each_command_beside_the_import():
    out = io.StringIO()
    results = bench.load("startup").run(Console(file=out, width=120), quick=True)
    names = list(results)
    assert names[:4] == ['python -c "import qubic_logic"', "qubic --version", "qubic --help",
                         "qubic win 1-2,22-52,27-4"]
    assert all(row["wall"] > 0 and row["cpu"] > 0 for row in results.values())
    query = next(row for name, row in results.items() if name.startswith("qubic query"))
    assert query["wall"] >= 3.0  # it ran to its limit (the run checks it ended with the limit's error)
    assert "qubic verify dictionary EXAMPLE" in out.getvalue()


@pytest.mark.slow
def test_the_servers_verify_round_trip_is_measured_on_the_pages_example():
    from qubic_logic.bench.server import verify_round_trips
    from qubic_logic.server.launch import running_server

    with running_server() as url:
        trips = verify_round_trips(url, 2)  # (it checks each answer is VERIFIED)
    assert trips["runs"] == 2 and 0 < trips["own_ms"] < trips["median_ms"]
