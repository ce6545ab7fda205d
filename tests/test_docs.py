"""The documentation: the site builds in strict mode, and the README's and the guide's commands run.

- The site (MkDocs, mkdocstrings) builds with ``--strict``: a broken link, anchor or API
  reference fails it.
- The README's tour runs line by line from an empty temporary folder with the installed ``qubic``:
  every command exits 0 and prints something.
- The guide's marked examples (a ``<!-- example: NAME -->`` line before a ``console`` block) run in
  a shell from an empty folder, and each command prints what the page shows: ``...`` stands for
  any text, decimal figures (times) may differ. docs/predicates.md and docs/strategies.md have
  tests of their own that also check the answers against the core.
- The README stays short, and no text speaks of how the project was built.
"""

from __future__ import annotations

import doctest
import importlib.util
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from .docpages import console_examples

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
DOCS = ROOT / "docs"
OWN_TESTS = {"predicates.md", "strategies.md"}  # their examples run in test_predicates_doc / test_strategies_doc


def _env() -> dict[str, str]:
    return {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", "COLUMNS": "80",
            "NO_MKDOCS_2_WARNING": "1"}


# -- the site ---------------------------------------------------------------------------------


def test_site_builds_in_strict_mode_with_the_api_reference(tmp_path):
    site = tmp_path / "site"
    done = subprocess.run([str(BIN / "mkdocs"), "build", "--strict", "--quiet", "--config-file",
                           str(ROOT / "mkdocs.yml"), "--site-dir", str(site)],
                          capture_output=True, text=True, env=_env(), timeout=600)
    assert done.returncode == 0, done.stderr
    api = (site / "api" / "position" / "index.html").read_text()
    assert "parse_position" in api and "Position" in api
    assert '<span class="gp">&gt;&gt;&gt; </span>' in api and "<blockquote>" not in api  # examples as code
    design = (site / "design" / "index.html").read_text()
    assert 'id="3-forced-win-by-threat-sequence-the-exact-semantics"' in design
    for page in ("notation", "forced-wins", "engines", "force-graphs", "verifying", "solving", "book",
                 "playing", "seeds", "browser", "reliability", "results"):
        assert (site / page / "index.html").is_file(), page


