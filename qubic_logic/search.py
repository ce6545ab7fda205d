"""A generic game-tree search layer in McCarthy's style (seed 002, "LISP programs for searching").

A game is characterised by problem-dependent functions (seed §3–4, L299–311,
L447–459): ``successors(p)`` (a list of positions, already ordered),
``ter(p, alpha, beta)`` (treat ``p`` as terminal), ``imval(p)`` (value of a
terminal position to the maximising player), ``ext(p)`` (the move that led to
``p``) and ``rectify(p)`` (identity, or McCarthy's hidden-board trick of §5,
which makes ``p`` the current position and returns it). On top of them:

* :func:`vmax` / :func:`vmin` and :func:`movemax` — plain minimax (L338–392);
* :func:`valmax` / :func:`valmin` — αβ, value only (L482–505);
* :func:`linemax` / :func:`linemin` — value consed onto a line of play (L547–569);
* :func:`treemax` / :func:`treemin` — value with two proof trees (L605–630).

The functions follow the LISP definitions clause by clause, including the
``alpha . ALPHA-CUTOFF`` seeds of the line and tree accumulators, so results
are LISP data: :class:`Cons` cells and ``NIL`` (``None``), printed by
:func:`lisp_repr`. Qubic uses the same layer (``players/mccarthy.py``), and
so does 3×3 tic-tac-toe (:mod:`qubic_logic.tictactoe`), which reproduces the
seed's worked examples.

>>> class Nim:   # take 1 or 2 of n; whoever takes the last wins (+1 to max)
...     def successors(self, p): return [(p[0] - k, k, not p[2]) for k in (1, 2) if k <= p[0]]
...     def ter(self, p, alpha, beta): return p[0] == 0
...     def imval(self, p): return -1 if p[2] else 1     # p[2]: max to move, so min took last
...     def ext(self, p): return p[1]
...     def rectify(self, p): return p
>>> vmax(Nim(), (4, None, True)), valmax(Nim(), (4, None, True), -10, 10)
(1, 1)
>>> lisp_repr(linemax(Nim(), (4, None, True), -10, 10))
'(1 1 1 2)'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

INFINITY = float("inf")
ALPHA_CUTOFF = "ALPHA-CUTOFF"
BETA_CUTOFF = "BETA-CUTOFF"


@dataclass(frozen=True, slots=True)
class Cons:
    """A LISP cons cell; ``None`` is NIL."""

    car: Any
    cdr: Any


NIL = None


def cons(a: Any, d: Any) -> Cons:
    """``a . d``."""
    return Cons(a, d)


def lisp_list(*items: Any) -> Cons | None:
    """``<a, b, ...>``: a proper list.

    >>> lisp_repr(lisp_list(1, lisp_list(2), 3))
    '(1 (2) 3)'
    """
    out = NIL
    for item in reversed(items):
        out = Cons(item, out)
    return out


def from_list(items: Iterable[Any]) -> Cons | None:
    """A proper LISP list of a Python iterable."""
    return lisp_list(*items)


def to_list(u: Cons | None) -> list:
    """The elements of a LISP list (a dotted tail is dropped)."""
    out = []
    while isinstance(u, Cons):
        out.append(u.car)
        u = u.cdr
    return out


def qa(u: Cons) -> Any:
    """car."""
    return u.car


def qd(u: Cons) -> Any:
    """cdr."""
    return u.cdr


def qad(u: Cons) -> Any:
    """cadr."""
    return u.cdr.car


def qadd(u: Cons) -> Any:
    """caddr."""
    return u.cdr.cdr.car


def lisp_repr(obj: Any, atom: Callable[[Any], str] = str) -> str:
    """Print LISP data; ``atom`` writes numbers (e.g. in octal, as the seed's LISP did).

    >>> lisp_repr(cons(-1000, ALPHA_CUTOFF))
    '(-1000 . ALPHA-CUTOFF)'
    """
    if obj is NIL:
        return "NIL"
    if not isinstance(obj, Cons):
        return atom(obj) if isinstance(obj, int) else str(obj)
    parts = []
    while isinstance(obj, Cons):
        parts.append(lisp_repr(obj.car, atom))
        obj = obj.cdr
    tail = "" if obj is NIL else " . " + lisp_repr(obj, atom)
    return "(" + " ".join(parts) + tail + ")"


class Problem(Protocol):
    """The functions that characterise a game for this layer."""

    def successors(self, p: Any) -> list: ...

    def ter(self, p: Any, alpha: float, beta: float) -> bool: ...

    def imval(self, p: Any) -> float: ...

    def ext(self, p: Any) -> Any: ...

    def rectify(self, p: Any) -> Any: ...


# -- plain minimax (L338-392) -------------------------------------------------

def vmax(g: Problem, p: Any) -> float:
    """Value of ``p`` to max, max to move, by full minimax (``ter`` gets ±∞ bounds)."""
    if g.ter(g.rectify(p), -INFINITY, INFINITY):
        return g.imval(p)
    return max((vmin(g, q) for q in g.successors(p)), default=-INFINITY)


def vmin(g: Problem, p: Any) -> float:
    """Value of ``p`` to max, min to move, by full minimax."""
    if g.ter(g.rectify(p), -INFINITY, INFINITY):
        return g.imval(p)
    return min((vmax(g, q) for q in g.successors(p)), default=INFINITY)


def movemax(g: Problem, p: Any) -> Any:
    """``bestmax[successors p, vmin]``: the earliest successor of greatest value."""
    u = g.successors(p)
    best, best_val = u[0], vmin(g, u[0])
    for q in u[1:]:
        v = vmin(g, q)
        if v > best_val:
            best, best_val = q, v
    return best


# -- alpha-beta, value only (L482-505) ----------------------------------------

def valmax(g: Problem, p: Any, alpha: float, beta: float) -> float:
    """αβ value of ``p`` to max (max to move), clamped to [alpha, beta] (L509-530)."""
    if g.ter(g.rectify(p), alpha, beta):
        return g.imval(p)
    for q in g.successors(p):
        s = valmin(g, q, alpha, beta)
        if not s > alpha:
            continue
        if s < beta:
            alpha = s
        else:
            return beta
    return alpha


def valmin(g: Problem, p: Any, alpha: float, beta: float) -> float:
    """αβ value of ``p`` to max, min to move."""
    if g.ter(g.rectify(p), alpha, beta):
        return g.imval(p)
    for q in g.successors(p):
        s = valmax(g, q, alpha, beta)
        if not s > alpha:
            return alpha
        beta = min(beta, s)
    return beta


# -- alpha-beta with a line of play (L547-569) --------------------------------

def linemax(g: Problem, p: Any, alpha: float, beta: float) -> Cons:
    """``value . line``: the first line of play found attaining the value (max to move)."""
    if g.ter(g.rectify(p), alpha, beta):
        return lisp_list(g.imval(p))
    return _lmaxlis(g, g.successors(p), cons(alpha, ALPHA_CUTOFF), alpha, beta)


def linemin(g: Problem, p: Any, alpha: float, beta: float) -> Cons:
    """``value . line`` with min to move."""
    if g.ter(g.rectify(p), alpha, beta):
        return lisp_list(g.imval(p))
    return _lminlis(g, g.successors(p), cons(beta, BETA_CUTOFF), alpha, beta)


def _lmaxlis(g: Problem, u: list, line: Any, alpha: float, beta: float) -> Cons:
    for q in u:
        s = linemin(g, q, alpha, beta)
        if not qa(s) > alpha:
            continue
        if qa(s) < beta:
            line, alpha = cons(g.ext(q), qd(s)), qa(s)
        else:
            return cons(beta, line)
    return cons(alpha, line)


def _lminlis(g: Problem, u: list, line: Any, alpha: float, beta: float) -> Cons:
    for q in u:
        s = linemax(g, q, alpha, beta)
        if not qa(s) > alpha:
            return cons(alpha, line)
        if qa(s) < beta:
            line, beta = cons(g.ext(q), qd(s)), qa(s)
    return cons(beta, line)


# -- alpha-beta with proof trees (L605-630) -----------------------------------

def treemax(g: Problem, p: Any, alpha: float, beta: float) -> Cons:
    """``<val, pfmax, pfmin>`` with max to move: pfmax proves value >= val, pfmin <= val.

    pfmax at a max node is ``move . pf`` (one move); at a min node a list of
    ``move . pf``, one per successor (L635-659); pfmin the other way round.
    """
    if g.ter(g.rectify(p), alpha, beta):
        v = g.imval(p)
        return lisp_list(v, lisp_list(v), lisp_list(v))
    return _tmaxlis(g, g.successors(p), cons(alpha, ALPHA_CUTOFF), NIL, alpha, beta)


def treemin(g: Problem, p: Any, alpha: float, beta: float) -> Cons:
    """``<val, pfmax, pfmin>`` with min to move."""
    if g.ter(g.rectify(p), alpha, beta):
        v = g.imval(p)
        return lisp_list(v, lisp_list(v), lisp_list(v))
    return _tminlis(g, g.successors(p), NIL, cons(beta, BETA_CUTOFF), alpha, beta)


def _tmaxlis(g: Problem, u: list, trmax: Any, trmin: Any, alpha: float, beta: float) -> Cons:
    for q in u:
        s = treemin(g, q, alpha, beta)
        if not qa(s) > alpha:
            trmin = cons(cons(g.ext(q), qadd(s)), trmin)
        elif qa(s) < beta:
            trmax = cons(g.ext(q), qad(s))
            trmin = cons(cons(g.ext(q), qadd(s)), trmin)
            alpha = qa(s)
        else:
            return lisp_list(beta, cons(g.ext(q), qad(s)), NIL)
    return lisp_list(alpha, trmax, trmin)


def _tminlis(g: Problem, u: list, trmax: Any, trmin: Any, alpha: float, beta: float) -> Cons:
    for q in u:
        s = treemax(g, q, alpha, beta)
        if not qa(s) > alpha:
            return lisp_list(alpha, NIL, cons(g.ext(q), qadd(s)))
        if qa(s) < beta:
            trmax = cons(cons(g.ext(q), qad(s)), trmax)
            trmin = cons(g.ext(q), qadd(s))
            beta = qa(s)
        else:
            trmax = cons(cons(g.ext(q), qad(s)), trmax)
    return lisp_list(beta, trmax, trmin)
