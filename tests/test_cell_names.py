"""One rule names cells: answers use the notation of the user's input unless --notation says otherwise."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from qubic_logic.cli import main
from qubic_logic.core import shortest_forced_win
from qubic_logic.notation import CellNames, format_cell, input_notation, parse_game, parse_position
from qubic_logic.players import get_player

QUBIC = [sys.executable, "-m", "qubic_logic.cli"]
PLANE_17 = "1-2,22-52,27-4"  # McDaniel's numbers 1..64
SAME_IN_INDEX = "moves:0,1,21,51,26,3"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def sequence_in(position: str, form: str) -> str:
    return " ".join(format_cell(c, form) for c in shortest_forced_win(parse_position(position)).sequence)


def test_win_answers_a_mcdaniel_move_list_in_numbers_1_to_64(capsys):
    code, out, _ = run(capsys, "win", PLANE_17)
    expected = sequence_in(PLANE_17, "number")
    assert code == 0 and f"X wins in 6 moves: {expected} [" in out
    assert expected != sequence_in(PLANE_17, "index")


def test_win_answers_a_moves_list_in_index_0_to_63(capsys):
    assert parse_position(SAME_IN_INDEX) == parse_position(PLANE_17)
    code, out, _ = run(capsys, "win", SAME_IN_INDEX)
    assert code == 0 and f"X wins in 6 moves: {sequence_in(SAME_IN_INDEX, 'index')} [" in out


def test_notation_overrides_the_input_s_and_json_keeps_0_to_63(capsys):
    _, out, _ = run(capsys, "win", PLANE_17, "--notation", "hp67")
    assert sequence_in(PLANE_17, "hp67") in out
    _, out, _ = run(capsys, "win", PLANE_17, "--json")
    assert json.loads(out)["sequence"] == list(shortest_forced_win(parse_position(PLANE_17)).sequence)


def test_an_illegal_move_is_named_as_the_user_wrote_it(capsys):
    code, _, err = run_cli_error(["win", "1-2,22-2"])
    assert code == 2 and "move 4: cell 2 is already taken by O" in err
    code, _, err = run_cli_error(["win", "moves:0,1,21,1"])
    assert code == 2 and "move 4: cell 1 is already taken by O" in err


def run_cli_error(argv):
    done = subprocess.run([*QUBIC, *argv], capture_output=True, text=True, timeout=60, check=False)
    return done.returncode, done.stdout, done.stderr


def test_show_names_the_winning_line_in_the_input_s_notation(capsys):
    _, out, _ = run(capsys, "show", "1-17,2-18,3-19,4")
    assert "X has won on 1 2 3 4;" in out and "[" not in out
    _, out, _ = run(capsys, "show", "moves:0,16,1,17,2,18,3")
    assert "X has won on 0 1 2 3;" in out


@pytest.mark.parametrize("player", ["hp67", "doake", "mcdaniel", "solver", "mccarthy", "citrenbaum-pdp4"])
def test_players_explain_through_the_project_s_formatter(player):
    game = parse_game("1-2,22-52,27-4,43")
    move = get_player(player).choose(game)
    for form in ("index", "number", "lrc", "hp67"):
        text = move.explain(form)
        if form != "hp67":
            assert ".1" not in text and ".2" not in text and ".3" not in text and ".4" not in text, text
    if move.cells:  # every cell it cites is written in the notation asked for
        cited = [c for c in move.cells if isinstance(c, int)]
        for c in cited:
            assert format_cell(c, "hp67") in move.explain("hp67")
            assert format_cell(c, "lrc") in move.explain("lrc")


def test_reply_explains_hp67_in_the_input_s_notation_and_reads_bare_numbers_in_notation(capsys):
    _, out, _ = run(capsys, "reply", "hp67", ".231")
    assert out.startswith("hp67 (O) plays .322: ") and "the row from .321 to .324" in out
    _, out, _ = run(capsys, "reply", "hp67", "moves:24")
    assert "plays 37: " in out and "the row from 36 to 39" in out
    code, _, err = run(capsys, "reply", "hp67", "5")
    assert code == 2 and "'5' is ambiguous" in err and err.rstrip().endswith("(McDaniel's numbers 1..64)")
    code, out, _ = run(capsys, "reply", "hp67", "5", "--notation", "number")
    assert code == 0 and out.startswith("hp67 (O) plays ")


def test_mcdaniel_s_stored_line_is_his_pairs_in_numbers_and_plain_cells_in_index(capsys):
    _, out, _ = run(capsys, "reply", "mcdaniel", "1-2,22-4,27-3")
    assert "43-64,11-59,17-32,49-33,16-38,6" in out
    _, out, _ = run(capsys, "reply", "mcdaniel", "1-2,22-4,27-3", "--notation", "index")
    assert "42 63 10 58 16 31 48 32 15 37 5" in out


def test_check_names_counterexamples_in_the_chosen_notation(capsys):
    rules = os.path.join(os.path.dirname(os.path.dirname(__file__)), "rules", "checks", "three-two-zero-files.pl")
    code, out, _ = run(capsys, "check", rules, "--notation", "number")
    assert code == 1 and "counterexample: X 1 2 6; O 5" in out


def test_input_notation_and_cell_names():
    assert [input_notation(t) for t in (PLANE_17, SAME_IN_INDEX, ".231 .322", "231", "xo1x")] == \
        ["number", "index", "hp67", "lrc", "index"]
    assert CellNames("number").line([0, 1, 21]) == "1-2,22" and CellNames("lrc").line([0, 1]) == "111 112"


def test_shipped_resources_work_by_name_from_any_folder(tmp_path):
    done = subprocess.run([*QUBIC, "verify", "dictionary", "patashnik", "--root", "xx1oo1x1oo2o8o3x15xxo19x"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("patashnik: VERIFIED — X to move at xx1oo1x1oo2o8o3x15xxo19x")
    done = subprocess.run([*QUBIC, "verify", "dictionary", "nonesuch"], capture_output=True, text=True,
                          cwd=tmp_path, timeout=60, check=False)
    assert done.returncode == 2
    assert "shipped dictionaries: patashnik, qubic-logic-solved, qubic-logic-lines, qubic-logic-smallest" in done.stderr


@pytest.mark.slow
def test_verify_strategy_by_a_shipped_rule_file_s_name(tmp_path):
    done = subprocess.run([*QUBIC, "verify", "strategy", "open-lines.lp", "--root", "xx1oo1x1oo2o8o3x15xxo19x"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("open-lines.lp: VERIFIED — X wins from xx1oo1x1oo2o8o3x15xxo19x")


def test_list_shows_what_ships_one_line_each(capsys):
    from qubic_logic.players import player_names
    from qubic_logic.shipped import strategy_rule_files

    _, out, _ = run(capsys, "list", "players")
    assert [line.split()[0] for line in out.splitlines()] == player_names()
    _, out, _ = run(capsys, "list", "strategies")
    names = [line.split()[0] for line in out.splitlines()]
    assert names[: len(strategy_rule_files())] == strategy_rule_files() and "patashnik" in names
    _, out, _ = run(capsys, "list", "dictionaries", "--json")
    assert [d["name"] for d in json.loads(out)["dictionaries"]] == ["patashnik", "qubic-logic-solved",
                                                                         "qubic-logic-lines", "qubic-logic-smallest"]


def test_long_bad_input_is_quoted_cut_at_a_word_with_its_length():
    code, _, err = run_cli_error(["win", "1-2, " * 40 + "x"])
    assert code == 2 and "(201 characters)" in err
    quoted = err.split("'")[1]
    assert quoted.endswith("…") and quoted[:-1].endswith((" ", ",", "-"))


@pytest.mark.slow
def test_verify_dictionary_patashnik_from_a_temporary_folder(tmp_path):
    done = subprocess.run([*QUBIC, "verify", "dictionary", "patashnik"], capture_output=True, text=True,
                          cwd=tmp_path, timeout=1200, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("patashnik: VERIFIED — X to move at the empty board wins by the dictionary")
    assert "(3) dictionary move        2,929" in done.stdout