def _griffe_extension():
    spec = importlib.util.spec_from_file_location("griffe_doctests", DOCS / "griffe_doctests.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_api_reference_fences_doctests_and_turns_rst_into_markdown():
    module = _griffe_extension()
    assert doctest.testmod(module).failed == 0
    text = module.markdown_docstring("Use :func:`~qubic_logic.core.threats`.\n\n    >>> 1\n    1\n\nDone.")
    assert text == "Use `qubic_logic.core.threats`.\n\n    ```pycon\n    >>> 1\n    1\n    ```\n\nDone."


# -- the README -------------------------------------------------------------------------------


def tour_commands() -> list[str]:
    """The ``qubic`` lines of the README's tour, comments dropped.

    >>> all(c.startswith("qubic ") for c in tour_commands()) and len(tour_commands()) >= 10
    True
    """
    text = (ROOT / "README.md").read_text()
    section = text.split("## A short tour", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.DOTALL).group(1)
    return [shlex.join(shlex.split(line, comments=True)) for line in block.splitlines() if line.strip()]


#: Tour commands that take more than a few seconds: they run with the slow tests.
LONG = ("qubic verify dictionary",)


@pytest.fixture(scope="module")
def tour_folder(tmp_path_factory):
    """One empty folder for the whole tour: a later command may read what an earlier one wrote."""
    return tmp_path_factory.mktemp("tour")


@pytest.mark.parametrize("command", [
    pytest.param(c, marks=pytest.mark.slow) if c.startswith(LONG) else c for c in tour_commands()])
def test_readme_tour_runs_from_any_folder(command, tour_folder):
    argv = shlex.split(command)
    done = subprocess.run([str(BIN / "qubic"), *argv[1:]], cwd=tour_folder, capture_output=True,
                          text=True, env=_env(), timeout=600)
    refuted = argv[1] == "verify" and "REFUTED" in done.stdout  # a verdict, exit status 1 by design
    assert done.returncode == (1 if refuted else 0), f"{command}: {done.stderr}"
    assert (done.stdout + done.stderr).strip(), command
    assert not list(tour_folder.glob("*.tmp*")), "no temporary file left behind"


def test_readme_is_short():
    assert len((ROOT / "README.md").read_text().splitlines()) <= 300


def test_readme_names_the_five_documents_and_credits_patashnik():
    text = (ROOT / "README.md").read_text()
    for seed in ("Citrenbaum (1965)", "Doake (1972)", "McDaniel (1975)", "McCarthy (1979)", "HP-67"):
        assert seed in text, seed
    assert "Patashnik" in text and "qubic_logic/data/README.md" in text
    assert "make demo" in text.split("## A short tour")[0] and "make test" in text.split("## A short tour")[0]


def test_readme_links_resolve_inside_the_repository():
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", (ROOT / "README.md").read_text())
    local = [link for link in links if not re.match(r"\w+://", link)]
    assert len(local) >= 10
    for link in local:
        assert (ROOT / link).is_file(), link


# -- the guide's examples ---------------------------------------------------------------------


def guide_examples() -> list[tuple[str, list[tuple[str, str]]]]:
    return [(f"{page.name}:{name}", runs) for page in sorted(DOCS.glob("*.md")) if page.name not in OWN_TESTS
            for name, runs in console_examples(page.read_text()).items()]


DECIMAL = re.compile(r"\d+\.\d+")


def shows(expected: str, printed: str) -> bool:
    """Whether ``printed`` is what a page shows: ``...`` is any text, decimal figures may differ.

    >>> shows("done [0.04 s]\\n", "done [1.25 s]\\n"), shows("cell ... is taken\\n", "cell 2 is taken\\n")
    (True, True)
    >>> shows("X wins\\n", "O wins\\n")
    False
    """
    checker = doctest.OutputChecker()
    return checker.check_output(DECIMAL.sub("0.0", expected), DECIMAL.sub("0.0", printed), doctest.ELLIPSIS)


@pytest.mark.parametrize("name, runs", guide_examples(), ids=[n for n, _ in guide_examples()])
def test_guide_example_prints_what_the_page_shows(name, runs, tmp_path):
    for command, expected in runs:
        done = subprocess.run(["bash", "-c", command], cwd=tmp_path, capture_output=True, text=True,
                              env=_env(), timeout=300)
        printed = done.stdout + done.stderr
        assert done.returncode == (2 if "error:" in expected else 0), f"{command}: {printed}"
        assert shows(expected, printed), f"{command}\nthe page shows:\n{expected}\nprinted:\n{printed}"


def test_the_guide_has_runnable_examples():
    assert {name.split(":")[0] for name, _ in guide_examples()} >= {"index.md", "notation.md", "reliability.md"}


# -- words ------------------------------------------------------------------------------------

# Built from parts, so that this file does not match its own pattern.
HISTORY = re.compile("|".join([r"[Ss]top [0-9]+", r"[Ii]ssue [0-9]+", "this" + " session", "DESIGN" + r"\.md"]))
TEXT_FILES = ("*.py", "*.md", "*.js", "*.html", "*.lp", "*.pl", "*.c", "*.h", "*.toml", "*.txt", "*.yml", "Makefile")
SKIP = {".venv", "site", "build", ".git", "node_modules"}


def test_no_text_speaks_of_how_the_project_was_built():
    found = []
    for pattern in TEXT_FILES:
        for path in ROOT.rglob(pattern):
            if SKIP.intersection(path.relative_to(ROOT).parts) or not path.is_file():
                continue
            for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                if HISTORY.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)


PROOF = re.compile(r"Patashnik[^.;]*\bprov(ed|es|ing)\b[^.;]*|Patashnik's proof[^.;]*|[Ii]n (19\d\d),? (Oren )?Patashnik "
                   r"(proved|showed)[^.;]*")


def test_patashnik_s_proof_is_dated_alike_everywhere():
    """His proof was computed in 1977 and published in Mathematics Magazine in 1980: every page, doc and
    lesson that dates it says so (1977 for the proof; 1980 only for its publication)."""
    texts = [ROOT / "README.md", *DOCS.glob("*.md"), *(ROOT / "qubic_logic" / "server" / "static").glob("*.html"),
             *(ROOT / "qubic_logic" / "data" / "lessons").glob("*.json"), *(ROOT / "qubic_logic").rglob("*.py")]
    dated = []
    for path in texts:
        for match in PROOF.finditer(" ".join(path.read_text().split())):
            said = match.group(0)
            if re.search(r"19\d\d", said):
                dated.append(said)
                assert "1977" in said, f"{path.name}: {said!r} dates the proof without 1977"
                assert "1980" not in said or re.search(r"publish|Mathematics Magazine", said), \
                    f"{path.name}: {said!r} gives 1980 as the proof's date, not its publication's"
    assert len(dated) >= 3, dated  # the README, the home page and the lesson at least
