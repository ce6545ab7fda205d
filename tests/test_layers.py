"""The package keeps its layers: the import-linter contracts in pyproject.toml hold, and docs/design.md §4
draws the same layers."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_imports_keep_the_contracts():
    """An upward import (a core module importing a service, the verifier importing the solver) fails here,
    with lint-imports' own line naming the importer, the imported module and the line."""
    run = subprocess.run([str(Path(sys.executable).with_name("lint-imports")), "--no-cache"], cwd=ROOT,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "3 kept, 0 broken" in run.stdout


def test_design_draws_the_layers_of_the_contract():
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    layers = next(c for c in contracts if c["type"] == "layers")["layers"]
    design = (ROOT / "docs" / "design.md").read_text()
    blocks = design.split("## 4. Architecture")[1].split("## 5.")[0].split("```")[1::2]
    drawing = next(block for block in blocks if block.strip().startswith("faces"))
    drawn: list[str] = []
    for line in drawing.strip().splitlines():  # a layer's name in the first 18 columns, then its modules
        if line[:18].strip():
            drawn.append("")
        drawn[-1] += " " + line[18:]
    assert [" ".join(layer.split()) for layer in layers] == [" ".join(row.split()) for row in drawn]


def test_no_module_imports_one_that_imports_it_back_but_the_two_notebook_conveniences():
    """docs/design.md §4: the only import cycles are ``Position.__str__`` drawing with ``notation.diagram``
    and ``ForceTree._repr_svg_`` drawing with ``render.dot`` (late imports, one method each)."""
    import grimp
    import networkx as nx

    graph = grimp.build_graph("qubic_logic", cache_dir=None)
    imports = nx.DiGraph((m, i) for m in graph.modules for i in graph.find_modules_directly_imported_by(m))
    cycles = sorted(sorted(c) for c in nx.strongly_connected_components(imports) if len(c) > 1)
    assert cycles == [["qubic_logic.forcetree", "qubic_logic.render.dot", "qubic_logic.render.view"],
                      ["qubic_logic.notation", "qubic_logic.pictures", "qubic_logic.position"]]
