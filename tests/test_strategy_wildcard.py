"""Wildcard dictionaries, compression up to symmetry, compressed strategies as rules, the complete dictionary."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from qubic_logic.errors import DataFormatError
from qubic_logic.notation import parse_position
from qubic_logic.strategy.complete import complete_dictionary
from qubic_logic.strategy.compress import compressed, merged_lines
from qubic_logic.strategy.dictionary import StrategyDictionary, patashnik_dictionary, patashnik_path
from qubic_logic.strategy.formats import convert_text, read_dictionary
from qubic_logic.strategy.judge import judge
from qubic_logic.strategy.sources import load_strategy
from qubic_logic.strategy.verify import verify
from qubic_logic.strategy.wildcard import dumps_wildcard, parse_wildcard
from qubic_logic.symmetry import canonical_masks

DATA = patashnik_path().parent
SOLVED = DATA / "qubic-logic-solved.dictionary"
RULES = Path(__file__).resolve().parent.parent / "rules" / "strategies"
COMPACT = RULES / "patashnik-compact"
OURS = RULES / "qubic-logic-compact"  # the shipped solved dictionary as rules; its wildcard form is in DATA
LINES_DICT = DATA / "qubic-logic-lines.dictionary"  # the same positions, moves chosen for few lines
LINES = RULES / "qubic-logic-lines"
SMALLEST_DICT = DATA / "qubic-logic-smallest.dictionary"  # the fewest strategic positions found
SMALLEST = RULES / "qubic-logic-smallest"
MID = "x2o8x9o"  # 1-4,13-23: a position of Patashnik's tree, 9,386 positions to verify from
LATE = "xx1oo1x1oo2o8o3x15xxo19x"


def qubic(*args: str, timeout: float = 900) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "qubic_logic.cli", *args], capture_output=True, text=True,
                          timeout=timeout)


def as_played(d: StrategyDictionary) -> set[tuple[int, int]]:
    """Each entry as the canonical position after its move: equal sets are the same strategy up to symmetry."""
    return {canonical_masks(e.position.x | 1 << e.move, e.position.o)[:2] for e in d}


@pytest.mark.parametrize("path", [patashnik_path(), SOLVED, LINES_DICT, SMALLEST_DICT])
def test_wildcard_lines_stand_for_exactly_the_dictionary(path):
    d = StrategyDictionary.load(path)
    for lines in (merged_lines(d), compressed(d)):
        back = parse_wildcard(dumps_wildcard(lines))
        assert len(back) == len(d) and as_played(back) == as_played(d)
        assert all(len(line.text()) == 64 and line.text().count("X") == 1 for line in lines)


def test_compression_up_to_symmetry_beats_the_files_own_orientation():
    d = patashnik_dictionary()
    own, best = len(merged_lines(d)), len(compressed(d))
    assert best < own < len(d)
    assert own < 951  # O'Dwyer's greedy pass over the same orientations gives 951 lines


@pytest.mark.parametrize("line, fragment", [
    ("x" * 10, "line 2: 10 characters"),
    ("X" + "." * 62 + "q", "line 2: character 64 is 'q'"),
    ("X" * 2 + "." * 62, "line 2: 2 X (X's move); expected exactly one"),
    ("xX" + "." * 62, "line 2: 1 x marks and 0 o marks"),
    ("X" + "o" + "." * 62, "line 2: 0 x marks and 1 o marks"),
])
def test_a_malformed_line_is_one_error_naming_it(line, fragment):
    with pytest.raises(DataFormatError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        parse_wildcard(f"# header\n{line}\n", "w.txt")


def test_two_lines_for_one_position_up_to_symmetry_are_an_error():
    a = "x" + "." * 20 + "X" + "." * 20 + "O" + "." * 21
    b = "." * 63 + "x"  # x at 63, o at 42: an image of line 1's position (x at 0, o at 42)
    b = b[:42] + "o" + b[43:]
    b = b[:5] + "X" + b[6:]
    with pytest.raises(DataFormatError, match=r"w.txt line 2: position 42o20x is equivalent to x41o \(line 1\)"):
        parse_wildcard(f"{a}\n{b}\n", "w.txt")


def test_formats_are_detected_or_forced_by_a_prefix(tmp_path):
    wild = tmp_path / "w.txt"
    wild.write_text(convert_text(patashnik_dictionary(), "wildcard"))
    assert as_played(read_dictionary(wild)) == as_played(patashnik_dictionary())
    assert len(read_dictionary(f"wildcard:{wild}")) == 2929
    with pytest.raises(DataFormatError, match="no separator line"):
        read_dictionary(f"patashnik:{wild}")


def test_convert_then_verify_a_wildcard_file_from_a_position(tmp_path):
    out = tmp_path / "wildcard.txt"
    r = qubic("strategy", "convert", str(patashnik_path()), str(out), "--to", "wildcard")
    assert r.returncode == 0 and "2,929 strategic positions" in r.stdout
    got = json.loads(qubic("verify", "dictionary", str(out), "--root", MID, "--json").stdout)
    want = verify(patashnik_dictionary(), parse_position(MID))
    assert got["verdict"] == "verified" and got["positions"] == want.positions and got["by_rule"] == want.by_rule


@pytest.mark.slow
def test_convert_then_verify_a_wildcard_file_from_the_empty_board(tmp_path):
    out = tmp_path / "wildcard.txt"
    assert qubic("strategy", "convert", str(patashnik_path()), str(out), "--to", "wildcard").returncode == 0
    r = qubic("verify", "dictionary", str(out))
    assert r.returncode == 0 and "VERIFIED" in r.stdout and "528,788 positions" in r.stdout
    assert "(3) dictionary move        2,929" in r.stdout


def test_compress_cli_writes_a_file_verify_reads(tmp_path):
    out = tmp_path / "c.txt"
    r = qubic("strategy", "compress", str(patashnik_path()), "-o", str(out), "--json")
    report = json.loads(r.stdout)
    assert report["entries"] == 2929 and report["lines"] == len(compressed(patashnik_dictionary()))
    assert as_played(read_dictionary(out)) == as_played(patashnik_dictionary())


def test_bad_input_is_one_line_exit_2(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("X" + "." * 63 + "\n" + "x" * 5 + "\n")
    r = qubic("verify", "dictionary", str(bad))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "bad.txt line 2: 5 characters" in r.stderr
    r = qubic("strategy", "convert", str(bad), str(tmp_path / "o.lp"), "--to", "asp")
    assert r.returncode == 2 and "line 2" in r.stderr and not (tmp_path / "o.lp").exists()


@pytest.mark.parametrize("rules, dictionary", [(COMPACT, "patashnik-qubic.dictionary"),
                                               (OURS, "qubic-logic-solved.dictionary"),
                                               (LINES, "qubic-logic-lines.dictionary"),
                                               (SMALLEST, "qubic-logic-smallest.dictionary")])
@pytest.mark.parametrize("language, ext", [("asp", "lp"), ("prolog", "pl")])
def test_shipped_compact_strategy_is_the_compressed_dictionary(rules, dictionary, language, ext):
    text = convert_text(StrategyDictionary.load(DATA / dictionary), language, f"qubic_logic/data/{dictionary}")
    shipped = rules.with_suffix(f".{ext}").read_text()
    assert shipped.split("\n", 1)[1] == text.split("\n", 1)[1]  # the first line names where it was written from


@pytest.mark.parametrize("dictionary, compact", [(SOLVED, "qubic-logic-compact.txt"),
                                                (LINES_DICT, "qubic-logic-lines-compact.txt"),
                                                (SMALLEST_DICT, "qubic-logic-smallest-compact.txt")])
def test_shipped_wildcard_form_is_the_dictionary_compressed(dictionary, compact):
    d = StrategyDictionary.load(dictionary)
    text = (DATA / compact).read_text()
    assert text.split("\n", 1)[1] == dumps_wildcard(compressed(d), d.header)
    assert as_played(parse_wildcard(text)) == as_played(d)


def test_the_smallest_strategy_is_written_in_at_most_500_wildcard_lines_and_its_rules_hold_one_pattern_each():
    d = StrategyDictionary.load(SMALLEST_DICT)
    lines = compressed(d)
    assert len(d) <= 1800 and len(lines) <= 500
    prolog = SMALLEST.with_suffix(".pl").read_text()
    assert prolog.count("\npattern(") == len(lines)


@pytest.mark.parametrize("rules, dictionary, ext, root", [
    (COMPACT, patashnik_path(), "pl", MID), (COMPACT, patashnik_path(), "lp", LATE),
    (OURS, SOLVED, "pl", "x2xo16o"), (OURS, SOLVED, "lp", "x2x6o10o"),
    (LINES, LINES_DICT, "pl", "x2x6o10o"), (LINES, LINES_DICT, "lp", "x2xo16o"),
    (SMALLEST, SMALLEST_DICT, "pl", "x2x6o10o"), (SMALLEST, SMALLEST_DICT, "lp", "x2xo16o")])
def test_compact_rules_verify_with_the_dictionarys_counts(rules, dictionary, ext, root):
    strategy = load_strategy(str(rules.with_suffix(f".{ext}")), time_limit=120)  # a loaded machine grounds slowly
    try:
        j = judge(strategy, parse_position(root))
    finally:
        strategy.close()
    want = judge(load_strategy(str(dictionary)), parse_position(root))
    assert j.verdict == "verified" and j.positions == want.positions and j.by_rule == want.by_rule


@pytest.mark.slow
def test_compact_prolog_rules_verify_from_the_empty_board():
    r = qubic("verify", "strategy", str(COMPACT.with_suffix(".pl")), "--json", "--time-limit", "880")
    got = json.loads(r.stdout)
    assert got["verdict"] == "verified" and got["by_rule"]["strategy"] == 2929


@pytest.mark.slow
@pytest.mark.parametrize("rules, dictionary", [(OURS, SOLVED), (LINES, LINES_DICT), (SMALLEST, SMALLEST_DICT)])
@pytest.mark.parametrize("ext", ["pl", "lp"])
def test_our_compact_rules_verify_from_the_empty_board_with_the_dictionarys_counts(rules, dictionary, ext):
    r = qubic("verify", "strategy", str(rules.with_suffix(f".{ext}")), "--json", "--time-limit", "6000",
              "--call-limit", "60", timeout=6600)
    got = json.loads(r.stdout)
    want = verify(StrategyDictionary.load(dictionary))
    assert got["verdict"] == "verified" and got["by_rule"]["strategy"] == len(StrategyDictionary.load(dictionary))
    assert got["positions"] == want.positions


def test_the_lines_strategy_writes_the_solved_strategys_positions_in_at_most_500_lines():
    solved, lines = StrategyDictionary.load(SOLVED), StrategyDictionary.load(LINES_DICT)
    positions = lambda d: {canonical_masks(e.position.x, e.position.o)[:2] for e in d}  # noqa: E731
    assert positions(lines) == positions(solved)
    assert len(compressed(lines)) <= 500 < len(compressed(solved))
    v = verify(lines)
    assert v.verdict == "verified" and v.by_rule["dictionary"] == len(solved)


def test_complete_dictionary_holds_the_entries_and_a_decision_at_each_forced_win():
    d = StrategyDictionary(list(patashnik_dictionary()), [f"root: {LATE}"])
    v = verify(d, d.root)
    complete = complete_dictionary(d)
    assert as_played(d) <= as_played(complete)
    assert all(w.position in complete for w in v.witnesses)
    longer = sum(w.length > 1 for w in v.witnesses)
    assert len(complete) > len(d) + len(v.witnesses) and longer  # later steps of long forced wins add more


def test_complete_cli_counts_the_decisions_and_their_lines(tmp_path):
    d = StrategyDictionary(list(patashnik_dictionary()), [f"root: {LATE}"])
    d.save(tmp_path / "late.dict")
    r = qubic("strategy", "complete", str(tmp_path / "late.dict"), "-o", str(tmp_path / "all.txt"), "--json")
    report = json.loads(r.stdout)
    complete = complete_dictionary(d)
    assert report["decisions"] == len(complete) and report["lines"] == len(compressed(complete))
    assert as_played(read_dictionary(tmp_path / "all.txt")) == as_played(complete)
