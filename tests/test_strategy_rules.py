"""Strategies as rules: the sources agree, bad rule files fail in one line, verdicts and games are real."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from qubic_logic.bench.interrupts import ctrl_c_as_in_a_terminal
from qubic_logic.errors import QueryTimeout, RuleError, StrategyError
from qubic_logic.notation import parse_position
from qubic_logic.position import Game, Position
from qubic_logic.strategy.dictionary import StrategyDictionary
from qubic_logic.strategy.judge import judge
from qubic_logic.strategy.sources import AspStrategy, PrologStrategy, load_strategy
from qubic_logic.strategy.verify import verify

RULES = Path(__file__).resolve().parent.parent / "rules" / "strategies"
PDP4 = "player:citrenbaum-pdp4:preset=seven-file"
ROOT = "1-2,4-26,13-6"  # a mid-game position where the PDP-4 rules lose quickly


def qubic(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "qubic_logic.cli", *args], capture_output=True, text=True,
                          timeout=300)


def generated_games(count: int, seed: int = 11):
    """Positions of seeded random games, with the moves reaching them (either side to move)."""
    rng = random.Random(seed)
    while True:
        game = Game()
        while not game.position.is_over:
            yield game.position, list(game.moves)
            count -= 1
            if not count:
                return
            game.play(rng.choice(game.position.legal_moves()))


def test_pdp4_rules_choose_the_players_move_on_1000_positions():
    asp, prolog = load_strategy(str(RULES / "citrenbaum-pdp4.lp")), load_strategy(str(RULES / "citrenbaum-pdp4.pl"))
    player = load_strategy(PDP4)
    moves = [(player.move(p, m), asp.move(p), prolog.move(p)) for p, m in generated_games(1100)]
    assert len(moves) == 1100
    assert [m for m in moves if len(set(m)) > 1] == []
    assert all(m[0] is not None for m in moves)  # the preset list always gives a move


@pytest.mark.parametrize("source", [str(RULES / "citrenbaum-pdp4.lp"), str(RULES / "citrenbaum-pdp4.pl"), PDP4])
def test_pdp4_is_refuted_by_a_game_that_replays(source):
    game = Game(_moves(ROOT))
    j = judge(load_strategy(source), game.position, root_moves=game.moves)
    assert j.verdict == "refuted" and j.shortest_proven
    r = j.refutation
    replay = Game(list(r.moves))  # legal from the empty board
    assert replay.moves[: r.start] == game.moves and replay.position.winner == "o" and r.result == "o"
    assert r.length == 8
    # every X move from the root is the strategy's own choice (or a forced block / win)
    strategy = load_strategy(PDP4)
    for i in range(r.start, len(r.moves), 2):
        position = Game(list(r.moves[:i])).position
        assert r.moves[i] == strategy.move(position, r.moves[:i])


def _moves(text: str) -> list[int]:
    from qubic_logic.notation import parse_mcdaniel

    return parse_mcdaniel(text)


def test_asp_and_prolog_give_the_same_verdict_and_length_from_the_cli(tmp_path):
    lengths = []
    for ext in ("lp", "pl"):
        out = qubic("verify", "strategy", str(RULES / f"citrenbaum-pdp4.{ext}"), "--root", ROOT, "--json",
                    "--refutation", str(tmp_path / f"{ext}.game"))
        assert out.returncode == 1, out.stderr
        data = json.loads(out.stdout)
        assert data["verdict"] == "refuted" and data["written"] == [str(tmp_path / f"{ext}.game")]
        lengths.append(data["refutation"]["length"])
        text = (tmp_path / f"{ext}.game").read_text().strip()
        assert text == data["refutation"]["mcdaniel"]
        shown = qubic("show", text)
        assert shown.returncode == 0 and "O has won" in shown.stdout
        played = subprocess.run([sys.executable, "-m", "qubic_logic.cli", "play", "--x", "human", "--o", "human",
                                 "--load", str(tmp_path / f"{ext}.game")], capture_output=True, text=True,
                                input="", timeout=60)
        assert "O (human) wins" in played.stdout
    assert lengths[0] == lengths[1] == 8




# ------------------------------------------------------------------ bad input


def _write(tmp_path: Path, name: str, text: str) -> str:
    (tmp_path / name).write_text(text)
    return str(tmp_path / name)


@pytest.mark.parametrize("name,text,where", [
    ("syntax.lp", "play(C) :- empty(C) C < 3.\n", "syntax.lp:1:"),
    ("syntax.pl", "play(C) :- empty(C) C < 3.\n", "syntax.pl:1:"),
])
def test_a_syntax_error_names_file_and_line(tmp_path, name, text, where):
    with pytest.raises(RuleError, match=where):
        load_strategy(_write(tmp_path, name, text))


def test_rules_without_play_are_refused(tmp_path):
    with pytest.raises(RuleError, match="play/1"):
        AspStrategy(_write(tmp_path, "none.lp", "p(1).\n"))
    with pytest.raises(RuleError, match="play/1"):
        PrologStrategy(_write(tmp_path, "none.pl", "p(1).\n"))


def test_two_moves_an_occupied_cell_and_a_cell_off_the_board_name_the_position(tmp_path):
    p = parse_position("1-2")
    two = load_strategy(_write(tmp_path, "two.lp", "play(C) :- empty(C), C < 4, C > 1.\n"))
    with pytest.raises(StrategyError, match=r"two.lp: at position 'xo' after moves 1-2 .* 2 moves \(play\(2\), play\(3\)\)"):
        two.move(p, [0, 1])
    for ext in ("lp", "pl"):
        taken = load_strategy(_write(tmp_path, f"taken.{ext}", "play(C) :- x(C).\n"))
        with pytest.raises(StrategyError, match=f"taken.{ext}: at position 'xo' .* plays 0, an occupied cell"):
            taken.move(p, [0, 1])
        off = load_strategy(_write(tmp_path, f"off.{ext}", "play(64).\n"))
        with pytest.raises(StrategyError, match=f"off.{ext}: at position 'xo' .* plays 64, outside the board"):
            off.move(p)
    sym = load_strategy(_write(tmp_path, "sym.lp", "play(a).\n"))
    with pytest.raises(StrategyError, match="plays a, not a cell"):
        sym.move(p)


def test_looping_rules_end_at_the_call_limit(tmp_path):
    with pytest.raises(QueryTimeout, match="grounding the rules did not finish within 1 s"):
        load_strategy(_write(tmp_path, "ground.lp", "p(0).\np(N + 1) :- p(N).\nplay(0) :- p(_).\n"), 1.0)
    loop = load_strategy(_write(tmp_path, "loop.pl", "play(C) :- play(C).\n"), 0.5)
    with pytest.raises(QueryTimeout, match="loop.pl: at position 'empty': .*time limit of 0.5 s"):
        loop.move(Position())
    # a search without end (pigeons in too few holes), interrupted by the watchdog
    hard = load_strategy(_write(tmp_path, "hard.lp", "p(1..13). h(1..12).\n{ in(P, H) : h(H) } = 1 :- p(P).\n"
                                "{ in(P, H) : p(P) } <= 1 :- h(H).\nplay(0) :- empty(0).\n"), 0.5)
    with pytest.raises(QueryTimeout, match="hard.lp: at position 'empty'"):
        hard.move(Position())


@pytest.mark.parametrize("name,text,problem", [
    ("syntax.lp", "play(C) :- empty(C) C < 3.\n", "syntax.lp:1:"),
    ("two.lp", "play(C) :- empty(C), C < 4, C > 1.\n", "2 moves"),
    ("taken.pl", "play(C) :- x(C).\nplay(C) :- empty(C).\n", "an occupied cell"),
    ("loop.pl", "play(C) :- to_move(x), x(_), play(C).\nplay(C) :- empty(C).\n", "time limit"),
])
def test_cli_bad_strategies_fail_in_one_line_and_write_nothing(tmp_path, name, text, problem):
    source = _write(tmp_path, name, text)
    out = qubic("verify", "strategy", source, "--root", "1-2", "--call-limit", "1",
                "--certificate", str(tmp_path / "cert"), "--refutation", str(tmp_path / "game"))
    assert out.returncode == 2 and out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and name in lines[0] and problem in lines[0]
    assert "Traceback" not in out.stderr
    assert not (tmp_path / "cert").exists() and not (tmp_path / "game").exists()


def test_a_compiled_dictionary_verifies_with_the_dictionary_verifiers_counts(tmp_path):
    from qubic_logic.strategy.compile import dictionary_rules
    from qubic_logic.strategy.dictionary import patashnik_dictionary
    from qubic_logic.strategy.verify import pruned

    root = parse_position("x2x1o16o28o8x")  # a 6-mark position of Patashnik's tree
    full = verify(patashnik_dictionary(), root, jobs=1)
    small = pruned(patashnik_dictionary(), full)  # the 10 entries played from there
    (tmp_path / "small.pl").write_text(dictionary_rules(small, "part of Patashnik's dictionary"))
    j = judge(load_strategy(str(tmp_path / "small.pl")), root)
    assert j.verdict == full.verdict == "verified"
    assert (j.positions, j.defender_positions) == (full.positions, full.defender_positions) == (1706, 34)
    assert [j.by_rule[r] for r in ("win", "block", "strategy", "forced")] == [
        full.by_rule[r] for r in ("win", "block", "dictionary", "forced")]
    # the certificate is the dictionary's moves again, and the dictionary verifier accepts it
    cert = tmp_path / "cert.dict"
    j.certificate().save(cert)
    again = verify(StrategyDictionary.load(cert), StrategyDictionary.load(cert).root, jobs=1)
    assert again.verdict == "verified" and again.positions == full.positions and len(j.choices) == 10


def test_a_dictionary_file_is_a_strategy(tmp_path):
    root = parse_position("1-2,22-52,27-4")  # X wins by force: rule (4) at the root
    StrategyDictionary([], []).save(tmp_path / "empty.dictionary")
    j = judge(load_strategy(str(tmp_path / "empty.dictionary")), root)
    v = verify(StrategyDictionary([]), root, jobs=1)
    assert j.verdict == v.verdict == "verified" and j.positions == v.positions == 1
    assert j.by_rule["forced"] == v.by_rule["forced"] == 1 and j.witnesses[0].length == 6


def test_open_lines_wins_from_patashniks_position_in_both_languages(tmp_path):
    from qubic_logic.strategy.certificate import certificate_text, load_certificate
    from qubic_logic.strategy.witness_check import check_witnesses

    root = parse_position("xx1oo1x1oo2o8o3x15xxo19x")
    found = [judge(load_strategy(str(RULES / f"open-lines.{ext}")), root) for ext in ("lp", "pl")]
    assert [j.verdict for j in found] == ["verified", "verified"]
    assert found[0].by_rule == found[1].by_rule == {"win": 0, "block": 2, "strategy": 1, "forced": 141}
    assert [e.move for e in found[0].choices] == [e.move for e in found[1].choices] == [10]
    j = found[0]
    j.certificate().save(tmp_path / "open.dict")
    (tmp_path / "open.witnesses").write_text(certificate_text(j.witnesses, ["open-lines"]))
    d = StrategyDictionary.load(tmp_path / "open.dict")
    v = verify(d, d.root, jobs=1)
    assert v.verdict == "verified" and v.positions == j.positions and v.by_rule["dictionary"] == 1
    assert check_witnesses(load_certificate(tmp_path / "open.witnesses"), "asp", jobs=1) == []


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_reports_what_was_found_and_writes_nothing(tmp_path, jobs):
    import signal
    import time

    child = subprocess.Popen([sys.executable, "-m", "qubic_logic.cli", "verify", "strategy", "player:mccarthy",
                              "--jobs", jobs, "--certificate", str(tmp_path / "cert")], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True,
                             preexec_fn=ctrl_c_as_in_a_terminal)
    time.sleep(4)
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=120)
    assert child.returncode == 1 and "Traceback" not in err
    assert "UNKNOWN — stopped (interrupted)" in out and "opponent choices left open" in out
    if jobs == "1":  # one process knows its open choices; workers stopped at once report what finished
        assert "most promising line: 1-" in out
    assert not (tmp_path / "cert").exists()


# ------------------------------------------------------------------ several workers


def _counts(j) -> tuple:
    return j.verdict, j.positions, j.defender_positions, j.by_rule, sorted(e.text() for e in j.choices), \
        len(j.witnesses)


@pytest.mark.parametrize("source,root", [
    (str(RULES / "open-lines.lp"), "xx1oo1x1oo2o8o3x15xxo19x"),  # clingo
    (str(RULES / "open-lines.pl"), "xx1oo1x1oo2o8o3x15xxo19x"),  # SWI-Prolog
    (PDP4, "1-2"),  # refuted
])
def test_two_workers_give_the_verdict_and_counts_of_one_process(source, root):
    from qubic_logic.executor import make_executor
    from qubic_logic.strategy.judge_jobs import judge_on

    game = Game(_moves(root)) if "-" in root else None
    position = game.position if game else parse_position(root)
    moves = game.moves if game else None
    one = judge(load_strategy(source), position, root_moves=moves)
    with make_executor("local", 2, start_method="spawn") as executor:
        two = judge_on(executor, source, position, root_moves=moves)
    assert two.jobs == 2
    if one.verdict == "verified":
        assert _counts(two) == _counts(one)
    else:  # the same shortest game length, proven in both
        assert (two.verdict, two.shortest_proven, two.refutation.length) == (one.verdict, True, one.refutation.length)
        replay = Game(list(two.refutation.moves))
        assert replay.position.winner == two.refutation.result == "o"


def test_a_compiled_dictionary_verifies_on_two_workers_with_the_same_counts(tmp_path):
    from qubic_logic.strategy.compile import dictionary_rules
    from qubic_logic.strategy.dictionary import patashnik_dictionary
    from qubic_logic.strategy.verify import pruned

    root = parse_position("x2x1o16o28o8x")
    small = pruned(patashnik_dictionary(), verify(patashnik_dictionary(), root, jobs=1))
    (tmp_path / "small.pl").write_text(dictionary_rules(small, "part of Patashnik's dictionary"))
    outs = [json.loads(qubic("verify", "strategy", str(tmp_path / "small.pl"), "--root", "x2x1o16o28o8x",
                             "--jobs", jobs, "--json", "--certificate", str(tmp_path / f"{jobs}.dict")).stdout)
            for jobs in ("1", "2")]
    for out in outs:
        out.pop("seconds"), out.pop("written")
    assert outs[0].pop("jobs") == 1 and outs[1].pop("jobs") == 2
    assert outs[0] == outs[1] and outs[0]["positions"] == 1706 and outs[0]["verdict"] == "verified"
    certificates = [StrategyDictionary.load(tmp_path / f"{jobs}.dict") for jobs in ("1", "2")]
    assert sorted(e.text() for e in certificates[0].entries) == sorted(e.text() for e in certificates[1].entries)


def test_two_dask_workers_give_the_counts_of_one_process():
    from qubic_logic.executor import make_executor
    from qubic_logic.strategy.judge_jobs import judge_on

    source, root = str(RULES / "open-lines.pl"), parse_position("xx1oo1x1oo2o8o3x15xxo19x")
    one = judge(load_strategy(source), root)
    with make_executor("dask", 2) as executor:
        two = judge_on(executor, source, root)
    assert _counts(two) == _counts(one) and two.jobs == 2


def test_a_sliced_session_answers_as_the_whole_rules(tmp_path):
    """Dropping the project rules a strategy does not use changes no answer (engines/slicing.py)."""
    from qubic_logic.engines.asp import AspSession

    rules = _write(tmp_path, "uses.lp", "block(C) :- counter_threat(S, C), to_move(S).\n"
                                        "fork(C) :- major_cell(S, C), to_move(S).\n"
                                        "play(C) :- block(C).\nplay(C) :- fork(C), not block(_).\n"
                                        "#show play/1. #show fork/1.\n")
    whole = AspSession(files=[rules], rules=("geometry", "threats"))
    sliced = AspSession(files=[rules], rules=("geometry", "threats"), sliced=True)
    assert len(sliced.ctl.symbolic_atoms) < len(whole.ctl.symbolic_atoms)
    answers = [(whole.solve(p).atoms, sliced.solve(p).atoms) for p, _ in generated_games(300, seed=5)]
    assert [a for a in answers if a[0] != a[1]] == []
    assert sum(bool(a[0][0]) for a in answers) > 20  # the rules do choose moves


def test_workers_stopped_early_leave_no_traceback():
    """A refutation or the time limit stops the other workers at once; nothing of theirs is printed."""
    out = qubic("verify", "strategy", "player:citrenbaum-general", "--jobs", "2", "--time-limit", "4")
    assert out.returncode == 1 and out.stderr == ""
    assert out.stdout.startswith("player:citrenbaum-general: ") and "on 2 workers" in out.stdout
    assert "REFUTED" in out.stdout or "UNKNOWN — stopped (time limit)" in out.stdout
