"""Hostile outputs and inputs: devices, FIFOs, folders and symlinks as ``-o``, names over 255 bytes,
digits that are not ASCII, spaces inside a move, Patashnik runs past the board.

Each output test gives a real command a real target (a device node made here with ``mknod`` when
run as root, a FIFO, a link) and checks both the one-line refusal and that the target is unchanged.
"""

from __future__ import annotations

import os
import stat

import pytest

from qubic_logic.cli import main, one_line
from qubic_logic.errors import NotationError, QubicError
from qubic_logic.notation import parse_mcdaniel, parse_patashnik, parse_position
from qubic_logic.saving import check_writable, write_atomically

WON = "x2x16o4o"  # X to move wins quickly: solve writes a strategy of 17 positions
LONG = "n" * 300  # one file name of 300 bytes (the system allows 255)


def solve_to(path, capsys) -> tuple[int, str]:
    code = main(["solve", WON, "-o", str(path)])
    return code, capsys.readouterr().err


@pytest.mark.skipif(os.geteuid() != 0, reason="mknod of a character device needs root")
def test_a_device_node_given_as_output_is_refused_and_stays_a_device(tmp_path, capsys):
    node = tmp_path / "mynull"
    os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # the same device as /dev/null
    code, err = solve_to(node, capsys)
    assert code == 2 and err.count("\n") == 1
    assert f"cannot write {node}: it is a device (character special file)" in err
    assert stat.S_ISCHR(os.stat(node).st_mode) and os.stat(node).st_rdev == os.makedev(1, 3)


def test_dev_null_is_refused_before_any_work(capsys):
    code, err = solve_to("/dev/null", capsys)
    assert code == 2 and "/dev/null: it is a device" in err
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_fifo_given_as_output_is_refused_and_stays_a_fifo(tmp_path, capsys):
    fifo = tmp_path / "myfifo"
    os.mkfifo(fifo)
    code, err = solve_to(fifo, capsys)
    assert code == 2 and err.count("\n") == 1 and "it is a FIFO (named pipe)" in err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    with pytest.raises(QubicError, match="FIFO"):  # the writer itself refuses it too
        write_atomically(fifo, "x")


def test_a_folder_given_as_output_is_refused(tmp_path, capsys):
    code, err = solve_to(tmp_path, capsys)
    assert code == 2 and "it is a folder" in err


def test_a_symlink_is_written_through_to_its_target(tmp_path, capsys):
    target, link = tmp_path / "target.dict", tmp_path / "mylink"
    target.write_text("old\n")
    link.symlink_to("target.dict")
    code, _ = solve_to(link, capsys)
    assert code == 0
    assert link.is_symlink() and os.readlink(link) == "target.dict"  # still the same link
    text = target.read_text()
    assert text.startswith("Winning strategy found by qubic solve") and "root: x2x16o4o" in text
    assert main(["verify", "dictionary", str(link)]) == 0  # what went through the link is the strategy


def test_a_dangling_symlink_creates_its_target(tmp_path):
    (tmp_path / "sub").mkdir()
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "sub" / "new.txt")
    write_atomically(link, "hello\n")
    assert link.is_symlink() and (tmp_path / "sub" / "new.txt").read_text() == "hello\n"


def test_a_symlink_to_a_device_is_refused_naming_both(tmp_path, capsys):
    link = tmp_path / "tonull"
    link.symlink_to("/dev/null")
    code, err = solve_to(link, capsys)
    assert code == 2 and f"{link} (-> /dev/null): it is a device" in err


@pytest.mark.parametrize("argv", [
    ["solve", WON, "-o", LONG],
    ["verify", "dictionary", LONG],
    ["verify", "certificate", LONG, "--check-with", "referee"],
    ["verify", "strategy", LONG + ".pl"],
    ["book", "stats", LONG],
    ["learn", LONG, "--report"],
    ["match", "random", "greedy", "--save", LONG],
    ["tree", WON, "-o", LONG + ".svg"],
    ["play", "--load", LONG],
])
def test_a_name_over_255_bytes_is_one_cut_line(argv, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "internal error" not in err and "Traceback" not in err
    assert LONG not in err and "characters)" in err  # the name is cut


def test_check_writable_and_long_paths_are_cut():
    with pytest.raises(QubicError) as caught:
        check_writable("/" + "d" * 5000 + "/x.dict")
    assert len(str(caught.value)) < 300


def test_a_huge_word_in_an_error_is_cut():
    witness = ",".join(str(i % 64) for i in range(20000))
    line = one_line(f"bad witness {witness}\n  second line")
    assert "\n" not in line and len(line) < 250 and line.endswith("second line")


@pytest.mark.parametrize("text", ["١-٢,٢٢", "moves:١,٢", "x١٤o", "١٢"])
def test_unicode_digits_are_not_cells(text):
    with pytest.raises(NotationError):
        parse_position(text)


def test_a_space_inside_a_mcdaniel_move_is_refused():
    assert parse_mcdaniel("1-2, 22 - 52") == [0, 1, 21, 51]
    with pytest.raises(NotationError, match="is not a McDaniel move list"):
        parse_mcdaniel("1-2 3")
    assert parse_position("1-23") != parse_position("1-2,3")


def test_a_patashnik_run_past_cell_63_is_refused():
    assert parse_patashnik("x63").count == 1
    for text in ("x99", "x64", "63x1"):
        with pytest.raises(NotationError, match="runs past cell 63"):
            parse_patashnik(text)
