"""Strategy dictionaries: Patashnik's format read and written exactly, lookup up to symmetry."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from qubic_logic.errors import DataFormatError
from qubic_logic.notation import parse_patashnik
from qubic_logic.position import Position
from qubic_logic.strategy import Entry, StrategyDictionary, patashnik_dictionary, patashnik_path
from qubic_logic.symmetry import TRANSFORMS, canonical_masks, map_mask

SHARED = Path("/work/shared/data/patashnik-qubic.dictionary")


def test_shipped_copy_is_byte_identical_to_the_shared_one():
    if not SHARED.exists():
        pytest.skip("no shared data folder on this machine")
    assert patashnik_path().read_bytes() == SHARED.read_bytes()


def test_patashnik_round_trips_byte_for_byte(tmp_path):
    d = patashnik_dictionary()
    assert len(d) == 2929
    out = tmp_path / "copy.dictionary"
    d.save(out)
    assert out.read_bytes() == patashnik_path().read_bytes()


def test_first_entry_is_the_empty_board_and_lines_are_numbered():
    text = patashnik_path().read_text().split("\n")
    d = patashnik_dictionary()
    first = d.entries[0]
    assert first.position == Position() and first.move == 0
    assert text[first.line - 1] == " 0"
    example = next(e for e in d if e.text() == "xo1x8x8o41o 41")
    assert text[example.line - 1] == "xo1x8x8o41o 41"


def _equivalent_moves(position: Position, a: int, b: int) -> bool:
    """True when playing ``a`` or ``b`` in ``position`` gives positions equal up to symmetry."""
    pa, pb = position.play(a), position.play(b)
    return canonical_masks(pa.x, pa.o)[:2] == canonical_masks(pb.x, pb.o)[:2]


def test_lookup_maps_the_move_back_through_the_transform():
    rng = random.Random(5)
    d = patashnik_dictionary()
    for entry in rng.sample(d.entries, 60):
        t = rng.randrange(len(TRANSFORMS))
        image = Position(map_mask(t, entry.position.x), map_mask(t, entry.position.o))
        expected = TRANSFORMS[t][entry.move]
        got = d.move_for(image)
        assert got is not None and _equivalent_moves(image, got, expected)


def test_a_position_is_covered_exactly_when_an_entry_is_equivalent():
    d = patashnik_dictionary()
    keys = {canonical_masks(e.position.x, e.position.o)[:2] for e in d}
    rng = random.Random(7)
    seen = {True: 0, False: 0}
    for _ in range(200):
        p = Position.from_cells(rng.sample(range(64), 2))
        covered = canonical_masks(p.x, p.o)[:2] in keys
        assert (d.move_for(p) is not None) == covered
        seen[covered] += 1
    assert seen[True] and seen[False]


@pytest.mark.parametrize(
    "text, line, words",
    [
        ("head\n---\nxo 5\nxo7 99\n", 4, "move 99 is not a cell"),
        ("head\n---\nxo 5\nxo 1\n", 4, "occupied"),
        ("head\n---\nxo 5\nxo  5\n", 4, "is not an entry"),
        ("head\n---\nxo 5\nxx 5\n", 4, "X has 2 marks"),
        ("head\n---\nxo 5\n70x 5\n", 4, "runs past cell 63"),
        ("---\nxo 5\n2ox 6\n", 3, "equivalent to xo (line 2)"),
    ],
)
def test_malformed_lines_are_reported_with_their_number(text, line, words):
    with pytest.raises(DataFormatError) as err:
        StrategyDictionary.parse(text, "bad.dictionary")
    assert f"line {line}" in str(err.value) and words in str(err.value)


def test_missing_separator_is_reported():
    with pytest.raises(DataFormatError, match="no separator line of dashes"):
        StrategyDictionary.parse("xo 5\n")


def test_written_dictionary_reads_back(tmp_path):
    entries = [Entry(parse_patashnik("xo"), 5), Entry(parse_patashnik("x20o"), 42)]
    d = StrategyDictionary(entries, ["made by a test"])
    path = tmp_path / "d.dictionary"
    d.save(path)
    back = StrategyDictionary.load(path)
    assert [e.text() for e in back] == ["xo 5", "x20o 42"]
    assert back.header == ["made by a test"] and path.read_text().startswith("made by a test\n---")
