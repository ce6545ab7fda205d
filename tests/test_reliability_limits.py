"""Limits that hold from the first second, and workers that die with their command.

A round robin or a book too large to start is refused before any work; ``learn`` stopped by Ctrl-C
exits 130; SIGKILL of a command leaves none of its workers (local, Dask, the grounding probe), so
``qubic book build … | tee log`` ends.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import textwrap
import time

import psutil
import pytest

from qubic_logic.bench.interrupts import QUBIC, qubic
from qubic_logic.cli import main
from qubic_logic.cli import strategy as strategy_cli
from qubic_logic.strategy.complete import complete_dictionary
from qubic_logic.strategy.dictionary import StrategyDictionary
from qubic_logic.strategy.formats import read_dictionary


def test_a_round_robin_too_large_is_refused_before_any_game(capsys):
    assert main(["match", "--round-robin", "--games", "1000000", "--time-limit", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "expected at most 1,000,000 in all" in err and "--games" in err


def test_a_round_robin_stopped_by_its_time_limit_prints_the_table_of_games_played(capsys):
    assert main(["match", "--round-robin", "random", "greedy", "--games", "9999", "--time-limit", "1"]) == 0
    out, err = capsys.readouterr()
    assert "stopped early by the time limit" in err
    played = int(err.split(": ")[1].split(" of ")[0])
    assert "| **random** |" in out and "X won" in out and f"of {played} |" in out


def test_a_program_calling_main_has_the_whole_time_limit_however_old_its_process(capsys):
    limit = 3
    age = time.time() - psutil.Process().create_time()
    time.sleep(max(limit + 0.5 - age, 0))  # this process is older than the limit, as in a long test run
    assert main(["match", "--round-robin", "random", "greedy", "--games", "2", "--time-limit", str(limit)]) == 0
    out, err = capsys.readouterr()
    assert "stopped early" not in err and "X won 2 of 4 |" in out


@pytest.mark.parametrize("stones", ["8", "1000000000"])
def test_a_book_too_deep_is_refused_before_a_file_is_made(tmp_path, capsys, stones):
    book = tmp_path / "b.sqlite"
    assert main(["book", "build", str(book), "--stones", stones, "--budget", "2", "--time-limit", "3"]) == 2
    assert "expected 0..4" in capsys.readouterr().err and not book.exists()


def test_learn_stopped_by_ctrl_c_exits_130_keeping_its_games(tmp_path):
    brain = tmp_path / "brain.sqlite"
    run = qubic("learn", str(brain), "--against", "random", "--games", "1000000", interrupt_after=4, timeout=60)
    assert run.code == 130 and "stopped early" in run.err and "all kept" in run.err


def _children_then_sigkill(argv: list[str], workers: int, stdout=subprocess.DEVNULL) -> tuple[subprocess.Popen, list]:
    """Start ``argv``, wait for ``workers`` processes below it, SIGKILL it; the processes it had."""
    proc = subprocess.Popen(argv, stdout=stdout, stderr=subprocess.DEVNULL)
    root = psutil.Process(proc.pid)
    children: list = []
    for _ in range(600):
        children = root.children(recursive=True)
        if len(children) >= workers:
            break
        time.sleep(0.1)
    assert len(children) >= workers, "the workers did not start"
    time.sleep(1.0)  # the workers are at work
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    return proc, children


def _left(children: list) -> list:
    _, alive = psutil.wait_procs(children, timeout=5)
    return [p for p in alive if p.status() != psutil.STATUS_ZOMBIE]


def test_sigkill_of_a_book_build_leaves_no_worker_and_ends_its_pipe(tmp_path):
    argv = [*QUBIC, "book", "build", str(tmp_path / "b.sqlite"), "--stones", "2", "--budget", "60", "--jobs", "2"]
    proc, children = _children_then_sigkill(argv, 2, stdout=subprocess.PIPE)
    assert not _left(children)
    assert proc.stdout.read() == b""  # end of file: no worker holds the pipe (`| tee log` ends)


def test_sigkill_of_a_process_leaves_no_supervised_worker_and_no_grounding_probe(tmp_path):
    runaway = tmp_path / "r.lp"
    runaway.write_text("p(0). p(X+1) :- p(X).\n")
    script = textwrap.dedent(f"""
        from qubic_logic.engines.asp import check_grounding
        from qubic_logic.supervisor import Supervisor
        import time
        worker = Supervisor()
        worker.submit(time.sleep, 100)
        check_grounding([{str(runaway)!r}], 100)
    """)
    _, children = _children_then_sigkill([sys.executable, "-c", script], 2)
    assert not _left(children)


@pytest.mark.slow
def test_sigkill_of_a_command_leaves_no_dask_worker():
    argv = [*QUBIC, "solve", "empty", "--split", "--move", "0", "--jobs", "2", "--executor", "dask"]
    _, children = _children_then_sigkill(argv, 3)
    assert not _left(children)


def test_ctrl_c_during_strategy_complete_says_it_was_stopped_and_how_far_it_got(tmp_path):
    out = tmp_path / "complete.txt"
    # the traversal takes about a second of the command's own CPU; its forced wins run on workers for ten more
    run = qubic("strategy", "complete", "patashnik", "-o", str(out), interrupt_after=2, started=1.0, timeout=120)
    assert run.code == 130 and "Traceback" not in run.err, run.err
    lines = run.err.strip().splitlines()
    assert len(lines) == 1 and "not verified" not in lines[0], run.err
    assert re.search(r"interrupted: the verification was stopped \(interrupted\) after [\d,]+ positions up to "
                     r"symmetry and [\d,]+ forced wins .*nothing listed", lines[0]), lines[0]
    assert not out.exists() and not run.leftovers()


def test_ctrl_c_while_listing_the_decisions_says_the_verification_was_done(tmp_path, capsys, monkeypatch):
    source = tmp_path / "d.dict"
    source.write_text("root: x2x1o6x14o20o\n---\nx2x1o6x14o20o 21\n")

    def ctrl_c(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("qubic_logic.strategy.complete.decisions", ctrl_c)
    assert main(["strategy", "complete", str(source), "-o", str(tmp_path / "out.txt")]) == 130
    err = capsys.readouterr().err
    assert re.search(r"the verification was done \([\d,]+ positions up to symmetry, [\d,]+ forced wins\), then stopped while "
                     r"listing their decisions; nothing listed", err), err
    assert not (tmp_path / "out.txt").exists()


def test_ctrl_c_while_compressing_keeps_the_complete_list_uncompressed(tmp_path, capsys, monkeypatch):
    source = tmp_path / "d.dict"
    source.write_text("root: x2x1o6x14o20o\n---\nx2x1o6x14o20o 21\n")
    want = complete_dictionary(StrategyDictionary.load(source))

    def ctrl_c(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(strategy_cli, "compressed", ctrl_c)  # Ctrl-C comes while the list is compressed
    out = tmp_path / "complete.txt"
    assert main(["strategy", "complete", str(source), "-o", str(out)]) == 130
    err = capsys.readouterr().err
    assert f"interrupted: stopped while compressing; the {len(want):,} decisions are written to {out} uncompressed" \
        in err
    assert sorted(e.text() for e in read_dictionary(str(out))) == sorted(e.text() for e in want)


@pytest.mark.parametrize("value", ["-1", "1000000000", "many", "+5"])
def test_a_bootstrap_out_of_range_is_one_clear_error(capsys, value):
    with pytest.raises(SystemExit) as stop:
        main(["match", "--round-robin", "random", "greedy", "--bootstrap", value])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not a number of bootstrap samples; expected 0..100,000" in err, err


def test_a_long_bootstrap_honours_the_time_limit_and_says_how_many_samples(tmp_path):
    ratings = tmp_path / "ratings.json"
    run = qubic("match", "--round-robin", "random", "greedy", "--games", "2", "--bootstrap", "100000",
                "--time-limit", "15", "--ratings", str(ratings), timeout=120)  # 100,000 samples: minutes
    assert run.code == 0, run.err
    found = re.search(r"the bootstrap was stopped by the time limit after ([\d,]+) of 100,000 samples", run.err)
    assert found, run.err
    samples = int(found.group(1).replace(",", ""))
    assert samples < 100_000 and f"--bootstrap {samples} " in json.loads(ratings.read_text())["command"]


@pytest.mark.parametrize("option", [["--ratings", "r.json"], ["--table", "t.md"], ["--bootstrap", "50"]])
def test_round_robin_options_without_a_round_robin_are_an_error(tmp_path, capsys, monkeypatch, option):
    monkeypatch.chdir(tmp_path)
    assert main(["match", "random", "greedy", "--games", "1", *option]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{option[0]} is for a round robin; expected --round-robin with it" in err
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("a, b", [("out.json", "out.json"), ("out.json", "./out.json"), ("out.json", "link.json")])
def test_one_file_for_two_outputs_of_a_round_robin_is_refused(tmp_path, capsys, monkeypatch, a, b):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "link.json").symlink_to("out.json")
    assert main(["match", "--round-robin", "random", "greedy", "--games", "1", "--ratings", a, "--table", b]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--table and --ratings name the same file" in err, err
    assert not (tmp_path / "out.json").exists()
    assert main(["match", "random", "greedy", "--games", "1", "--save", "s.json", "--save", "s.json"]) == 0  # one
    assert main(["match", "--round-robin", "random", "greedy", "--games", "1", "--save", a, "--table", "t.md",
                 "--ratings", b]) == 2
    assert "--save and --ratings name the same file" in capsys.readouterr().err


def test_the_opening_of_a_series_is_played_at_random(tmp_path):
    plain, opened = tmp_path / "plain.json", tmp_path / "opened.json"
    assert main(["match", "hp67", "mcdaniel", "--games", "3", "--save", str(plain)]) == 0  # the same game thrice
    assert main(["match", "hp67", "mcdaniel", "--games", "3", "--opening", "2", "--save", str(opened)]) == 0
    firsts = [tuple(g["moves"][:2]) for g in json.loads(opened.read_text())["games"]]
    assert len(set(firsts)) > 1 and len({tuple(g["moves"][:2]) for g in json.loads(plain.read_text())["games"]}) == 1
