"""Rule files under supervision: strategies that halt, loop at load time, loop in a call or shell out;
certificates checked in workers; queries stopped with what they found.

The commands run as a user runs them (a ``qubic`` subprocess), so that exit statuses, stderr lines
and left-over processes are the real ones.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from qubic_logic.bench.interrupts import qubic
from qubic_logic.position import Position
from qubic_logic.shipped import STRATEGY_RULES
from qubic_logic.strategy.certificate import certificate_text
from qubic_logic.strategy.verify import Witness

LOAD_LOOP_PL = ":- repeat, fail.\nplay(0).\n"
HALT_PL = "play(_) :- halt.\n"
CALL_LOOP_PL = "play(C) :- repeat, fail, C = 0.\n"
SHELL_PL = 'play(0) :- shell("sleep 95").\n'
RUNAWAY_LP = "p(0). p(X+1) :- p(X).\nplay(0) :- p(3).\n"


def one_error_line(run, *words: str) -> None:
    """Exit status 2 and one stderr line holding ``words``; no traceback."""
    assert run.code == 2, run.err
    lines = [line for line in run.err.splitlines() if not line.startswith("prolog: warning")]
    assert len(lines) == 1 and "Traceback" not in run.err and "internal error" not in run.err, run.err
    for word in words:
        assert word in lines[0], lines[0]


def rule_file(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_a_strategy_that_halts_is_one_error_naming_the_file(tmp_path):
    h = rule_file(tmp_path, "h.pl", HALT_PL)
    one_error_line(qubic("verify", "strategy", h), "h.pl", "halt")
    one_error_line(qubic("verify", "strategy", h, "--json"), "h.pl", "halt")


def test_a_load_time_loop_ends_at_the_time_limit_with_one_line(tmp_path):
    s = rule_file(tmp_path, "s.pl", LOAD_LOOP_PL)
    run = qubic("verify", "strategy", s, "--time-limit", "3", timeout=30)
    one_error_line(run, "s.pl", "loading the rules did not finish within the time limit")
    assert not run.leftovers()


def test_a_runaway_asp_strategy_ends_at_the_time_limit_with_one_line(tmp_path):
    r = rule_file(tmp_path, "r.lp", RUNAWAY_LP)
    one_error_line(qubic("verify", "strategy", r, "--time-limit", "3", timeout=30), "r.lp")


def test_a_looping_call_ends_at_the_call_limit(tmp_path):
    c = rule_file(tmp_path, "c.pl", CALL_LOOP_PL)
    one_error_line(qubic("verify", "strategy", c, "--call-limit", "1", timeout=60), "c.pl", "play(C)",
                   "time limit of 1")


def test_a_rule_that_shells_out_is_stopped_with_its_shell(tmp_path):
    sh = rule_file(tmp_path, "sh.pl", SHELL_PL)
    run = qubic("verify", "strategy", sh, "--call-limit", "1", timeout=60)  # (communicate waits for sleep 95
    one_error_line(run, "sh.pl", "time limit of 1 s")                       # if the shell held stderr)


def test_ctrl_c_during_a_load_time_loop_exits_at_once_leaving_nothing(tmp_path):
    s = rule_file(tmp_path, "s.pl", LOAD_LOOP_PL)
    run = qubic("verify", "strategy", s, interrupt_after=3, timeout=30)
    assert run.code == 130 and "interrupted" in run.err and "Traceback" not in run.err
    assert not run.leftovers()


@pytest.mark.slow
@pytest.mark.parametrize("name,text", [("h.pl", HALT_PL), ("s.pl", LOAD_LOOP_PL), ("r.lp", RUNAWAY_LP)])
def test_rule_files_are_supervised_on_several_workers(tmp_path, name, text):
    path = rule_file(tmp_path, name, text)
    run = qubic("verify", "strategy", path, "--jobs", "2", "--time-limit", "8", timeout=60)
    one_error_line(run, name)
    assert not run.leftovers()


def test_a_witness_longer_than_the_board_is_refused_in_one_short_line(tmp_path):
    cert = tmp_path / "cert.txt"
    text = certificate_text([Witness(Position.from_cells([0, 16, 1, 17, 2, 18]), (3,))], ["test"])
    cert.write_text(text + "xxx13ooo " + ",".join(str(i % 64) for i in range(20000)) + "\n")
    run = qubic("verify", "certificate", str(cert), "--check-with", "asp", "--time-limit", "3")
    one_error_line(run, "a witness of 20,000 moves")
    assert len(run.err) < 400


def _certificate(tmp_path, n: int) -> str:
    """A certificate of ``n`` copies of a true one-move forced win."""
    cert = tmp_path / "cert.txt"
    w = Witness(Position.from_cells([0, 16, 1, 17, 2, 18]), (3,))
    cert.write_text(certificate_text([w] * n, ["test"]))
    return str(cert)


@pytest.mark.parametrize("checker", ["asp", "prolog"])
def test_a_certificate_check_runs_in_a_worker_and_answers(tmp_path, checker):
    run = qubic("verify", "certificate", _certificate(tmp_path, 50), "--check-with", checker, "--jobs", "1")
    assert run.code == 0 and "re-checked 50 witnesses" in run.out and "all pass" in run.out


def test_ctrl_c_of_a_one_job_asp_certificate_check_leaves_nothing(tmp_path):
    run = qubic("verify", "certificate", _certificate(tmp_path, 60000), "--check-with", "asp", "--jobs", "1",
                interrupt_after=4, timeout=60)
    assert run.code == 130 and "Traceback" not in run.err
    assert not run.leftovers()


def test_a_prolog_query_stopped_by_its_limit_prints_what_it_found():
    run = qubic("query", "--engine", "prolog", "empty", "between(1, inf, N), N mod 200000 =:= 0",
                "--time-limit", "3", timeout=60)
    found = [line for line in run.out.splitlines() if line.startswith("N = ")]
    assert found and found[0] == "N = 200000"
    assert all(int(line[4:]) == 200000 * (i + 1) for i, line in enumerate(found))
    one_error_line(run, f"{len(found)} solution", "found so far")


def test_an_asp_query_stopped_by_ctrl_c_prints_what_it_found(tmp_path):
    rules = rule_file(tmp_path, "many.lp", "{ p(1..40) }.\n#show p/1.\n")
    run = qubic("query", "--engine", "asp", "--rules", rules, "empty", "", interrupt_after=5, timeout=60)
    models = [line for line in run.out.splitlines() if line.startswith("Model ")]
    assert run.code == 130 and models and models[0].startswith("Model 1:")
    assert f"{len(models)} models found so far" in run.err


def test_a_prolog_memory_death_is_one_line_without_the_engines_own_words():
    run = qubic("query", "--engine", "prolog", "empty", "forall(between(1, inf, N), assertz(f(N, [N, N, N, N])))",
                "--memory-limit", "300", "--time-limit", "120", timeout=150)
    one_error_line(run, "ran out of memory at the memory limit of 300 MB")
    assert "FATAL" not in run.err and "tcmalloc" not in run.err


@pytest.mark.slow
def test_a_rule_strategy_on_dask_runs_supervised_in_its_workers_over_several_rounds():
    """A refutation found in one round runs the unfinished units again: the cluster stays up between rounds,
    and each Dask worker runs the rule file in a supervised worker of its own."""
    from qubic_logic.engines.rulefiles import rule_path

    rules = rule_path("strategies/citrenbaum-pdp4", "lp")
    run = qubic("verify", "strategy", str(rules), "--side", "o", "--root", "1-2,4-26,13-6", "--jobs", "2",
                "--executor", "dask", timeout=300)
    assert run.code == 1 and "REFUTED" in run.out and "X wins after 7 moves (the shortest game)" in run.out
    assert not run.leftovers()


def test_a_load_that_waits_is_not_stopped_by_the_call_limit_which_counts_cpu_time(tmp_path):
    w = rule_file(tmp_path, "wait.pl", ":- sleep(3).\nplay(C) :- empty(C), fail.\n")  # no move: rule (4) wins
    run = qubic("verify", "strategy", w, "--call-limit", "1", "--root", "1-2,22-52,27-4", timeout=60)
    assert run.code == 0 and "VERIFIED" in run.out, run.err


def test_a_load_that_loops_ends_at_the_call_limit_in_cpu_seconds(tmp_path):
    s = rule_file(tmp_path, "s.pl", LOAD_LOOP_PL)
    run = qubic("verify", "strategy", s, "--call-limit", "1", timeout=60)
    one_error_line(run, "s.pl", "loading the rules did not finish within the call limit of 1 s of CPU time")
    assert not run.leftovers()


@pytest.mark.slow
def test_the_compact_asp_strategy_verifies_with_the_default_call_limit_on_a_crowded_core():
    """Three busy processes share the one core the verification may use: grounding the compact ``.lp`` takes
    seconds of CPU time and several times as many of wall time, and the call limit counts the former."""
    core = max(os.sched_getaffinity(0))

    def crowded() -> None:
        os.sched_setaffinity(0, {core})

    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"], preexec_fn=crowded) for _ in range(3)]
    try:
        run = subprocess.run([sys.executable, "-m", "qubic_logic.cli", "verify", "strategy",
                              str(STRATEGY_RULES / "patashnik-compact.lp"), "--root", "xx1oo1x1oo2o8o3x15xxo19x",
                              "--json"], capture_output=True, text=True, timeout=600, preexec_fn=crowded)
    finally:
        for p in busy:
            p.kill()
            p.wait()
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["verdict"] == "verified"
