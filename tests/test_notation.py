"""Notations: every form parses, formats and round-trips; errors say what is expected."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qubic_logic.errors import NotationError
from qubic_logic.notation import (
    CELL_FORMS, diagram, format_cell, format_mcdaniel, format_position, parse_cell,
    parse_mcdaniel, parse_patashnik, parse_position,
)
from qubic_logic.position import Position

from .conftest import random_position


def test_design_table_example():
    # docs/design.md §1: the cell of x=0, y=1, z=3 in each notation
    assert [format_cell(52, f) for f in CELL_FORMS] == ["52", "53", "421", ".421"]
    assert parse_cell("421") == parse_cell(".421") == parse_cell("53", "number") == parse_cell("52", "index") == 52


@pytest.mark.parametrize("form", CELL_FORMS)
def test_cells_round_trip(form):
    assert [parse_cell(format_cell(c, form), form) for c in range(64)] == list(range(64))


@pytest.mark.parametrize(
    "text, form, message",
    [("22", None, "ambiguous"), ("65", None, "expected a cell"), ("64", "index", "0..63"),
     ("0", "number", "1..64"), (".521", "hp67", ".zyx"), ("abc", None, "expected a cell"),
     ("5", "nonsense", "unknown cell form")],
)
def test_cell_errors_name_the_expected_form(text, form, message):
    with pytest.raises(NotationError, match=message):
        parse_cell(text, form)


def test_mcdaniel_move_lists():
    assert parse_mcdaniel("1-4,22-53") == [0, 3, 21, 52]
    assert format_mcdaniel([0, 3, 21]) == "1-4,22"
    with pytest.raises(NotationError, match="one O move per pair"):
        parse_mcdaniel("1-2,22-3-4-5")
    with pytest.raises(NotationError, match="1..64"):
        parse_mcdaniel("1-65")


def test_patashnik_header_example():
    # the example in the dictionary's own header
    p = parse_patashnik("xo1x8x8o41o")
    assert [c for c in range(64) if p.at(c) == "x"] == [0, 3, 12]
    assert [c for c in range(64) if p.at(c) == "o"] == [1, 21, 63]


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 40))
def test_positions_round_trip_in_every_form(seed, marks):
    p = random_position(random.Random(seed), marks)
    for form in ("qubic", "patashnik"):
        text = format_position(p, form)
        assert parse_position(text) == p
        assert parse_position(f"{form}:{text}") == p


def test_move_list_forms_agree():
    assert parse_position("1-2,22-52,27") == parse_position("moves:0,1,21,51,26") == Position.from_cells(
        [0, 1, 21, 51, 26]
    )
    assert parse_position("empty") == parse_position("") == Position()


@pytest.mark.parametrize("text", ["hello", "x...,..../....", "moves:0,99", "xq1"])
def test_position_errors_list_accepted_forms(text):
    with pytest.raises(NotationError):
        parse_position(text)


def test_diagram_shows_levels_side_by_side():
    lines = diagram(Position.from_cells([0, 63]), {5: "+"}).splitlines()
    assert lines[0].split() == ["level", "1", "level", "2", "level", "3", "level", "4"]
    assert lines[1].split()[0] == "x" and lines[4].split()[-1] == "o" and lines[2].split()[1] == "+"
