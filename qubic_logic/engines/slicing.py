"""Only the project rules a program needs: drop library rules whose predicates nothing uses.

A strategy session grounds the project's rules with the position as
externals, and every ground atom costs each call propagation time, used or
not: Citrenbaum's PDP-4 rules never ask for ``forcing_move/2`` or
``counter_threat/2``, yet grounding them (and the ``line_state/4`` facts
behind them) made a third of the solver's variables. :func:`needed` keeps a
library rule when one of its head predicates is mentioned by the user's
program or by a rule already kept (a fixpoint); every other statement
(constraints, ``#show``, ``#external``, ``#program`` ...) is kept. The
answer sets restricted to the kept predicates are unchanged: a dropped rule
defines only predicates that no kept statement mentions, and the project's
rules are stratified.

>>> from clingo import ast
>>> user = []
>>> ast.parse_string('play(C) :- threat(x, C).', user.append)
>>> kept = needed('threat(S, C) :- line(S, C). fork(C) :- two(C). line(x, 1).', user)
>>> [str(s) for s in kept if 'program' not in str(s)]
['threat(S,C) :- line(S,C).', 'line(x,1).']
"""

from __future__ import annotations

from collections.abc import Iterable

from clingo import ast

Predicate = tuple[str, int]
UNKNOWN: Predicate = ("", -1)  # an atom whose predicate cannot be read


class _Predicates(ast.Transformer):
    """Collects the predicates of the symbolic atoms below a node."""

    def __init__(self) -> None:
        self.found: set[Predicate] = set()

    def visit_SymbolicAtom(self, node: ast.AST) -> ast.AST:  # noqa: N802 (clingo's visitor naming)
        self._term(node.symbol)
        return node

    def _term(self, term: ast.AST) -> None:
        if term.ast_type == ast.ASTType.UnaryOperation:  # classical negation: -p(X)
            self._term(term.argument)
        elif term.ast_type == ast.ASTType.Pool:  # p(a; b)
            for option in term.arguments:
                self._term(option)
        elif term.ast_type == ast.ASTType.Function:
            self.found.add((term.name, len(term.arguments)))
        elif term.ast_type == ast.ASTType.SymbolicTerm:  # a constant atom: p
            self.found.add((str(term.symbol), 0))
        else:  # anything unusual: nothing is dropped
            self.found.add(UNKNOWN)


def predicates(node: ast.AST) -> set[Predicate]:
    """The predicates of the atoms in ``node`` (:data:`UNKNOWN` for an atom that cannot be read).

    >>> from clingo import ast
    >>> found = []
    >>> ast.parse_string('side(x; o). -p :- not q(1, 2).', found.append)
    >>> sorted(predicates(found[1]) | predicates(found[2]))
    [('p', 0), ('q', 2), ('side', 1)]
    """
    visitor = _Predicates()
    visitor(node)
    return visitor.found


def needed(library: str, program: Iterable[ast.AST]) -> list[ast.AST]:
    """The statements of ``library`` (rule text) that ``program`` (parsed statements) may use."""
    statements: list[ast.AST] = []
    ast.parse_string(library, statements.append)
    wanted: set[Predicate] = set()
    for statement in program:
        wanted |= predicates(statement)
    rules = [(s, predicates(s.head), predicates(s)) for s in statements
             if s.ast_type == ast.ASTType.Rule and predicates(s.head)]
    kept = {id(s) for s in statements} - {id(s) for s, _, _ in rules}  # constraints, directives: all kept
    for s in statements:
        if id(s) in kept:
            wanted |= predicates(s)
    if UNKNOWN in wanted or any(UNKNOWN in heads for _, heads, _ in rules):
        return statements
    changed = True
    while changed:
        changed = False
        for s, heads, mentioned in rules:
            if id(s) not in kept and heads & wanted:
                kept.add(id(s))
                wanted |= mentioned
                changed = True
    return [s for s in statements if id(s) in kept]
