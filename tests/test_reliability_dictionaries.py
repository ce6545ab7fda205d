"""Dictionary files as users (and hostile users) write them: the format told apart by the first line,
byte order marks and CRLF taken, bad bytes named by line, and reading under the time limit."""

from __future__ import annotations

import json
import re

import pytest

from qubic_logic.bench.reading import big_wildcard_file, wildcard_lines
from qubic_logic.cli import main
from qubic_logic.errors import DataFormatError, QueryTimeout
from qubic_logic.strategy import dictionary as dictionary_module
from qubic_logic.strategy.dictionary import patashnik_path
from qubic_logic.strategy.formats import convert_text, read_dictionary
from qubic_logic.strategy import patashnik_dictionary

RECORD = "x" + "." * 20 + "X" + "." * 20 + "OO" + "." * 20  # two positions
OTHER = "x" + "." * 21 + "X" + "." * 19 + "OO" + "." * 20


def write(tmp_path, name: str, data: str | bytes):
    path = tmp_path / name
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return str(path)


@pytest.mark.parametrize("first, fault", [
    (RECORD[:63], "line 2: 63 characters"),
    (RECORD[:40] + "y" + RECORD[41:], "line 2: character 41 is 'y'"),
    (RECORD.replace("X", "."), "line 2: no X"),
    ("x" * 40, "line 2: 40 characters"),
])
def test_a_wildcard_file_whose_first_record_is_bad_is_read_as_wildcard(tmp_path, first, fault):
    path = write(tmp_path, "w.txt", f"# my lines\n{first}\n{OTHER}\n")
    with pytest.raises(DataFormatError, match=fault):
        read_dictionary(path)


def test_a_patashnik_file_with_a_64_dash_separator_is_read_as_patashnik(tmp_path):
    text = patashnik_path().read_text().replace("-" * 41, "-" * 64, 1)
    assert "-" * 64 + "\n" in text
    assert len(read_dictionary(write(tmp_path, "p.dict", text))) == 2929
    assert len(read_dictionary(write(tmp_path, "q.dict", "-" * 64 + "\nxo 5\n"))) == 1


def test_text_in_neither_format_is_refused_naming_both(tmp_path):
    with pytest.raises(DataFormatError, match=r"line 1 \('my notes'\) is not a 64-character wildcard record .* "
                                              r"no separator line of dashes|no separator line of dashes .* line 1"):
        read_dictionary(write(tmp_path, "n.txt", "my notes\nxo 5\n"))


@pytest.mark.parametrize("data, line", [
    (b"header\n---\nxo 5\nx\xc3\xa9 5\n", "line 4: character 2 is not ASCII (byte 0xc3)"),
    (b"header \xe2\x80\x94 dash\n---\nxo 5\n", "line 1: character 8 is not ASCII (byte 0xe2)"),
    (f"# lines\n{RECORD}\n".encode() + b"\xff" + OTHER[1:].encode() + b"\n", "line 3: character 1"),
])
def test_a_byte_that_is_not_ascii_is_named_by_line_and_column(tmp_path, data, line):
    with pytest.raises(DataFormatError, match=re.escape(f"d.txt {line}")):
        read_dictionary(write(tmp_path, "d.txt", data))


@pytest.mark.parametrize("ending", ["\n", "\r\n"])
def test_a_utf8_byte_order_mark_and_crlf_lines_are_taken_in_both_formats(tmp_path, ending):
    bom = "\ufeff"
    patashnik = bom + convert_text(patashnik_dictionary(), "patashnik").replace("\n", ending)
    wildcard = bom + convert_text(patashnik_dictionary(), "wildcard").replace("\n", ending)
    for name, text in (("p.dict", patashnik), ("w.txt", wildcard)):
        got = read_dictionary(write(tmp_path, name, text))
        assert sorted(e.text() for e in got) == sorted(e.text() for e in patashnik_dictionary())
    assert len(read_dictionary(write(tmp_path, "r.txt", bom + RECORD + ending))) == 2  # the BOM on a record


def test_a_file_standing_for_too_many_positions_is_refused_at_the_line_that_passes(tmp_path, monkeypatch):
    monkeypatch.setattr(dictionary_module, "MAX_POSITIONS", 5)
    path = write(tmp_path, "w.txt", "".join(line + "\n" for line in wildcard_lines(4)))
    with pytest.raises(DataFormatError, match="w.txt line 3: more than 5 positions; expected a dictionary of at most 5"):
        read_dictionary(path)
    entries = "".join(f"{e.text()}\n" for e in list(patashnik_dictionary())[:9])
    with pytest.raises(DataFormatError, match="line 7: more than 5 positions"):
        read_dictionary(write(tmp_path, "p.dict", "---\n" + entries))


@pytest.fixture(scope="module")
def big_file(tmp_path_factory):
    return big_wildcard_file(tmp_path_factory.mktemp("big") / "big.txt", 30_000)


def test_reading_stops_at_the_deadline_naming_the_line(big_file):
    import time

    with pytest.raises(QueryTimeout, match=r"the time limit came while reading it, at line 4,096 \(1\d% of the file\)"):
        read_dictionary(big_file, deadline=time.monotonic())
    seen = []
    assert len(read_dictionary(big_file, progress=lambda done, size: seen.append((done, size)))) == 60_000
    assert seen[-1][0] == seen[-1][1] == big_file.stat().st_size and len(seen) >= 7


def test_verify_dictionary_honours_its_time_limit_while_reading(big_file, capsys):
    assert main(["verify", "dictionary", str(big_file), "--time-limit", "0.001", "--json"]) == 1
    got = json.loads(capsys.readouterr().out)
    assert got["verdict"] == "incomplete" and got["stopped"] == "time limit" and got["reading"]["lines"] == 4096
    assert main(["verify", "dictionary", str(big_file), "--time-limit", "0.001"]) == 1
    assert "INCOMPLETE — the time limit came while reading it, at line 4,096; nothing verified" in \
        capsys.readouterr().out
