"""What a command imports: ``qubic --help``, ``--version`` and a quick question start without the
heavy libraries, and each command imports its own module only (its speed: ``python -m
qubic_logic.bench startup``)."""

from __future__ import annotations

import json
import os
import pkgutil
import subprocess
import sys

import pytest

from qubic_logic import cli
from qubic_logic.bench.server import verify_example
from qubic_logic.cli import COMMANDS

HEAVY = {"scipy", "dask", "distributed", "fastapi", "uvicorn", "clingo", "pyswip", "networkx", "choix",
         "matplotlib"}
NEEDS = {"tree": {"networkx"}}  # a command whose very work is one of them may import it to build its parser

# The command run as the user runs it; at exit, the modules it imported are written to a file.
PROBE = """
import atexit, json, os, sys

def imported():
    with open(os.environ["QUBIC_MODULES"], "w") as f:
        json.dump(sorted(sys.modules), f)

atexit.register(imported)
from qubic_logic.cli import main
sys.exit(main(sys.argv[1:]))
"""


def modules_of(tmp_path, *argv: str) -> tuple[set[str], subprocess.CompletedProcess]:
    """The modules ``qubic ARGV`` imported (every name, dotted), and how it ended."""
    listing = tmp_path / "modules.json"
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True,
                          env={**os.environ, "QUBIC_MODULES": str(listing)})
    return set(json.loads(listing.read_text())), done


def tops(modules: set[str]) -> set[str]:
    return {m.split(".")[0] for m in modules}


def test_the_commands_table_names_every_subcommand_module():
    found = {m.name for m in pkgutil.iter_modules(cli.__path__) if not m.name.startswith("_")}
    assert sorted(COMMANDS) == sorted(found)


@pytest.mark.parametrize("argv", [["--help"], ["--version"], []], ids=["--help", "--version", "bare"])
def test_help_and_version_import_no_heavy_library_and_no_subcommand(argv, tmp_path):
    modules, done = modules_of(tmp_path, *argv)
    assert (done.stdout + done.stderr).count("qubic") >= 1
    assert not tops(modules) & HEAVY
    assert not {m for m in modules if m.startswith("qubic_logic.cli.") and not m.startswith("qubic_logic.cli._")}
    if argv == ["--help"]:
        assert all(name in done.stdout for name in COMMANDS)  # every command listed, none imported


def test_a_quick_question_imports_no_heavy_library(tmp_path):
    modules, done = modules_of(tmp_path, "win", "1-2,22-52,27-4")
    assert done.returncode == 0 and done.stdout.startswith("X wins in 6 moves: 17 32 43 64")
    assert not tops(modules) & HEAVY, sorted(tops(modules) & HEAVY)
    subcommands = {m.rsplit(".", 1)[1] for m in modules if m.startswith("qubic_logic.cli.")}
    assert {s for s in subcommands if not s.startswith("_")} == {"win"}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_commands_help_imports_only_what_it_needs(name, tmp_path):
    modules, done = modules_of(tmp_path, name, "--help")
    assert done.returncode == 0 and done.stdout.startswith(f"usage: qubic {name}")
    assert not tops(modules) & (HEAVY - NEEDS.get(name, set())), sorted(tops(modules) & HEAVY)
    subcommands = {m.rsplit(".", 1)[1] for m in modules if m.startswith("qubic_logic.cli.")}
    assert {s for s in subcommands if not s.startswith("_")} == {name}


def test_a_match_imports_the_ratings_statistics_only_for_a_round_robin(tmp_path):
    modules, done = modules_of(tmp_path, "match", "random", "greedy", "--games", "2")
    assert done.returncode == 0 and "random v greedy: 2 games" in done.stdout
    assert not tops(modules) & {"scipy", "choix", "numpy"}


def test_verifying_a_dictionary_imports_no_rule_engine(tmp_path):
    example = tmp_path / "example.txt"
    example.write_text(verify_example())
    modules, done = modules_of(tmp_path, "verify", "dictionary", str(example))
    assert done.returncode == 0 and "VERIFIED" in done.stdout
    assert not tops(modules) & HEAVY, sorted(tops(modules) & HEAVY)
