"""docs/strategies.md: the rule files on the page load, and every example runs as written.

Times (``0.78 s``, ``8,225 positions/s``) are the only text allowed to differ.
"""

import re
import shlex
from pathlib import Path

import pytest

from qubic_logic.cli import main

from .docpages import console_examples

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "strategies.md").read_text()
FILES = dict(re.findall(r"<!-- file: ([\w.-]+) -->\n```\n(.*?)```", DOC, re.DOTALL))
EXAMPLES = console_examples(DOC)


def _timeless(text: str) -> str:
    return re.sub(r"[\d,]+ positions/s", "N positions/s", re.sub(r"\d+\.\d+ s\b", "T s", text))


@pytest.fixture
def folder(tmp_path, monkeypatch):
    for name, text in FILES.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "rules").symlink_to(ROOT / "rules")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_page_has_its_files_and_examples():
    assert set(FILES) == {"strong.lp", "strong.pl"}
    assert set(EXAMPLES) == {"debug", "refute", "verify"}


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_example_runs_as_written(name, folder, capsys):
    for command, shown in EXAMPLES[name]:
        argv = shlex.split(command)
        assert argv[0] == "qubic"
        code = main(argv[1:])
        out, err = capsys.readouterr()
        assert _timeless(out) == _timeless(shown), (command, err)
        assert code == (1 if "REFUTED" in shown else 0)
    if name == "refute":
        assert (folder / "beaten.game").read_text() == "1-2,4-26,13-6,16-22,23-38,54-14,10-50\n"


def test_qubic_claims_points_to_the_players_verdicts(capsys):
    from qubic_logic.claims.report import markdown

    assert main(["claims", "--only", "automorphisms"]) == 0
    out = " ".join(capsys.readouterr().out.split())  # the table wraps its caption
    assert "won every game" in out and "docs/strategies.md" in out and "The seeds' players, judged" in out
    assert "strategies.md#the-seeds-players-judged" in markdown([])
    section = DOC.split("## The seeds' players, judged")[1].split("\n## ")[0]
    assert "| `mcdaniel` | REFUTED |" in section and "Citrenbaum" in section and "McDaniel" in section
