"""Force trees: every forcing line of the side to move, as a networkx graph (docs/design.md §3).

:func:`force_tree` grows the tree of threat sequences from a position. Node 0
is the root; each node carries its position and what it means in the game:

========== ===============================================================
attribute  meaning
========== ===============================================================
position   the :class:`~qubic_logic.position.Position` at this node
role       ``'attacker'`` (an OR node: the attacker picks one child),
           ``'defender'`` (the defender must answer) or ``'end'`` (won)
to_move    ``'x'`` or ``'o'``
move       the cell played to reach the node (None at the root)
depth      attacker moves played from the root to here
x_threats  threat cells of X (tuple of cells); ``o_threats`` likewise
status     ``'win'`` (a forced win follows), ``'fail'`` (none follows) or
           ``'cut'`` (unknown: cut off by the bound, node cap or time limit)
length     attacker moves still needed to win from here (``'win'`` only);
           at an attacker node it is the minimal one
reason     why a ``'fail'`` or ``'cut'`` node stops (one phrase)
========== ===============================================================

Edges carry ``move`` (the cell) and ``kind``, one of :data:`EDGE_KINDS`; an
edge of a folded graph (:func:`qubic_logic.forcegraph.fold_forced`) also
carries ``reply``, the defender's forced answer (:func:`edge_moves` gives both).
A defender node has one child after a single threat and one per threat cell
after a double threat (every block loses).

>>> from qubic_logic.notation import parse_position
>>> tree = force_tree(parse_position('moves:0,48,1,49,6,60'), engine='python')
>>> tree.number_of_nodes(), tree.length, tree.winning_first_moves()
(93, 6, [3])
>>> sorted({kind for *_, kind in tree.edges(data='kind')})
['block', 'complete', 'counter', 'double', 'forcing']
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import networkx as nx

from .core import Threats
from .core import threats as core_threats
from .engines import Engine, get_engine
from .errors import IllegalPositionError, QueryTimeout
from .geometry import cells_of
from .notation import CellNames
from .position import Position, Side, other
from .wording import counted

EDGE_KINDS: dict[str, str] = {
    "forcing": "forcing move: the attacker makes one threat",
    "double": "double threat: the attacker makes two or more threats at once",
    "counter": "counter-threat block: the attacker must block the defender's threat",
    "block": "forced block: the defender fills the attacker's threat cell",
    "complete": "completing move: the attacker makes four in a row",
}

ProgressCallback = Callable[[int], None]
UNFINISHED = "not expanded"
STOPPED = {"max_nodes": "node cap reached", "time_limit": "time limit reached", "interrupted": "interrupted"}
"""Why growth stopped early (``tree.graph['truncated']``), in words."""
PROGRESS_EVERY = 250


def edge_moves(edge: dict) -> tuple[int, ...]:
    """The cells an edge plays: its move, and the forced reply on a folded edge.

    >>> edge_moves({'move': 16, 'kind': 'forcing', 'reply': 17}), edge_moves({'move': 3, 'kind': 'complete'})
    ((16, 17), (3,))
    """
    reply = edge.get("reply")
    return (edge["move"],) if reply is None else (edge["move"], reply)


class ForceTree(nx.DiGraph):
    """A force tree: a :class:`networkx.DiGraph` with game-level helpers.

    Graph attributes: ``attacker``, ``engine``, ``max_length``, ``max_nodes``,
    ``only_winning``, ``truncated`` (None or what stopped the growth:
    ``'max_nodes'`` or ``'time_limit'``). In a notebook the tree draws itself
    (``_repr_svg_``, needs Graphviz).
    """

    root = 0

    @property
    def attacker(self) -> Side:
        """The side to move at the root."""
        return self.graph["attacker"]

    @property
    def length(self) -> int | None:
        """Minimal length of a forced win from the root (None: none found)."""
        return self.nodes[self.root]["length"]

    def winning_first_moves(self) -> list[int]:
        """Root moves that start a forced win, ascending."""
        return sorted(
            self.edges[self.root, n]["move"]
            for n in self.successors(self.root)
            if self.nodes[n]["status"] == "win"
        )

    def winning_paths(self, minimal_only: bool = False) -> Iterator[tuple[int, ...]]:
        """Move sequences from the root to every won end node (``minimal_only``: shortest wins).

        Each is a forced win the referee accepts (:func:`~qubic_logic.referee.replay_forced_win`).
        """
        best = self.length
        stack: list[tuple[int, tuple[int, ...]]] = [(self.root, ())]
        while stack:
            node, moves = stack.pop()
            data = self.nodes[node]
            if data["status"] != "win":
                continue
            if data["role"] == "end":
                if not minimal_only or data["depth"] == best:
                    yield moves
                continue
            for child in sorted(self.successors(node), reverse=True):
                stack.append((child, moves + edge_moves(self.edges[node, child])))

    def path_to(self, node: int) -> tuple[int, ...]:
        """The moves from the root to ``node``."""
        steps: list[tuple[int, ...]] = []
        while node != self.root:
            (parent,) = self.predecessors(node)
            steps.append(edge_moves(self.edges[parent, node]))
            node = parent
        return tuple(c for step in reversed(steps) for c in step)

    def summary(self, names: CellNames = CellNames()) -> str:
        """One line: nodes, winning first moves (written by ``names``) and minimal length.

        >>> from qubic_logic.notation import parse_position
        >>> force_tree(parse_position('moves:0,16,1,17,2,18'), engine='python').summary()
        'X to move: 2 nodes; wins in 1 (winning first moves: 3)'
        """
        side = self.attacker.upper()
        head = f"{side} to move: {counted(self.number_of_nodes(), 'node')}"
        if "folded_from" in self.graph:
            head = (f"{side} to move: {counted(self.graph['folded_from'], 'node')}, "
                    f"{self.number_of_nodes():,} with forced replies folded")
        if self.graph.get("truncated"):
            head += f" (incomplete: {STOPPED[self.graph['truncated']]})"
        if self.length is None:
            status = self.nodes[self.root]["status"]
            bound = self.graph.get("max_length")
            if status == "cut":
                return f"{head}; no forced win found" + (f" within {bound} moves" if bound else "")
            return f"{head}; no forced win by threat sequence"
        firsts = names.cells(self.winning_first_moves())
        return f"{head}; wins in {self.length} (winning first moves: {firsts})"

    def _repr_svg_(self) -> str:  # notebooks
        from .render.dot import tree_svg

        return tree_svg(self)


@dataclass
class _Limits:
    max_length: int | None
    max_nodes: int
    deadline: float | None
    progress: ProgressCallback | None
    hit: str | None = None


class _Builder:
    """Grows a :class:`ForceTree` depth-first, following docs/design.md §3 step by step."""

    def __init__(self, tree: ForceTree, engine: Engine, limits: _Limits, only_winning: bool) -> None:
        self.tree = tree
        self.engine = engine
        self.known: dict[Position, Threats] = {}
        self.limits = limits
        self.only_winning = only_winning
        self.attacker: Side = tree.graph["attacker"]

    # -- nodes -------------------------------------------------------------

    def threats(self, position: Position) -> Threats:
        """The engine's threats of ``position`` (asked once per position)."""
        if position not in self.known:  # a finished game's threat cells are only drawn: the core's do
            self.known[position] = core_threats(position) if position.is_over else self.engine.threats(position)
        return self.known[position]

    def add(self, position: Position, role: str, depth: int, parent: int | None = None,
            move: int | None = None, kind: str | None = None) -> int:
        node = self.tree.number_of_nodes()
        t = self.threats(position)
        self.tree.add_node(node, position=position, role=role, to_move=position.to_move, move=move,
                           depth=depth, x_threats=tuple(cells_of(t.x)), o_threats=tuple(cells_of(t.o)),
                           status="cut", length=None, reason=UNFINISHED)
        if parent is not None:
            self.tree.add_edge(parent, node, move=move, kind=kind)
        if self.limits.progress and node % PROGRESS_EVERY == 0:
            self.limits.progress(node)
        return node

    def stop(self, node: int, status: str, reason: str, length: int | None = None) -> None:
        self.tree.nodes[node].update(status=status, reason=reason, length=length)

    def out_of_budget(self) -> bool:
        """True (and remembered) once the node cap or the time limit is reached."""
        lim = self.limits
        if lim.hit is None:
            if self.tree.number_of_nodes() >= lim.max_nodes:
                lim.hit = "max_nodes"
            elif lim.deadline is not None and time.monotonic() > lim.deadline:
                lim.hit = "time_limit"
        return lim.hit is not None

    # -- §3 -----------------------------------------------------------------

    def attacker_node(self, node: int) -> None:
        """Expand an attacker node (an OR node) and set its status and minimal length."""
        data = self.tree.nodes[node]
        p: Position = data["position"]
        t = self.threats(p)
        mine, theirs = cells_of(t.of(self.attacker)), cells_of(t.of(other(self.attacker)))
        budget = None if self.limits.max_length is None else self.limits.max_length - data["depth"]
        if mine:  # step 1: the attacker completes four
            if budget is not None and budget < 1:
                return self.stop(node, "cut", "bound reached")
            end = self.add(p.play(mine[0]), "end", data["depth"] + 1, node, mine[0], "complete")
            self.stop(end, "win", "four in a row", 0)
            return self.stop(node, "win", "", 1)
        if len(theirs) >= 2:  # step 2: two defender threats cannot both be blocked
            return self.stop(node, "fail", "defender has two threats")
        if theirs:
            moves, kind = theirs, "counter"
        else:  # step 3: any forcing move
            moves, kind = cells_of(t.forcing_x if self.attacker == "x" else t.forcing_o), "forcing"
        if not moves:
            return self.stop(node, "fail", "no forcing move")
        if budget is not None and budget < 2:
            return self.stop(node, "cut", "bound reached")
        if node != self.tree.root and self.out_of_budget():
            return self.stop(node, "cut", self.cut_reason())
        known: int | None = None
        if self.only_winning:  # the engine says which moves win and how fast; shortest first
            lengths = {m: self.length_after(p, m, budget) for m in moves}
            moves = sorted((m for m in moves if lengths[m] is not None), key=lambda m: (lengths[m], m))
            if not moves:
                if self.limits.hit or budget is not None:
                    return self.stop(node, "cut", self.cut_reason() if self.limits.hit
                                     else "no win within the bound")
                return self.stop(node, "fail", "no forcing move wins")
            known = lengths[moves[0]]
        best: int | None = None
        cut = False
        for move in moves:
            if self.out_of_budget():
                cut = True
                break
            child = self.attacker_move(node, p, move, kind)
            status, length = self.tree.nodes[child]["status"], self.tree.nodes[child]["length"]
            if status == "win":
                best = length + 1 if best is None else min(best, length + 1)
            cut |= status == "cut"
        if known is not None or best is not None:
            return self.stop(node, "win", "", known or best)
        if cut:
            return self.stop(node, "cut", self.cut_reason())
        self.stop(node, "fail", "every forcing move fails")

    def attacker_move(self, node: int, p: Position, move: int, kind: str) -> int:
        """Play ``move`` for the attacker (step 4) and expand the defender node it reaches."""
        depth = self.tree.nodes[node]["depth"] + 1
        after = p.play(move)
        made = cells_of(self.threats(after).of(self.attacker))
        if len(made) >= 2 and kind == "forcing":
            kind = "double"
        child = self.add(after, "defender", depth, node, move, kind)
        if not made:
            self.stop(child, "fail", "the move makes no threat")
        elif len(made) >= 2:  # every block leaves a completing move
            for block in made:
                reply = self.add(after.play(block), "attacker", depth, child, block, "block")
                self.attacker_node(reply)
            self.stop(child, "win", "", 1)
        else:
            reply = self.add(after.play(made[0]), "attacker", depth, child, made[0], "block")
            self.attacker_node(reply)
            r = self.tree.nodes[reply]
            self.stop(child, r["status"], r["reason"], r["length"])
        return child

    def length_after(self, p: Position, move: int, budget: int | None) -> int | None:
        """Attacker moves of the shortest win starting with ``move`` within ``budget`` (asks the engine).

        None when there is none, or when the time limit ran out while asking.
        """
        after = p.play(move)
        made = cells_of(self.threats(after).of(self.attacker))
        if len(made) != 1:
            return 2 if len(made) >= 2 else None
        bound = None if budget is None else budget - 1
        if bound is not None and bound < 2:
            return None
        remaining = None
        if self.limits.deadline is not None:
            remaining = max(self.limits.deadline - time.monotonic(), 0.001)
        try:
            win = self.engine.shortest_forced_win(after.play(made[0]), bound, remaining)
        except QueryTimeout:
            self.limits.hit = "time_limit"
            return None
        return None if win.length is None else win.length + 1

    def cut_reason(self) -> str:
        hit = self.limits.hit
        return STOPPED.get(hit or "", "bound reached")


