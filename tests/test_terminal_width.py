"""Every subcommand's help and a representative output fit an 80-column terminal without a broken word.

Each command runs in a pseudo-terminal 80 columns wide (with ``COLUMNS=80``): a
line longer than 80 would be wrapped by the terminal wherever it falls. The same
command is run with its output piped: piped lines are never wrapped, and every
word of the terminal's output must be a word of the piped output (a word cut in
two would not be).
"""

from __future__ import annotations

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
    return {w for w in re.findall(r"[A-Za-z]{3,}", text)}


def subcommands() -> list[list[str]]:
    """Every command and subcommand, as argument lists."""
    out = [[]]

    def walk(parser, prefix):
        for action in parser._actions:
            if action.__class__.__name__ == "_SubParsersAction":
                for name, sub in action.choices.items():
                    out.append(prefix + [name])
                    walk(sub, prefix + [name])

    walk(build_parser(), [])
    return out


def assert_fits(argv: list[str], cwd) -> str:
    shown = in_terminal(argv, cwd)
    long = [line for line in shown.split("\n") if len(line) > WIDTH]
    assert not long, f"qubic {' '.join(argv)}: lines longer than {WIDTH}: {long}"
    broken = words(shown) - words(piped(argv, cwd))
    assert not broken, f"qubic {' '.join(argv)}: words cut in two: {sorted(broken)}"
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
            if action.__class__.__name__ == "_SubParsersAction":
                for name, sub in action.choices.items():
                    walk(sub, f"{prefix} {name}")
            elif not action.help:
                missing.append(f"{prefix} {'/'.join(action.option_strings) or action.dest}")

    walk(build_parser(), "qubic")
    assert not missing
