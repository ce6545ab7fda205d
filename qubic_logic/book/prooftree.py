"""The top level of a two-level proof-number search: a proof-number tree kept in the book's SQLite file.

X is the attacker. Every node is a position up to symmetry (the book's
canonical form) with the proof number (how many leaves must still be proven
for X to win) and disproof number of X's win: at X's turns (OR nodes) one
winning move is enough, at O's turns (AND nodes) every reply must lose. The
master expands the tree; its leaves at X's turns are searched in workers by
the native df-pn (a *job*), whose result sets the leaf's numbers — proven,
disproven, or the numbers the df-pn's root had when its budget ran out —
and the numbers then propagate to the root at once. A node is met once, however
many move orders reach it (the tree is a DAG), as in the df-pn's own table.

A new node gets the checks the df-pn makes when it meets a position
(:func:`evaluate`): an immediate win, two threes of O, a forced win by threat
sequence for X settle it there; an O turn at which a pass would not lose to a
threat sequence starts with a proof number of 20 (many replies to refute).

The *most-proving leaf* (:meth:`ProofTree.select`) is found from the root,
taking at an OR node the child with the smallest proof number (plus its
penalty) and at an AND node the one with the smallest disproof number. It
comes with the thresholds a df-pn parent gives its child: its job stops once
the leaf's proof number passes the next-best sibling's (widened by
``epsilon``, as df-pn's 1 + ε trick) or its disproof number makes the parent's
pass its own threshold, so a job searches a leaf only while it stays the
most-proving one.
X's moves are taken in the df-pn's order, each
with the df-pn's penalty (one step of proof number per 8 points of move score
below the best move's). A leaf whose job is running is counted, while it
runs, as the policy says
(Wu et al.'s job-level search): ``win`` (virtually proven), ``loss``
(virtually disproven) or ``equal`` (as it is, but never chosen again); when a
policy leaves nothing to choose, an idle worker takes the best leaf as under
``equal``.

>>> tree = ProofTree('win')
>>> root = tree.root(parse_position('moves:0,27,3'))    # O to move: does X win?
>>> (root.pn, root.dn, root.x_to_move, root.leaf)     # no threat sequence after a pass: 20
(20, 1, False, True)
>>> tree.select(root).node is root                     # an O turn is expanded by the master...
True
>>> tree.expand(root)
>>> len(root.edges), sum(c.settled for _, _, c in root.edges)   # 33 classes of O's replies
(33, 0)
>>> first = tree.select(root)                          # ...the leaves at X's turns are searched
>>> first.node.x_to_move, first.dn_threshold          # until their disproof number passes the next one's, doubled
(True, 2)
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from typing import Callable, NamedTuple

from ..core import core_module
from ..notation import format_patashnik, parse_position  # noqa: F401 - parse_position: the doctest
from ..position import Position
from ..proof.solve import HARD_REPLY_PN, INFINITY
from .classes import Key, children
from .store import _signed, _unsigned, canonical_key

POLICIES = ("win", "loss", "equal")
FULL = (1 << 64) - 1
LEAF_NODES = 1_000_000  # node limit of a threat-sequence check, as the df-pn's (solvers/dfpn.c)


def _cap(n: int) -> int:
    return n if n < INFINITY else INFINITY


@dataclass(eq=False, slots=True)
class Node:
    """A position of the tree (canonical masks ``key``) and its numbers; see the module docstring.

    ``how`` says what set the numbers: ``new`` (the checks of a new node),
    ``threats`` (settled by them), ``book`` (the book's value), ``search``
    (a job), ``children`` (an expanded node). ``target``: the nodes its jobs
    are to reach before it counts as unsettled; ``spent``: nodes its jobs spent
    since its saved table began; ``nodes``: of all its jobs; ``searches``: its
    jobs that used their whole budget unsettled.
    """

    key: Key
    pn: int
    dn: int
    how: str = "new"
    target: int = 0
    spent: int = 0
    nodes: int = 0
    searches: int = 0
    edges: list[tuple[int, int, "Node"]] | None = None  # (penalty, move in this node's frame, child), in order
    parents: list["Node"] = field(default_factory=list)
    busy: bool = False  # a job of it is running
    vpn: int = 0  # the numbers with running jobs counted as the policy says
    vdn: int = 0

    @property
    def x_to_move(self) -> bool:
        return self.key[0].bit_count() == self.key[1].bit_count()

    @property
    def leaf(self) -> bool:
        return self.edges is None

    @property
    def proven(self) -> bool:
        return self.pn == 0

    @property
    def disproven(self) -> bool:
        return self.dn == 0

    @property
    def settled(self) -> bool:
        return self.pn == 0 or self.dn == 0

    @property
    def position(self) -> Position:
        return Position(*self.key)

    @property
    def name(self) -> str:
        return format_patashnik(self.position) or "empty"


def evaluate(x: int, o: int) -> tuple[int, int, str]:
    """``(pn, dn, how)`` of a new node for X's win: the checks the df-pn makes at a position it meets.

    >>> evaluate(0b111, 0b111 << 16)                     # X to move, three in a row: wins now
    (0, 1099511627776, 'threats')
    >>> evaluate(0b111 | 1 << 40, 0b111 << 16)           # O to move with a three: O wins, X does not
    (1099511627776, 0, 'threats')
    >>> evaluate(1, 0)[:2]                               # O to move, nothing on the board: 20 replies' worth
    (20, 1)
    """
    core = core_module()
    empty = ~(x | o) & FULL
    if x.bit_count() == o.bit_count():  # X to move (an OR node)
        if core.threat_cells(x, o):
            return 0, INFINITY, "threats"
        theirs = core.threat_cells(o, x)
        if theirs & (theirs - 1) or not empty:
            return INFINITY, 0, "threats"
        if core.any_forced_win(x, o, LEAF_NODES) is not None:
            return 0, INFINITY, "threats"
        return 1, 1, "new"
    if core.threat_cells(o, x) or not empty:  # O to move (an AND node): O wins now, or a draw
        return INFINITY, 0, "threats"
    mine = core.threat_cells(x, o)
    if mine & (mine - 1):
        return 0, INFINITY, "threats"
    if mine or core.any_forced_win(x, o, LEAF_NODES) is not None:
        return 1, 1, "new"
    return HARD_REPLY_PN, 1, "new"


PENALTY_SHIFT = 3  # as solvers/dfpn.c: one proof-number step per 8 points of move score below the best


def _score(x: int, o: int) -> int:
    """The df-pn's score of X's move (most promising first): major cells, then forcing moves."""
    core = core_module()
    return 4 * core.major_cells(x, o).bit_count() + core.forcing_moves(x, o).bit_count()


Known = Callable[[Key], "tuple[int, int] | None"]  # the book's value of a position as X's numbers, if settled
EPSILON = 1.0  # a leaf is searched until its number passes (1 + EPSILON) times the next-best's (df-pn: 0.25)


class Choice(NamedTuple):
    """A leaf to search, and the proof and disproof numbers at which it stops being the most-proving one."""

    node: Node
    pn_threshold: int
    dn_threshold: int


class ProofTree:
    """The nodes in memory (loaded from and written to the book's ``tree_*`` tables), their numbers,
    expansion and the most-proving leaf; ``known`` gives the book's settled values to new nodes."""

    def __init__(self, policy: str = "win", known: Known | None = None, epsilon: float = EPSILON) -> None:
        if policy not in POLICIES:
            raise ValueError(f"unknown policy {policy!r}; expected one of {', '.join(POLICIES)}")
        self.policy = policy
        self.epsilon = epsilon
        self.known = known
        self.nodes: dict[Key, Node] = {}
        self.changed: dict[Key, Node] = {}  # rows to write
        self.new_edges: list[tuple[Key, Key, int, int]] = []
        self.settled: list[Node] = []  # nodes settled since the caller last took them (children first)

    def __len__(self) -> int:
        return len(self.nodes)

    # ------------------------------------------------------------------ nodes

    def get(self, key: Key) -> Node | None:
        return self.nodes.get(key)

    def add(self, key: Key) -> Node:
        """The node of ``key``, made (and evaluated) if new."""
        node = self.nodes.get(key)
        if node is not None:
            return node
        known = self.known(key) if self.known else None
        pn, dn, how = (*known, "book") if known is not None else evaluate(*key)
        node = self.nodes[key] = Node(key, pn, dn, how, vpn=pn, vdn=dn)
        self.changed[key] = node
        return node

    def root(self, position: Position) -> Node:
        """The node of ``position``'s class (made if new)."""
        return self.add(canonical_key(position)[:2])

    def expand(self, node: Node) -> None:
        """Make ``node``'s children (every class of moves) and take its numbers from theirs."""
        if not node.leaf:
            return
        x, o = node.key
        found = children(node.position)
        kids = [(0, move, self.add(key)) for key, move in found.items()]
        if node.x_to_move:  # X's moves: the df-pn's order and penalties
            scores = [_score(x | 1 << move, o) for _, move, _ in kids]
            best = max(scores)
            kids = sorted(((best - score) >> PENALTY_SHIFT, move, child)
                          for score, (_, move, child) in zip(scores, kids))
        node.edges = kids
        for penalty, move, child in kids:
            child.parents.append(node)
            self.new_edges.append((node.key, child.key, move, penalty))
        self.changed[node.key] = node
        self.update(node)

    # ------------------------------------------------------------------ numbers

    def _leaf_virtual(self, n: Node) -> tuple[int, int]:
        if n.busy and not n.settled and self.policy != "equal":
            return (0, INFINITY) if self.policy == "win" else (INFINITY, 0)
        return n.pn, n.dn

    def _numbers(self, n: Node) -> tuple[int, int, int, int]:
        """``(pn, dn, vpn, vdn)`` of ``n`` from its children (a leaf: its own, and the policy's)."""
        if n.edges is None:
            return (n.pn, n.dn, *self._leaf_virtual(n))
        kids = [c for _, _, c in n.edges]
        if n.x_to_move:
            return (min(c.pn for c in kids), _cap(sum(c.dn for c in kids)),
                    min(c.vpn for c in kids), _cap(sum(c.vdn for c in kids)))
        return (_cap(sum(c.pn for c in kids)), min(c.dn for c in kids),
                _cap(sum(c.vpn for c in kids)), min(c.vdn for c in kids))

    def set_leaf(self, node: Node, pn: int, dn: int, how: str) -> None:
        """A leaf's new numbers (a job's result), propagated to the root at once."""
        node.pn, node.dn, node.how = _cap(pn), _cap(dn), how
        self.changed[node.key] = node
        self.update(node)

    def set_busy(self, node: Node, busy: bool) -> None:
        """A job of ``node`` started or ended: its numbers as the policy counts them change."""
        node.busy = busy
        self.update(node)

    def update(self, node: Node) -> None:
        """Recompute ``node``'s numbers and those of every ancestor they change."""
        stack = [node]
        first = True
        while stack:
            n = stack.pop()
            was_settled = n.settled
            before = (n.pn, n.dn, n.vpn, n.vdn)
            after = self._numbers(n)
            if after == before and not first:
                continue
            first = False
            n.pn, n.dn, n.vpn, n.vdn = after
            if before[:2] != after[:2]:
                self.changed[n.key] = n
                if n.edges is not None:
                    n.how = "children"
            if n.settled and (not was_settled or n is node):
                self.settled.append(n)
            stack.extend(n.parents)

    def take_settled(self) -> list[Node]:
        """The nodes settled since the last call, each once, children before parents."""
        seen: set[Key] = set()
        out = []
        for n in self.settled:
            if n.key not in seen and n.settled:
                seen.add(n.key)
                out.append(n)
        self.settled = []
        return sorted(out, key=lambda n: -sum(map(int.bit_count, n.key)))

    # ------------------------------------------------------------------ selection

    def select(self, root: Node) -> Choice | None:
        """The most-proving leaf below ``root`` with no job running, and its thresholds (None: no leaf;
        see the module docstring)."""
        if root.settled:
            return None
        virtual = self.policy != "equal" and root.vpn > 0 and root.vdn > 0
        dead: set[Key] = set()

        def numbers(c: Node) -> tuple[int, int]:
            return (c.vpn, c.vdn) if virtual else (c.pn, c.dn)

        def pick(n: Node, thpn: int, thdn: int) -> Choice | None:
            if n.edges is None:
                return None if n.busy else Choice(n, thpn, thdn)
            npn, ndn = numbers(n)
            kids = []  # (the number chosen by, child)
            for penalty, _, c in n.edges:
                cpn, cdn = numbers(c)
                if cpn > 0 and cdn > 0 and c.key not in dead:
                    kids.append((min(cpn + penalty, INFINITY) if n.x_to_move else cdn, penalty, c))
            kids.sort(key=lambda kc: kc[0])
            for i, (_, penalty, c) in enumerate(kids):
                second = kids[1 if i == 0 else 0][0] if len(kids) > 1 else INFINITY
                cpn, cdn = numbers(c)
                if n.x_to_move:  # as df-pn: the best child's threshold is the next-best's number, widened
                    child = (self._widened(second, thpn) - penalty, _cap(thdn - ndn + cdn))
                else:
                    child = (_cap(thpn - npn + cpn), self._widened(second, thdn))
                found = pick(c, max(child[0], cpn + 1), max(child[1], cdn + 1))
                if found is not None:
                    return found
                dead.add(c.key)
            return None

        return pick(root, INFINITY, INFINITY)

    def _widened(self, second: int, threshold: int) -> int:
        """``second`` widened by ``epsilon`` (at least one more), at most ``threshold``."""
        if second >= INFINITY:
            return threshold
        return min(second + max(1, int(second * self.epsilon)), threshold)

    def live(self, node: Node, root: Node) -> bool:
        """Whether ``node`` still matters to ``root``: reached from it through unsettled nodes."""
        stack, seen = [node], set()
        while stack:
            n = stack.pop()
            if n is root:
                return True
            if n.key in seen or (n.settled and n is not node):
                continue
            seen.add(n.key)
            stack.extend(n.parents)
        return False

    def open_leaves(self, roots: list[Node]) -> set[Key]:
        """The open leaves below ``roots``, reached through open nodes: the ones a search may still give a job."""
        leaves: set[Key] = set()
        stack, seen = [r for r in roots if not r.settled], set()
        while stack:
            n = stack.pop()
            if n.key in seen:
                continue
            seen.add(n.key)
            if n.edges is None:
                leaves.add(n.key)
            else:
                stack.extend(c for _, _, c in n.edges if not c.settled)
        return leaves

    # ------------------------------------------------------------------ the book's tables

    def load(self, db: sqlite3.Connection) -> None:
        """Read the tree from the book (its numbers taken again from the children, deepest first)."""
        for x, o, pn, dn, expanded, how, target, spent, nodes, searches in db.execute(
                "SELECT x, o, pn, dn, expanded, how, target, spent, nodes, searches FROM tree_nodes"):
            key = (_unsigned(x), _unsigned(o))
            self.nodes[key] = Node(key, pn, dn, how, target, spent, nodes, searches, [] if expanded else None,
                                   vpn=pn, vdn=dn)
        for x, o, cx, co, move, penalty in db.execute(
                "SELECT x, o, child_x, child_o, move, penalty FROM tree_edges ORDER BY x, o, penalty, move"):
            parent, child = self.nodes[(_unsigned(x), _unsigned(o))], self.nodes[(_unsigned(cx), _unsigned(co))]
            parent.edges.append((penalty, move, child))
            child.parents.append(parent)
        for n in sorted(self.nodes.values(), key=lambda n: -sum(map(int.bit_count, n.key))):
            if n.edges is not None:
                numbers = self._numbers(n)
                if numbers[:2] != (n.pn, n.dn):
                    self.changed[n.key] = n
                n.pn, n.dn, n.vpn, n.vdn = numbers
        self.settled = []

    def flush(self, db: sqlite3.Connection) -> None:
        """Write the nodes and edges changed since the last flush (inside the caller's transaction)."""
        db.executemany("INSERT OR REPLACE INTO tree_nodes (x, o, pn, dn, expanded, how, target, spent, nodes, "
                       "searches) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       [(_signed(n.key[0]), _signed(n.key[1]), n.pn, n.dn, int(n.edges is not None), n.how,
                         n.target, n.spent, n.nodes, n.searches) for n in self.changed.values()])
        db.executemany("INSERT OR IGNORE INTO tree_edges VALUES (?, ?, ?, ?, ?, ?)",
                       [(_signed(p[0]), _signed(p[1]), _signed(c[0]), _signed(c[1]), move, penalty)
                        for p, c, move, penalty in self.new_edges])
        self.discard()

    def discard(self) -> None:
        """Forget what is to be written (after a flush, or a transaction that failed)."""
        self.changed = {}
        self.new_edges = []


def numbers_of_value(value: str | None, x_to_move: bool) -> tuple[int, int] | None:
    """A book value (for the side to move) as X's proof and disproof numbers, when it settles X's win.

    >>> numbers_of_value('win', True), numbers_of_value('loss', False), numbers_of_value('no win', False)
    ((0, 1099511627776), (0, 1099511627776), None)
    """
    won, lost = (0, INFINITY), (INFINITY, 0)
    if x_to_move:
        return {"win": won, "loss": lost, "no win": lost}.get(value or "")
    return {"loss": won, "win": lost}.get(value or "")
