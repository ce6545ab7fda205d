"""Text that goes into generated files stays text: a file name or a header line holding rules or records
never runs in a written rule file, nor adds an entry to a written dictionary or certificate."""

from __future__ import annotations

import sqlite3

import pytest

from qubic_logic.cli import main
from qubic_logic.players.doake.store import Brain
from qubic_logic.players.doake.train import train
from qubic_logic.strategy.certificate import load_certificate
from qubic_logic.strategy.complete import complete_dictionary
from qubic_logic.strategy.dictionary import StrategyDictionary
from qubic_logic.strategy.formats import read_dictionary

SMALL = "root: x2x1o6x14o20o\n---\nx2x1o6x14o20o 21\n"  # one entry; verified from its root in a second
ROOT = "x2x1o6x14o20o"
RECORD = "x" + "." * 20 + "X" + "." * 20 + "OO" + "." * 20  # a wildcard line standing for two entries
HOSTILE = {
    "prolog": ['d\n:- initialization(shell("touch PWNED")).\n%.dict',
               'd\r\n:- initialization(shell("touch PWNED")).\r\n%.dict',
               'd\u2028:- initialization(shell("touch PWNED")).\x0c%.dict'],
    "asp": ['d\n#include "PWNED.lp".\n%.dict', 'd\nplay(0).\n%.dict', 'd\r\n#const x=1.\r\n%.dict'],
}


def rules_of(text: str) -> list[str]:
    """The lines of a rule file that are not comments."""
    return [line for line in text.splitlines() if not line.startswith("%")]


@pytest.mark.parametrize("language,name", [(lang, n) for lang, names in HOSTILE.items() for n in names])
def test_a_hostile_file_name_runs_nothing_in_the_rules_written_from_it(tmp_path, monkeypatch, capsys, language, name):
    monkeypatch.chdir(tmp_path)  # where PWNED would appear (the rules run in a worker started from here)
    ext = "pl" if language == "prolog" else "lp"
    (tmp_path / name).write_text(SMALL)
    (tmp_path / "plain.dict").write_text(SMALL)
    assert main(["strategy", "convert", name, f"out.{ext}", "--to", language]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 1  # the name echoed on one line too
    assert main(["strategy", "convert", "plain.dict", f"plain.{ext}", "--to", language]) == 0
    written = (tmp_path / f"out.{ext}").read_text()
    assert rules_of(written) == rules_of((tmp_path / f"plain.{ext}").read_text())  # only comments differ
    capsys.readouterr()
    assert main(["verify", "strategy", f"out.{ext}", "--root", ROOT]) == 0
    assert "VERIFIED" in capsys.readouterr().out
    assert not (tmp_path / "PWNED").exists()


def test_header_lines_with_line_breaks_stay_comments_in_rules_and_wildcard_files(tmp_path):
    source = tmp_path / "d.dict"
    source.write_text(f"note\x0c{RECORD}\rplay(0).\n" + SMALL)
    for language, ext in (("prolog", "pl"), ("asp", "lp"), ("wildcard", "txt")):
        assert main(["strategy", "convert", str(source), str(tmp_path / f"out.{ext}"), "--to", language]) == 0
    assert [e.text() for e in read_dictionary(str(tmp_path / "out.txt"))] == [e.text() for e in
                                                                              read_dictionary(str(source))]
    for ext in ("pl", "lp"):
        assert not any("play(0)." in line for line in rules_of((tmp_path / f"out.{ext}").read_text()))


def test_a_hostile_name_adds_no_entry_to_a_compressed_or_completed_dictionary(tmp_path):
    name = tmp_path / f"d\n{RECORD}\n---\nxo 5\n.dict"
    name.write_text(SMALL)
    wanted = len(complete_dictionary(StrategyDictionary.parse(SMALL)))
    assert main(["strategy", "compress", str(name), "-o", str(tmp_path / "c.txt")]) == 0
    assert [e.text() for e in read_dictionary(str(tmp_path / "c.txt"))] == ["x2x1o6x14o20o 21"]
    for to in ("wildcard", "patashnik"):
        out = tmp_path / f"complete.{to}"
        assert main(["strategy", "complete", str(name), "-o", str(out), "--to", to]) == 0
        assert len(read_dictionary(str(out))) == wanted


def test_a_hostile_rule_file_name_adds_no_witness_to_a_certificate(tmp_path):
    plain = tmp_path / "plain.dict"
    plain.write_text(SMALL)
    assert main(["strategy", "convert", str(plain), str(tmp_path / "s.pl"), "--to", "prolog"]) == 0
    hostile = tmp_path / "s\nxxx13ooo 3\n------\nx 1.pl"
    hostile.write_text((tmp_path / "s.pl").read_text())
    cert = tmp_path / "cert.dict"
    assert main(["verify", "strategy", str(hostile), "--root", ROOT, "--certificate", str(cert)]) == 0
    witnesses = load_certificate(f"{cert}.witnesses")
    assert len(witnesses) == 57 and main(["verify", "certificate", f"{cert}.witnesses", "--check-with", "referee"]) == 0
    assert [e.text() for e in read_dictionary(str(cert))] == ["x2x1o6x14o20o 21"]


def test_a_brain_whose_pattern_holds_rule_text_is_refused_before_any_rule_is_written(tmp_path, capsys):
    brain = tmp_path / "brain.sqlite"
    b = Brain(brain, create=True)
    try:
        train(b, "random", 3, 0, "plausible", None, None)
    finally:
        b.close()
    db = sqlite3.connect(brain)
    db.execute("UPDATE patterns SET game = '1' || char(10) || ':- initialization(shell(''touch PWNED'')).'")
    db.commit()
    db.close()
    assert main(["learn", str(brain), "--export", str(tmp_path / "rules.pl")]) == 2
    err = capsys.readouterr().err
    assert "a damaged Doake brain" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "rules.pl").exists()
