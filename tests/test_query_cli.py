"""``qubic query`` and ``qubic win --engine``: output, JSON, time limits and errors on the command line."""

import json

import pytest

from qubic_logic.cli import main
from qubic_logic.core import threats
from qubic_logic.geometry import cells_of
from qubic_logic.notation import parse_position
from qubic_logic.referee import replay_forced_win

MUST_SHOW = "1-2,22-52,27-4"


def _json(argv, capsys):
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("engine", ["asp", "prolog", "native", "python", "auto"])
def test_win_engines_agree_with_valid_witnesses(engine, capsys):
    win = _json(["win", MUST_SHOW, "--engine", engine, "--json"], capsys)
    reference = _json(["win", MUST_SHOW, "--engine", "python", "--json"], capsys)
    assert win["length"] == reference["length"] == 6
    assert replay_forced_win(parse_position(MUST_SHOW), win["sequence"]) == 6
    assert win["engine"] in (engine, "native", "python")


def test_query_json_both_languages(capsys):
    p = parse_position(MUST_SHOW)
    expected = cells_of(threats(p).forcing_x)
    asp = _json(["query", "--engine", "asp", MUST_SHOW, "f(C) :- forcing_move(x, C). #show f/1.", "--json"], capsys)
    assert asp["satisfiable"] and asp["models"] == [sorted(f"f({c})" for c in expected)]
    prolog = _json(["query", "--engine", "prolog", MUST_SHOW, "forcing_move(x, C)", "--json"], capsys)
    assert [s["C"] for s in prolog["solutions"]] == expected


def test_query_prints_false_and_unsatisfiable(capsys):
    assert main(["query", "--engine", "prolog", MUST_SHOW, "threat(x, C)"]) == 0
    assert capsys.readouterr().out == "false.\n"
    assert main(["query", "--engine", "asp", MUST_SHOW, ":- to_move(x)."]) == 0
    assert capsys.readouterr().out.startswith("UNSATISFIABLE")


def test_query_time_limit_is_one_line_exit_2(capsys):
    pigeons = "p(1..11). h(1..10). 1 { in(P, H) : h(H) } 1 :- p(P). :- in(P, H), in(Q, H), P < Q."
    assert main(["query", "--engine", "asp", MUST_SHOW, pigeons, "--time-limit", "0.2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "asp engine" in err and "0.2 s" in err
    assert main(["query", "--engine", "prolog", MUST_SHOW, "repeat, fail", "--time-limit", "0.2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "prolog engine" in err and "0.2 s" in err


def test_query_broken_rule_file(tmp_path, capsys):
    bad = tmp_path / "mine.lp"
    bad.write_text("ok.\nbroken(X :- ok.\n")
    assert main(["query", "--engine", "asp", "--rules", str(bad), MUST_SHOW, "#show ok/0."]) == 2
    assert "mine.lp:2:" in capsys.readouterr().err
    bad_pl = tmp_path / "mine.pl"
    bad_pl.write_text("ok.\nbroken(X :- ok.\n")
    assert main(["query", "--engine", "prolog", "--rules", str(bad_pl), MUST_SHOW, "ok"]) == 2
    assert "mine.pl:2:" in capsys.readouterr().err


def test_query_warns_about_a_misspelt_predicate(capsys):
    assert main(["query", "--engine", "asp", MUST_SHOW, "m(C) :- major_cel(o, C). #show m/1."]) == 0
    captured = capsys.readouterr()
    assert "major_cel(o,C)" in captured.err and "does not occur in any rule head" in captured.err
    assert main(["query", "--engine", "asp", MUST_SHOW, "m(C) :- major_cell(o, C). #show m/1."]) == 0
    assert capsys.readouterr().err == ""


def test_an_asp_query_without_show_says_it_shows_every_atom(capsys):
    assert main(["query", "--engine", "asp", MUST_SHOW, "m(X) :- x(X)."]) == 0
    out = capsys.readouterr().out
    assert "m(0)" in out and "x(0)" in out  # every atom: the position's facts too
    assert out.rstrip().splitlines()[-1].endswith("the program has no #show, so every atom is shown, the project's "
                                                  "rules' included: add e.g. '#show winning_move/3.' to choose)")
    assert main(["query", "--engine", "asp", MUST_SHOW, "m(X) :- x(X). #show m/1."]) == 0
    assert "no #show" not in capsys.readouterr().out
