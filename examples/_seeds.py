"""Helpers shared by the example scripts: output folder, planar positions, pictures.

Planes are numbered 0..17 in McDaniel's Table I order (plane ``n`` of the
thesis is ``PLANES[n - 1]``); the planar cell ``k`` (1..16, four per row) of
a plane is ``PLANES[plane][k - 1]``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from qubic_logic.forcetree import ForceTree
from qubic_logic.geometry import LINE_MASKS, PLANE_MASKS, PLANES
from qubic_logic.pictures import board_svg
from qubic_logic.position import Position
from qubic_logic.render import write_atomically, write_tree


def out_dir() -> Path:
    """The folder given as the first argument, else ``out/``; created if missing."""
    path = Path(sys.argv[1] if len(sys.argv) > 1 else "out")
    path.mkdir(parents=True, exist_ok=True)
    return path


def planar_cells(plane: int, planar: list[int]) -> list[int]:
    """Cube cells (0..63) of planar cells 1..16 of ``plane`` (0..17)."""
    return [PLANES[plane][k - 1] for k in planar]


def isolated_plane_position(plane: int, x_planar: list[int]) -> Position:
    """X on ``x_planar`` of ``plane``; O's as many marks outside it, no two on one line, X to move.

    No line outside the plane can then hold two X marks or three O marks, so
    every forcing line stays in the plane: the cube behaves as the isolated
    plane the seeds analyse.
    """
    x = sum(1 << c for c in planar_cells(plane, x_planar))
    o = 0
    for cell in range(64):
        if o.bit_count() == x.bit_count():
            break
        bit = 1 << cell
        if bit & PLANE_MASKS[plane] or any(lm & bit and lm & o for lm in LINE_MASKS):
            continue
        o |= bit
    return Position(x, o)


def planar_grid(position: Position, plane: int, marks: dict[int, str] | None = None) -> str:
    """The plane as four rows of four, X/O/., with ``marks`` on chosen cells."""
    marks = marks or {}
    cells = PLANES[plane]
    rows = []
    for r in range(4):
        row = cells[4 * r: 4 * r + 4]
        rows.append(" ".join(marks.get(c, position.at(c).upper()) for c in row))
    return "\n".join(rows)


def follow(tree: ForceTree, attacker_moves: list[int]) -> tuple[int, list[int]]:
    """Play the attacker's moves down the tree, taking the forced replies.

    Returns the node reached and the whole move sequence; raises ValueError
    if a move is not in the tree (not a forcing move there).
    """
    node, played = tree.root, []
    for move in attacker_moves:
        children = {tree.edges[node, c]["move"]: c for c in tree.successors(node)}
        if move not in children:
            raise ValueError(f"{move} is not a forcing move after {played}")
        node = children[move]
        played.append(move)
        if tree.out_degree(node) == 1:  # the defender's forced block
            (block,) = tree.successors(node)
            played.append(tree.edges[node, block]["move"])
            node = block
    return node, played


def save(tree: ForceTree, position: Position, folder: Path, stem: str,
         marks: dict[int, str] | None = None, highlight: list[int] | None = None) -> list[Path]:
    """Write the tree (SVG, interactive HTML, text) and the start board (SVG); return the paths."""
    paths = [folder / f"{stem}-tree.svg", folder / f"{stem}-tree.html", folder / f"{stem}-tree.txt"]
    for path in paths:
        write_tree(tree, path)
    board = folder / f"{stem}-board.svg"
    write_atomically(board, board_svg(position, marks=marks, highlight=highlight).encode())
    return [*paths, board]
