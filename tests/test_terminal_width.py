"""Every subcommand's help and a representative output fit an 80-column terminal without a broken word.

Each command runs in a pseudo-terminal 80 columns wide (with ``COLUMNS=80``): a
line longer than 80 would be wrapped by the terminal wherever it falls. The same
command is run with its output piped (never wrapped): where a terminal line ends
inside a word of the piped output, that word was cut in two.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios

import pytest

from qubic_logic.cli import build_parser

QUBIC = [sys.executable, "-m", "qubic_logic.cli"]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")
WIDTH = 80


def in_terminal(argv: list[str], cwd, columns: int = WIDTH) -> str:
    """The output of ``qubic argv`` in a pseudo-terminal ``columns`` wide (escape codes removed)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    env = {**os.environ, "COLUMNS": str(columns), "TERM": "xterm"}
    proc = subprocess.Popen([*QUBIC, *argv], stdin=subprocess.DEVNULL, stdout=slave, stderr=slave, cwd=cwd,
                            env=env)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    proc.wait(timeout=120)
    return ANSI.sub("", b"".join(chunks).decode("utf-8", "replace")).replace("\r\n", "\n").replace("\r", "\n")


def piped(argv: list[str], cwd) -> str:
    done = subprocess.run([*QUBIC, *argv], capture_output=True, text=True, cwd=cwd, timeout=120,
                          env={**os.environ, "COLUMNS": str(WIDTH)}, check=False)
    return done.stdout + done.stderr


def words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z]+", text))


def subcommands() -> list[list[str]]:
    """Every command and subcommand, as argument lists."""
    out = [[]]

    def walk(parser, prefix):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    out.append(prefix + [name])
                    walk(sub, prefix + [name])

    walk(build_parser(), [])
    return out


def broken_words(shown: str, whole: set[str]) -> list[str]:
    """Words of ``whole`` that ``shown`` cuts at a line end (a piece that is no word of ``whole``)."""
    lines = shown.split("\n")
    out = []
    for a, b in zip(lines, lines[1:]):
        tail, head = re.search(r"[A-Za-z]*$", a).group(), re.match(r"[A-Za-z]*", b.lstrip()).group()
        if tail and head and tail + head in whole and not (tail in whole and head in whole):
            out.append(f"{tail}/{head}")
    return out


def assert_fits(argv: list[str], cwd) -> str:
    shown = in_terminal(argv, cwd)
    # a line may be longer only if it is one word (after its indent) that no wrapping could split
    long = [line for line in shown.split("\n") if len(line) > WIDTH and " " in line.strip()]
    assert not long, f"qubic {' '.join(argv)}: lines longer than {WIDTH}: {long}"
    broken = broken_words(shown, words(piped(argv, cwd)))
    assert not broken, f"qubic {' '.join(argv)}: words cut in two: {broken}"
    return shown


@pytest.mark.parametrize("command", subcommands(), ids=lambda c: " ".join(c) or "qubic")
def test_help_fits_80_columns(command, tmp_path):
    text = assert_fits([*command, "--help"], tmp_path)
    assert "``" not in text  # plain text, not reStructuredText
    assert text.count("usage:") == 1


def test_every_option_and_positional_has_help():
    missing = []

    def walk(parser, prefix):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    walk(sub, f"{prefix} {name}")
            elif not action.help:
                missing.append(f"{prefix} {'/'.join(action.option_strings) or action.dest}")

    walk(build_parser(), "qubic")
    assert not missing


CHECKS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "rules", "checks")
POSITION = "1-2,22-52,27-4"
OUTPUTS = [  # a representative run of every subcommand (in order: later ones read what earlier ones wrote)
    ["show", POSITION], ["show", "1-17,2-18,3-19,4"], ["threats", POSITION], ["win", POSITION],
    ["win", "moves:0,1,21,52,26,3", "--notation", "hp67"], ["tree", POSITION, "--only-winning"],
    ["reply", "mcdaniel", "1-2,22-4,27-3"], ["reply", "hp67", ".231"], ["reply", "hp67", "5"],
    ["query", "--engine", "asp", POSITION, "m(X) :- x(X). #show m/1."],
    ["query", "--engine", "prolog", POSITION, "winning_move(6, M, N, _), in_plane(M, 17)"],
    ["check", os.path.join(CHECKS, "three-two-zero-files.pl")],
    ["claims", "--only", "plane-17-trap"], ["list", "strategies"], ["list", "players"],
    ["solve", "patashnik:x2x16o4o", "-o", "x.dict"], ["verify", "dictionary", "x.dict"],
    ["verify", "strategy", "player:greedy", "--jobs", "1"],
    ["book", "build", "b.sqlite", "--root", "moves:0,27,3", "--stones", "4", "--jobs", "1"],
    ["book", "stats", "b.sqlite"], ["book", "show", "b.sqlite", "moves:0,27,3"], ["book", "verify", "b.sqlite"],
    ["puzzles", "--count", "2"], ["match", "greedy", "random", "--games", "2"],
    ["learn", "brain.sqlite", "--against", "greedy", "--games", "2"], ["learn", "brain.sqlite", "--report"],
    ["play", "--x", "greedy", "--o", "hp67"],
]


@pytest.mark.slow
def test_every_command_s_output_fits_80_columns(tmp_path):
    covered = {argv[0] for argv in OUTPUTS}
    assert covered >= {c[0] for c in subcommands() if c} - {"serve"}  # serve runs until stopped: its help is tested
    for argv in OUTPUTS:
        assert_fits(argv, tmp_path)


def test_piped_output_is_not_wrapped(tmp_path):
    out = piped(["list", "players"], tmp_path)
    assert any(len(line) > WIDTH for line in out.splitlines())  # one line per player, however long
    assert all(line.split()[0] in out for line in out.splitlines())


@pytest.mark.slow
def test_book_build_progress_fits_80_columns_and_piped_is_a_few_lines(tmp_path):
    argv = ["book", "build", "b.sqlite", "--root", "moves:0,27,3", "--stones", "4", "--jobs", "1",
            "--budget", "1", "--first-round", "0.25"]
    bars = [line for line in in_terminal(argv, tmp_path).split("\n") if " ETA " in line]
    assert bars and all(len(line) <= WIDTH and "…" not in line for line in bars), bars
    assert re.fullmatch(r"round 2/2 \(1 s\) \S+ (\d+)/\1 · \d+ settled \d:\d\d:\d\d ETA 0:00:00", bars[-1].strip())
    (tmp_path / "b.sqlite").unlink()
    out = piped(argv, tmp_path)
    rounds = re.findall(r"^round (\d) of 2 \([\d.]+ s a position\): searched", out, re.M)
    assert set(rounds) == {"1", "2"} and all(rounds.count(r) <= 5 for r in "12"), out