def force_tree(
    position: Position,
    engine: str | Engine = "auto",
    max_length: int | None = None,
    max_nodes: int = 5000,
    only_winning: bool = False,
    time_limit: float | None = None,
    progress: ProgressCallback | None = None,
) -> ForceTree:
    """The force tree of the side to move in ``position`` (docs/design.md §3).

    ``engine`` is an engine name (see :func:`qubic_logic.engines.get_engine`)
    or an engine; it answers the threats at every node (and, with
    ``only_winning``, which moves win), so each engine grows the same tree.

    ``max_length`` bounds the attacker's moves to win (None: no bound);
    growth stops at ``max_nodes`` nodes or after ``time_limit`` seconds, and
    then ``tree.graph['truncated']`` says which (nodes not expanded are
    ``'cut'``). ``only_winning`` keeps only attacker moves that start a forced
    win (asking the engine for each). ``progress(nodes)`` is called every
    :data:`PROGRESS_EVERY` nodes.

    >>> from qubic_logic.notation import parse_position
    >>> t = force_tree(parse_position('1-2,22-52,27-4'), engine='python', only_winning=True)
    >>> t.length, t.summary().split(';')[1]
    (6, ' wins in 6 (winning first moves: 16 31 42 63)')
    """
    if position.is_over:
        raise IllegalPositionError("the game is over; a force tree needs a position with a side to move")
    if max_length is not None and max_length < 1:
        raise ValueError(f"max_length {max_length} must be at least 1 (or None for no bound)")
    if max_nodes < 1:
        raise ValueError(f"max_nodes {max_nodes} must be at least 1")
    if isinstance(engine, str):
        engine = get_engine(engine)
    tree = ForceTree(attacker=position.to_move, engine=engine.name, max_length=max_length,
                     max_nodes=max_nodes, only_winning=only_winning, truncated=None)
    deadline = time.monotonic() + time_limit if time_limit else None
    limits = _Limits(max_length, max_nodes, deadline, progress)
    builder = _Builder(tree, engine, limits, only_winning)
    try:
        builder.attacker_node(builder.add(position, "attacker", 0))
    except KeyboardInterrupt:  # keep what was grown; settle the nodes left half-done
        limits.hit = "interrupted"
        _settle(tree, tree.root)
    tree.graph["truncated"] = limits.hit
    return tree


def _settle(tree: ForceTree, node: int) -> None:
    """Give the unfinished nodes below ``node`` the status their finished children prove."""
    d = tree.nodes[node]
    if d["reason"] != UNFINISHED:
        return
    children = list(tree.successors(node))
    for child in children:
        _settle(tree, child)
    done = [tree.nodes[c] for c in children]
    wins = [c["length"] for c in done if c["status"] == "win"]
    d["reason"] = "interrupted"
    if d["role"] == "end":
        d.update(status="win", length=0, reason="four in a row")
    elif d["role"] == "attacker" and wins:
        d.update(status="win", length=min(wins) + 1, reason="")
    elif d["role"] == "defender" and wins and len(wins) == len(done) == max(
            len(d["x_threats"] if tree.attacker == "x" else d["o_threats"]), 1):
        d.update(status="win", length=max(wins), reason="")
