"""The examples reproducing the seeds' forcing examples run and write their pictures."""
from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from qubic_logic.render.html import external_references

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run_example(name: str, out: Path) -> str:
    done = subprocess.run([sys.executable, str(EXAMPLES / name), str(out)], capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def check_pictures(out: Path, stem: str) -> None:
    for suffix in ("tree.svg", "board.svg"):
        ET.parse(out / f"{stem}-{suffix}")
    page = (out / f"{stem}-tree.html").read_text()
    assert external_references(page) == [] and 'id="explorer"' in page
    data = json.loads(page.split('<script id="data" type="application/json">', 1)[1].split("</script>", 1)[0])
    assert data["nodes"] and data["edges"]  # the explorer draws the tree from the data it carries
    assert (out / f"{stem}-tree.txt").read_text().startswith("X to move: wins in")


def test_mcdaniel_plane17(tmp_path):
    text = run_example("mcdaniel_plane17.py", tmp_path)
    assert "the referee accepts it as a forced win of 6 X moves" in text
    assert "-> the same" in text  # Fig. 10 redrawn from the seed's line
    assert "differ: seed only 54" in text  # the project finds a forced win after O 54
    check_pictures(tmp_path, "mcdaniel-plane17")
    check_pictures(tmp_path, "mcdaniel-plane17-full")


def test_loudon_trap(tmp_path):
    text = run_example("loudon_trap.py", tmp_path)
    assert "shortest forced win in 3 X moves" in text and "-> agrees" in text
    assert "-> the same" in text
    check_pictures(tmp_path, "loudon-trap")


def test_citrenbaum_planar(tmp_path):
    text = run_example("citrenbaum_planar.py", tmp_path)
    assert text.count("reconstructed planes: 1 ") == 4
    assert text.count("the seed's moves are a forced win here") == 2
    for stem in ("example-1", "example-2", "example-3", "example-4"):
        check_pictures(tmp_path, f"citrenbaum-{stem}")


def test_examples_default_to_out_dir(tmp_path):
    done = subprocess.run([sys.executable, str(EXAMPLES / "loudon_trap.py")], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert any((tmp_path / "out").glob("*-tree.svg"))
