"""Solve a position: proof-number search whose leaves are settled by threat sequences.

Two searches share these semantics: the native depth-first proof-number
search (``solvers/dfpn.c``, the default when the extension is built: a
bounded transposition table and heuristic proof numbers at the attacker's
turns; about 12 times faster, and it proves the empty board in one search of
17 s) and the readable Python reference below (``method='python'``, or when
``search`` is given), which keeps the plain proof numbers.

The side to move at the root is the *attacker*. At its turns (OR nodes) it
wins at once with a threat cell, wins by a forced threat sequence
(docs/design.md §3, the native search), must block the defender's single three,
or may play any empty cell; at the defender's turns (AND nodes) every reply
is considered, except that a threat must be blocked. Nodes are shared
through a transposition table keyed by canonical form, so equivalent
positions are searched once. Proof and disproof numbers pick the next node
to expand (Allis's PN search, most-proving node first).

A proof is a strategy: the attacker's move at each proven OR node that is
not a win, a block or a forced sequence is a *strategic move*, written as a
dictionary in Patashnik's format that :func:`~qubic_logic.strategy.verify.verify` accepts.

>>> from qubic_logic.notation import parse_position
>>> r = solve(parse_position('1-2,22-52,27-4'))        # a forced sequence at once
>>> r.status, r.strategy_size
('won', 0)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

from ..core import NATIVE, core_module
from ..native import native_extension
from ..errors import DataFormatError, EngineUnavailableError, IllegalMoveError
from ..geometry import cells_of
from ..notation import format_patashnik
from ..position import Position, other
from ..referee import replay_forced_win
from ..symmetry import INVERSES, TRANSFORMS, canonical_masks
from ..strategy.dictionary import Entry, StrategyDictionary
from ..strategy.verify import VERIFY_NATIVE


DFPN_NATIVE = native_extension("_dfpn") if NATIVE is not None else None

INFINITY = 1 << 40
NATIVE_INFINITY = 0x3FFFFFFF  # solvers/dfpn.h QD_INFINITY
DEFAULT_MEMORY_MB = 1024  # the table (either search) when no memory limit is given
FULL = (1 << 64) - 1
NODE_BYTES = 400  # rough memory per node (object, lists, table entry), for --memory-limit
HARD_REPLY_PN = 20  # initial proof number of a defender turn where a pass would not lose to a threat sequence
# A saved table keeps the most-worked 1/1024 of the entries in use (at least 16,384): stopped
# at 9 M of moves:1,14's 18.93 M nodes, its top 16,384 entries (0.2%) went on to 18.75 M in
# all (keeping 200,000: 18.1 M). A book holds one per open position.
SAVED_TABLE_SHARE = 1024


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


class Node:
    """A canonical position in the search: ``a`` attacker's mask, ``d`` defender's."""

    __slots__ = ("a", "d", "attacker_turn", "pn", "dn", "children", "kind", "pass_win")

    def __init__(self, a: int, d: int, attacker_turn: bool) -> None:
        self.a, self.d, self.attacker_turn = a, d, attacker_turn
        self.pn = self.dn = 1
        self.children: list[tuple[int, Node]] | None = None  # (move in this node's frame, child)
        self.kind = ""  # how an attacker turn resolves: win | forced | block | move
        self.pass_win = b""  # defender's turn: the attacker's forced win if the defender passed

    def prove(self, kind: str) -> None:
        self.pn, self.dn, self.kind = 0, INFINITY, kind

    def disprove(self) -> None:
        self.pn, self.dn = INFINITY, 0


@dataclass
class SolveResult:
    """Outcome of :func:`solve`.

    ``status``: ``'won'`` (the side to move wins; ``strategy`` proves it),
    ``'not won'`` (it cannot force a win: proven) or ``'unknown'`` (limits hit).
    ``move`` is the first move of the winning strategy (or the most promising
    one when unknown), in the root position's own orientation.
    """

    status: str
    root: Position
    move: int | None
    nodes: int
    seconds: float
    strategy: StrategyDictionary | None = None
    proof_number: int = 0
    disproof_number: int = 0
    stopped_by: str = ""
    extra: dict = field(default_factory=dict)
    table: bytes | None = None  # with save_table, when unknown: the search's table, to go on from

    @property
    def strategy_size(self) -> int:
        """Strategic positions in the winning strategy (0 when none)."""
        return len(self.strategy) if self.strategy is not None else 0

    def to_json(self) -> dict:
        """The object printed by ``qubic solve --json`` (with ``minimising``: seconds by phase, when it ran)."""
        out = {
            "status": self.status,
            "root": format_patashnik(self.root),
            "to_move": self.root.to_move,
            "move": self.move,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
            "strategic_positions": self.strategy_size,
            "proof_number": min(self.proof_number, INFINITY),
            "disproof_number": min(self.disproof_number, INFINITY),
            "stopped_by": self.stopped_by,
        }
        if "phases" in self.extra:
            out["minimising"] = {name: round(seconds, 3) for name, seconds in self.extra["phases"].items()}
        return out


class ProofNumberSearch:
    """The search state: transposition table, limits, counters.

    ``leaf_time`` bounds each threat-sequence search (a leaf not settled in
    time is searched further as a normal node).
    """

    def __init__(self, core: str = "auto", leaf_time: float = 0.5) -> None:
        self.core = core_module(core)
        self.canonical = getattr(self.core, "canonical", canonical_masks)
        self.holds = _native_holds if self.core is NATIVE and VERIFY_NATIVE is not None else _python_holds
        self.leaf_time = leaf_time
        self.table: dict[tuple[int, int], Node] = {}

    # ---------------------------------------------------------------- nodes

    def node(self, a: int, d: int, attacker_turn: bool, hint: bytes = b"") -> tuple[Node, int]:
        """The shared node of ``(a, d)`` and the transform that maps ``(a, d)`` onto it.

        ``hint``: a witness that may still be a forced win at ``(a, d)`` (saves a search).
        """
        ca, cd, t = self.canonical(a, d)
        found = self.table.get((ca, cd))
        if found is None:
            found = self.table[(ca, cd)] = Node(ca, cd, attacker_turn)
            if attacker_turn:
                self._evaluate_attacker(found, bool(hint) and self.holds(a, d, hint))
            else:
                self._evaluate_defender(found)
        return found, t

    def _evaluate_attacker(self, n: Node, known_win: bool) -> None:
        core = self.core
        if core.threat_cells(n.a, n.d):
            return n.prove("win")
        theirs = core.threat_cells(n.d, n.a)
        if theirs & (theirs - 1) or not ~(n.a | n.d) & FULL:
            return n.disprove()
        if known_win or core.forced_win(n.a, n.d, 0, self.leaf_time, 0)[0] > 0:
            return n.prove("forced")
        n.kind = "block" if theirs else "move"

    def _evaluate_defender(self, n: Node) -> None:
        core = self.core
        if core.threat_cells(n.d, n.a) or not ~(n.a | n.d) & FULL:
            return n.disprove()
        mine = core.threat_cells(n.a, n.d)
        if mine & (mine - 1):
            return n.prove("double threat")
        if not mine:
            length, seq = core.forced_win(n.a, n.d, 0, self.leaf_time, 0)[:2]
            if length > 0:
                n.pass_win = bytes(seq)
            else:
                n.pn = HARD_REPLY_PN  # a pass would not lose to a threat sequence: many replies to refute

    def expand(self, n: Node) -> None:
        """Create the children of ``n`` (each equivalent child once), best first."""
        a, d = n.a, n.d
        core = self.core
        children: dict[int, tuple[int, Node]] = {}
        if n.attacker_turn:
            theirs = core.threat_cells(d, a)
            moves = [_low(theirs)] if theirs else cells_of(~(a | d) & FULL)
            for m in moves:
                child, _ = self.node(a | 1 << m, d, False)
                children.setdefault(id(child), (m, child))
            order = sorted(children.values(), key=lambda mc: (mc[1].pn, -self._score(a | 1 << mc[0], d)))
        else:
            mine = core.threat_cells(a, d)
            replies = [_low(mine)] if mine else cells_of(~(a | d) & FULL)
            for r in replies:
                hint = n.pass_win if r not in n.pass_win else b""
                child, _ = self.node(a, d | 1 << r, True, hint)
                children.setdefault(id(child), (r, child))
            order = list(children.values())
        n.children = order

    def _score(self, a: int, d: int) -> int:
        core = self.core
        return 4 * core.major_cells(a, d).bit_count() + core.forcing_moves(a, d).bit_count()

    @staticmethod
    def update(n: Node) -> None:
        """Proof and disproof numbers of ``n`` from its children."""
        kids = n.children
        if n.attacker_turn:
            n.pn = min(c.pn for _, c in kids)
            n.dn = min(INFINITY, sum(c.dn for _, c in kids))
        else:
            n.pn = min(INFINITY, sum(c.pn for _, c in kids))
            n.dn = min(c.dn for _, c in kids)

    # ---------------------------------------------------------------- search

    def run(
        self,
        root: Node,
        deadline: float | None,
        max_nodes: int,
        progress: Callable[[int, int, int], None] | None = None,
        node_limit: int = 0,
    ) -> str:
        """Expand most-proving nodes until ``root`` is settled; returns why it stopped ('' = settled)."""
        iterations = 0
        while root.pn and root.dn:
            if deadline is not None and time.monotonic() > deadline:
                return "time limit"
            if max_nodes and len(self.table) >= max_nodes:
                return "memory limit"
            if node_limit and len(self.table) >= node_limit:
                return "node limit"
            path = [root]
            n = root
            # Stop at a settled node too: in a shared (DAG) table a parent's numbers may be
            # stale until this path updates them; settled nodes are never expanded.
            while n.children is not None and n.pn and n.dn:
                kids = n.children
                n = min(kids, key=(lambda mc: mc[1].pn) if n.attacker_turn else (lambda mc: mc[1].dn))[1]
                path.append(n)
            if n.pn and n.dn:
                self.expand(n)
            for p in reversed(path):
                if p.children is not None:
                    self.update(p)
            iterations += 1
            if progress and iterations % 50 == 0:
                progress(len(self.table), root.pn, root.dn)
        return ""

    def strategy(self, root: Node, attacker: str, header: list[str]) -> StrategyDictionary:
        """The proven strategy below ``root``: one entry per strategic move, in canonical frames."""
        entries: list[Entry] = []
        seen: set[int] = set()
        stack = [root]
        while stack:
            n = stack.pop()
            if id(n) in seen:
                continue
            seen.add(id(n))
            if n.attacker_turn:
                if n.kind in ("win", "forced"):
                    continue
                move, child = next((m, c) for m, c in n.children if c.pn == 0)
                if n.kind == "move":
                    entries.append(Entry(_position(n.a, n.d, attacker), move))
                stack.append(child)
            elif n.children is not None:
                stack.extend(c for _, c in n.children)
        return StrategyDictionary(entries, header)


def _position(a: int, d: int, attacker: str) -> Position:
    return Position(a, d) if attacker == "x" else Position(d, a)


def _native_holds(a: int, d: int, seq: bytes) -> bool:
    return VERIFY_NATIVE.witness_holds(a, d, seq)


def _python_holds(a: int, d: int, seq: bytes) -> bool:
    """Whether ``seq`` is a forced win for ``a`` to move (the referee's rules)."""
    position = _position(a, d, "x" if a.bit_count() == d.bit_count() else "o")
    try:
        replay_forced_win(position, tuple(seq))
    except IllegalMoveError:
        return False
    return True


def solve(
    position: Position,
    *,
    time_limit: float | None = None,
    memory_limit: float | None = None,
    core: str = "auto",
    progress: Callable[[int, int, int], None] | None = None,
    search: ProofNumberSearch | None = None,
    method: str = "auto",
    node_limit: int | None = None,
    move: int | None = None,
    table: bytes | None = None,
    save_table: bool = False,
    pass_nodes: int | None = None,
    pass_work: int | None = None,
    weak_pns: int = 0,
    thresholds: tuple[int, int] | None = None,
    known: bytes | None = None,
) -> SolveResult:
    """Does the side to move force a win? Proof-number search over threat-sequence leaves.

    ``method``: ``'native'`` (the C df-pn search), ``'python'`` (the readable
    reference) or ``'auto'`` (native when built, unless ``core='python'`` or a
    ``search`` is passed). ``memory_limit`` (MB) bounds the transposition
    table (default 1024 MB): the native table replaces its least-worked
    entries when full, the Python search stops at the cap. Past ``time_limit``
    seconds, ``node_limit`` positions or on Ctrl-C the result is
    ``'unknown'`` with what was found so far. ``progress(nodes,
    proof_number, disproof_number)`` is called now and then. Pass ``search``
    to reuse a Python table between calls. ``move`` fixes the first move (native
    search only): ``'won'`` then means that this move wins, ``'not won'`` that it
    does not, and the strategy starts with it.

    Saved tables (native search only): with ``save_table``, an unsettled result
    carries in ``.table`` the most-worked part of the search's table (a 1024th
    of the entries in use); passing it back as ``table`` to a search of the same
    position (and ``move``) goes on where that one stopped. A table of another
    position, or not a table, raises :class:`DataFormatError`.

    ``pass_nodes`` (native search only): the node budget of the search after a
    defender's pass, whose proof's zone proves the replies outside it (see
    docs/solving.md); 0 switches this proof reuse off, None keeps the default.
    ``pass_work``: a defender's turn is tried once the work below it reaches
    ``pass_work`` times that budget (0: at its first expansion; None: the default).
    ``weak_pns``: 1 sums the proof numbers at the defender's turns weakly (the
    largest child's plus one per other unsettled child: a position reached by
    many move orders is not counted once per order), 2 also the disproof
    numbers at the attacker's turns; 0 (the default) plain sums.
    ``thresholds`` (native search only): ``(proof number, disproof number)`` at
    which the search stops unsettled (``stopped_by`` ``'threshold'``), as a
    df-pn parent stops its child: a two-level search's leaf, searched only while
    it is the most-proving one. ``known`` (native search only): wins proven
    elsewhere (:meth:`~qubic_logic.proof.known.KnownWins.packed`), taken as
    proven where the search meets them and carried into its strategy.

    >>> from qubic_logic.notation import parse_position
    >>> p = parse_position('moves:0,16,1,17,2,18')
    >>> solve(p, move=3).status, solve(p, move=60).status
    ('won', 'not won')
    >>> q = parse_position('patashnik:x2x16o4o')
    >>> first = solve(q, node_limit=5_000, save_table=True)
    >>> first.status, solve(q, table=first.table).status
    ('unknown', 'won')
    >>> r = solve(q, thresholds=(3, 10**6)); r.status, r.stopped_by, r.proof_number >= 3
    ('unknown', 'threshold', True)
    """
    position.require_in_play()
    native = _use_native(method, core, search)
    if move is not None and move not in position.legal_moves():
        raise IllegalMoveError(f"move {move} is not a legal move here; expected an empty cell 0-63")
    if not native and (move is not None or table is not None or save_table or thresholds or known):
        raise EngineUnavailableError("a fixed first move, saved tables, thresholds and known wins need the native solver "
                                     "(solver 'native' or 'auto' with the native core built)")
    if native:
        return _solve_native(position, time_limit, memory_limit, node_limit, progress, move, table, save_table,
                             pass_nodes, pass_work, weak_pns, thresholds, known)
    start = time.monotonic()
    search = search or ProofNumberSearch(core)
    attacker = position.to_move
    a, d = position.mask(attacker), position.mask(other(attacker))
    root, t = search.node(a, d, True)
    deadline = start + time_limit if time_limit else None
    max_nodes = int((memory_limit or DEFAULT_MEMORY_MB) * 1e6 / NODE_BYTES)
    try:
        stopped = search.run(root, deadline, max_nodes, progress, node_limit or 0)
    except KeyboardInterrupt:
        stopped = "interrupted"
    status = "won" if root.pn == 0 else "not won" if root.dn == 0 else "unknown"
    move = _root_move(search, root, t, status)
    strategy = search.strategy(root, attacker, _header(position)) if status == "won" else None
    return SolveResult(status, position, move, len(search.table), time.monotonic() - start, strategy,
                       root.pn, root.dn, stopped)


def _use_native(method: str, core: str, search: ProofNumberSearch | None) -> bool:
    """Whether :func:`solve` runs the native search."""
    if method not in ("auto", "native", "python"):
        raise EngineUnavailableError(f"unknown solver {method!r}; expected native, python or auto")
    if method == "native":
        if DFPN_NATIVE is None:
            raise EngineUnavailableError("the native solver is not built; reinstall with a C compiler "
                                         "(pip install .) or use solver 'python'")
        return True
    return method == "auto" and DFPN_NATIVE is not None and search is None and core_module(core) is NATIVE


def _header(position: Position) -> list[str]:
    attacker = position.to_move
    return [
        "Winning strategy found by qubic solve (qubic-logic: proof-number search over threat sequences).",
        f"root: {format_patashnik(position)}",
        f"{attacker.upper()} to move wins: play (1) a win, else (2) block a three, else (3) the move below",
        "(up to symmetry), else (4) a forced sequence. Check: qubic verify dictionary FILE",
    ]


def _solve_native(
    position: Position,
    time_limit: float | None,
    memory_limit: float | None,
    node_limit: int | None,
    progress: Callable[[int, int, int], None] | None,
    move: int | None = None,
    table: bytes | None = None,
    save_table: bool = False,
    pass_nodes: int | None = None,
    pass_work: int | None = None,
    weak_pns: int = 0,
    thresholds: tuple[int, int] | None = None,
    known: bytes | None = None,
) -> SolveResult:
    """:func:`solve` by the C df-pn search (solvers/dfpn.c); the strategy is extracted from its table."""
    attacker = position.to_move
    a, d = position.mask(attacker), position.mask(other(attacker))
    try:
        r = DFPN_NATIVE.solve(a, d, time_limit=time_limit or 0.0, node_limit=node_limit or 0,
                              memory_mb=memory_limit or DEFAULT_MEMORY_MB,
                              progress=progress, first_move=-1 if move is None else move, table=table,
                              keep_share=SAVED_TABLE_SHARE if save_table else 0,
                              pass_nodes=-1 if pass_nodes is None else pass_nodes,
                              pass_work=-1 if pass_work is None else pass_work, weak_pns=weak_pns,
                              pn_threshold=min(thresholds[0], NATIVE_INFINITY) if thresholds else 0,
                              dn_threshold=min(thresholds[1], NATIVE_INFINITY) if thresholds else 0,
                              known=known)
    except ValueError as exc:
        if table is None:
            raise
        raise DataFormatError(f"cannot go on from this saved table: {exc}; expected one saved by a search of "
                              f"{format_patashnik(position) or 'the empty board'}"
                              f"{'' if move is None else f' with first move {move}'}") from None
    status, stopped = r["status"], r["stopped_by"]
    strategy = None
    if status == "won":
        if r["extracted"]:
            entries = [Entry(_position(ea, ed, attacker), m) for ea, ed, m in r["entries"]]
            strategy = StrategyDictionary(entries, _header(position))
        else:
            status, stopped = "unknown", "interrupted"  # proven, but stopped while extracting the strategy
    keys = ("expansions", "leaf_calls", "leaf_nodes", "leaf_seconds", "table_entries", "table_used",
            "replaced", "entry_bytes", "loaded", "pass_searches", "pass_proofs", "zone_proofs", "extraction_nodes",
            "known_proofs")
    extra = {"solver": "native", **{k: r[k] for k in keys}}
    pn, dn = (INFINITY if x >= NATIVE_INFINITY else x for x in (r["proof_number"], r["disproof_number"]))
    move = r["move"] if r["move"] >= 0 else None
    return SolveResult(status, position, move, r["nodes"], r["seconds"], strategy, pn, dn, stopped, extra,
                       r["table"] if status == "unknown" else None)


def _root_move(search: ProofNumberSearch, root: Node, t: int, status: str) -> int | None:
    """The winning (or most promising) move at the root, mapped back to the root's orientation."""
    back = TRANSFORMS[INVERSES[t]]
    if root.kind == "win":
        return back[_low(search.core.threat_cells(root.a, root.d))]
    if root.kind == "forced":
        return back[search.core.forced_win(root.a, root.d, 0, 0.0, 0)[1][0]]
    if not root.children:
        return None
    if status == "won":
        return back[next(m for m, c in root.children if c.pn == 0)]
    return back[min(root.children, key=lambda mc: (mc[1].pn, -mc[1].dn))[0]]


def best_move(position: Position, time_limit: float = 5.0) -> SolveResult:
    """Solve ``position`` for the side to move within ``time_limit`` seconds; ``.move`` is the move.

    For players: ``.status == 'won'`` means the move wins by force.

    >>> from qubic_logic.notation import parse_position
    >>> best_move(parse_position('moves:0,16,1,17,2,18')).move
    3
    """
    return solve(position, time_limit=time_limit)
