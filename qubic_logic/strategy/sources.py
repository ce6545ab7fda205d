"""One strategy interface over four sources: a dictionary, ASP rules, Prolog rules, a player.

A *strategy* maps a position where its side is to move to one move, or to
None ("no move here"). :func:`load_strategy` reads a source text:

- ``player:NAME[:key=value,...]``: a registered player (it sees the game so far);
- a file ending ``.lp``: ASP rules over the project's geometry and threats; the
  move is the atom ``play(C)`` of the first answer set (of the optimal one when
  the rules optimise); no ``play/1`` atom is no move, two are an error;
- a file ending ``.pl``: Prolog rules; the move is the first solution of ``play(C)``;
- any other file: a dictionary in Patashnik's or the wildcard format (looked up up to symmetry).

Rule files are ground or consulted once; each call only changes the position
(clingo externals solved under assumptions, a Prolog session with the
position asserted), so a call costs about a millisecond. Every call checks
the move (a cell 0..63, empty) and names the position when it is not; each
call has a time limit. ``load_strategy(..., supervised=True)`` runs a rule
file in a :class:`SupervisedStrategy`: a worker process with time, call and
memory limits, which Ctrl-C ends at once.

>>> from qubic_logic.notation import parse_position
>>> s = load_strategy('player:citrenbaum-pdp4:preset=seven-file')
>>> s.move(parse_position('moves:0,16,1,17,2'))        # O blocks X's three at 3
3
"""

from __future__ import annotations

import os
import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import QubicError, QueryTimeout, RuleError, StrategyError
from ..geometry import cells_of
from ..notation import format_mcdaniel, format_patashnik
from ..position import Game, Position
from ..shipped import DICTIONARIES, STRATEGY_RULES, dictionary_path, strategy_rule_files
from ..symmetry import INVERSES, TRANSFORMS, canonical_masks
from .dictionary import StrategyDictionary
from .formats import read_dictionary

if TYPE_CHECKING:
    import clingo

#: Seconds one strategy call may take (a looping rule file ends with a clear error); loading the rules
#: may take as many seconds of CPU time.
CALL_LIMIT = 10.0
LOAD_WAIT = 10  # with no time limit for the run, a load may wait (use no CPU) this many call limits
PLAYER_PREFIX = "player:"


def game_moves(position: Position) -> tuple[int, ...]:
    """A move order that reaches ``position`` (X's and O's cells alternately, ascending).

    >>> game_moves(Position.from_cells([5, 0, 9]))
    (5, 0, 9)
    """
    xs, os_ = cells_of(position.x), cells_of(position.o)
    return tuple(c for pair in zip(xs, [*os_, None]) for c in pair if c is not None)


def where(position: Position, moves: Sequence[int] | None = None) -> str:
    """A position named for an error message: Patashnik's form and the moves reaching it.

    >>> where(Position.from_cells([0, 21]), [0, 21])
    "position 'x20o' after moves 1-22"
    """
    text = f"position {format_patashnik(position) or 'empty'!r}"
    return f"{text} after moves {format_mcdaniel(list(moves))}" if moves else text


class Strategy(ABC):
    """A position in (the strategy's side to move), one checked move or None out."""

    def __init__(self, source: str) -> None:
        self.source = source

    def move(self, position: Position, moves: Sequence[int] | None = None) -> int | None:
        """The strategy's move at ``position`` (reached by ``moves`` from the empty board), or None.

        Raises :class:`StrategyError` naming the source and the position when the
        move is not a cell 0..63 or the cell is taken.
        """
        cell = self.choose(position, moves)
        if cell is None:
            return None
        if not isinstance(cell, int) or not 0 <= cell <= 63:
            raise StrategyError(f"{self.source}: at {where(position, moves)} the strategy plays {cell!r}, "
                                "outside the board; expected a cell 0..63")
        if position.at(cell) != ".":
            raise StrategyError(f"{self.source}: at {where(position, moves)} the strategy plays {cell}, "
                                "an occupied cell; expected an empty cell")
        return cell

    @abstractmethod
    def choose(self, position: Position, moves: Sequence[int] | None) -> int | None:
        """The source's answer, unchecked."""

    def close(self) -> None:
        """Release what the source holds (nothing by default)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.source}>"


class DictionaryStrategy(Strategy):
    """A dictionary in Patashnik's format: the entry's move up to symmetry, None without an entry."""

    def __init__(self, source: str, dictionary: StrategyDictionary | None = None,
                 deadline: float | None = None) -> None:
        super().__init__(source)
        self.dictionary = dictionary if dictionary is not None else read_dictionary(source, deadline=deadline)

    def choose(self, position: Position, moves: Sequence[int] | None) -> int | None:
        return self.dictionary.move_for(position)


class PlayerStrategy(Strategy):
    """A registered player, asked afresh at each call (seed 0), so the same game gives the same move."""

    def __init__(self, source: str) -> None:
        from ..players import make_player

        super().__init__(source)
        self.spec = source[len(PLAYER_PREFIX):] if source.startswith(PLAYER_PREFIX) else source
        make_player(self.spec, seed=0)  # an unknown name or option fails here
        self._make = make_player
        self._game = Game()

    def choose(self, position: Position, moves: Sequence[int] | None) -> int | None:
        game = self._follow(moves if moves is not None else game_moves(position))
        if game.position != position:
            raise StrategyError(f"{self.source}: the moves {list(moves or ())} do not reach {where(position)}")
        return self._make(self.spec, seed=0).choose(game).cell

    def _follow(self, moves: Sequence[int]) -> Game:
        """The game of ``moves``, reusing the common beginning of the last one asked about."""
        game = self._game
        same = next((i for i, (m, n) in enumerate(zip(game.moves, moves)) if m != n), min(len(game.moves), len(moves)))
        while len(game.moves) > same:
            game.undo()
        for cell in moves[same:]:
            game.play(cell)
        return game


class AspStrategy(Strategy):
    """ASP rules: ground once with the position as externals; ``play(C)`` of the (optimal) answer set."""

    def __init__(self, source: str, time_limit: float | None = CALL_LIMIT, *, probe: bool = True) -> None:
        from ..engines.asp import AspSession, check_grounding

        super().__init__(source)
        self.time_limit = time_limit
        path = _rule_file(source)
        if probe:  # else the caller has run check_source
            check_grounding([path], time_limit)
        self.session = AspSession(files=[path], rules=("geometry", "threats"), sliced=True)
        self.session.ctl.configuration.solve.models = 0  # optimisation: go on to the optimal model
        atoms = self.session.ctl.symbolic_atoms
        # canonical_play(M): a move in the frame of the canonical-form externals, mapped back at each call
        self._plays = [(a.literal, a.symbol, name == "canonical_play")
                       for name in ("play", "canonical_play") for a in atoms.by_signature(name, 1)]
        if not self._plays:
            raise RuleError(f"{source}: no rule can derive play/1; expected rules whose head is play(C), "
                            "C a cell 0..63")
        self._canonical = _canonical_literals(self.session)

    def choose(self, position: Position, moves: Sequence[int] | None) -> int | None:
        from clingo import SymbolType

        chosen: list[tuple[clingo.Symbol, bool]] = []

        def on_model(model: clingo.Model) -> bool:
            chosen[:] = [(symbol, framed) for literal, symbol, framed in self._plays if model.is_true(literal)]
            return bool(model.cost)  # without optimisation the first answer set is the answer

        cx, co, t = canonical_masks(position.x, position.o)
        try:
            self.session.solve(position, assumptions=self._canonical_assumptions(cx, co), on_model=on_model,
                               time_limit=self.time_limit)
        except QubicError as exc:
            raise type(exc)(f"{self.source}: at {where(position, moves)}: {exc}") from None
        if len(chosen) > 1:
            raise StrategyError(f"{self.source}: at {where(position, moves)} the answer set holds "
                                f"{len(chosen)} moves ({', '.join(str(symbol) for symbol, _ in chosen)}); expected "
                                "at most one play/1 or canonical_play/1 atom")
        if not chosen:
            return None
        symbol, framed = chosen[0]
        (arg,) = symbol.arguments
        if arg.type != SymbolType.Number or framed and not 0 <= arg.number <= 63:
            raise StrategyError(f"{self.source}: at {where(position, moves)} the strategy plays "
                                f"{symbol if framed else arg}, not a cell; expected a cell 0..63")
        return TRANSFORMS[INVERSES[t]][arg.number] if framed else arg.number

    def _canonical_assumptions(self, cx: int, co: int) -> list[int]:
        """The canonical-form externals (when the rules declare them) fixed to the canonical form ``cx, co``."""
        if self._canonical is None:
            return []
        xs, os_ = self._canonical
        return [lit if cx >> c & 1 else -lit for c, lit in xs.items()] + \
            [lit if co >> c & 1 else -lit for c, lit in os_.items()]


def _canonical_literals(session) -> tuple[dict[int, int], dict[int, int]] | None:
    """The solver literals of the externals ``canonical_x/1`` and ``canonical_o/1`` (the marks of the
    position's canonical form, see :mod:`qubic_logic.strategy.rules`), or None when the rules use neither."""
    found: list[dict] = []
    for name in ("canonical_x", "canonical_o"):
        atoms = {}
        for atom in session.ctl.symbolic_atoms.by_signature(name, 1):
            if atom.is_external:
                atoms[atom.symbol.arguments[0].number] = atom.literal
                session.ctl.assign_external(atom.symbol, None)  # free: set by assumptions
        found.append(atoms)
    return tuple(found) if any(found) else None  # type: ignore[return-value]


class PrologStrategy(Strategy):
    """Prolog rules consulted once into their own module; the first solution of ``play(C)``."""

    def __init__(self, source: str, time_limit: float | None = CALL_LIMIT) -> None:
        from ..engines.prolog import PrologSession

        super().__init__(source)
        self.time_limit = time_limit
        self.session = PrologSession(_rule_file(source))

    def choose(self, position: Position, moves: Sequence[int] | None) -> int | None:
        try:
            return self.session.first(position, self.time_limit)
        except QubicError as exc:
            raise type(exc)(f"{self.source}: at {where(position, moves)}: {exc}") from None


_loaded: dict[tuple[str, float | None], Strategy] = {}  # in a strategy's worker: the rule files it has loaded


def _ready() -> None:
    """In a supervised worker: nothing (the worker has started and imported this module)."""


def _load_here(source: str, time_limit: float | None) -> None:
    """In a supervised worker: load the rule file (no grounding probe: the worker's limits bound it)."""
    if (source, time_limit) not in _loaded:
        _loaded[source, time_limit] = load_strategy(source, time_limit, probe=False, supervised=False)


def _choose_here(source: str, time_limit: float | None, position: Position, moves) -> int | None:
    """In a supervised worker: the loaded rule file's answer at ``position``."""
    return _loaded[source, time_limit].choose(position, moves)


class SupervisedStrategy(Strategy):
    """A rule file (ASP or Prolog) answering from a supervised worker process.

    The file is loaded and each ``play(C)`` is asked in a
    :class:`~qubic_logic.supervisor.Supervisor` worker: a call past
    ``time_limit`` seconds, a load (grounding, consulting) past ``time_limit``
    seconds of CPU time (so that a busy machine does not fail a large rule
    file) or past ``load_limit`` seconds (or ten times ``time_limit`` when there
    is none: rules that wait), the worker using more than ``memory_limit`` MB,
    or rules that end the process (``halt``) become one error naming the file; Ctrl-C kills the worker at once and reaches the
    caller as :class:`~qubic_logic.errors.Interrupted` (a
    :class:`KeyboardInterrupt`, so a search keeps what it has). A call costs
    one round trip on a pipe.
    """

    def __init__(self, source: str, time_limit: float | None = CALL_LIMIT, *, load_limit: float | None = None,
                 memory_limit: float | None = None) -> None:
        from ..supervisor import DEFAULT_MEMORY_MB, Supervisor

        super().__init__(source)
        _rule_file(source)
        self.time_limit = time_limit
        self.supervisor = Supervisor(memory_limit or DEFAULT_MEMORY_MB)
        try:  # the worker's start (an interpreter, its imports) is not the rules' time
            started = time.monotonic()
            self._call(_ready, limit=load_limit, grace=0.1, what="starting the engine's worker")
            wall = max(load_limit - (time.monotonic() - started), 0.01) if load_limit else \
                LOAD_WAIT * time_limit if time_limit else None
            self._call(_load_here, source, time_limit, limit=wall, cpu_limit=time_limit, grace=0.1,
                       what="loading the rules")
        except QueryTimeout as exc:
            within = f"the call limit of {time_limit:g} s of CPU time" if getattr(exc, "cpu", False) else \
                "the time limit"
            raise QueryTimeout(f"{source}: loading the rules did not finish within {within}; expected rules that "
                               "load at once (does a directive loop, or a rule ground for ever?)") from None

    def _call(self, fn, *args, limit: float | None, what: str, grace: float = 1.0, cpu_limit: float | None = None):
        try:
            return self.supervisor.call(fn, *args, limit=limit, cpu_limit=cpu_limit, grace=grace,
                                        what=f"{self.source}: {what}")
        except QubicError as exc:
            if self.source in str(exc):
                raise
            raise type(exc)(f"{self.source}: {exc}") from None

    def choose(self, position: Position, moves: Sequence[int] | None) -> int | None:
        return self._call(_choose_here, self.source, self.time_limit, position, moves, limit=self.time_limit,
                          what=f"play(C) at {where(position, moves)}")

    def close(self) -> None:
        """Stop the worker."""
        self.supervisor.stop()


def _rule_file(source: str) -> Path:
    """The rule file ``source`` names: a file, else a shipped rule file's name (any folder)."""
    path = Path(source)
    if not path.is_file() and source in strategy_rule_files():
        path = Path(str(STRATEGY_RULES / source))
    if not path.is_file():
        raise RuleError(f"strategy file {source} does not exist; expected a rule file (.lp or .pl), "
                        f"a dictionary file, player:NAME or a shipped name ({', '.join(strategy_rule_files())}, "
                        f"{', '.join(DICTIONARIES)})")
    return path


def check_source(source: str) -> None:
    """The checks of :func:`load_strategy` that open no session: a player's name and options, that a
    file exists (rule files are then loaded by each worker under its limits).

    >>> check_source('no-such-file.lp')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    qubic_logic.errors.RuleError: strategy file no-such-file.lp does not exist; expected a rule file (.lp or .pl), a dictionary file, player:NAME or a shipped name (citrenbaum-pdp4.lp, ...)
    """
    if source.startswith(PLAYER_PREFIX):
        PlayerStrategy(source)
        return
    _rule_file(source)


def load_strategy(source: str, time_limit: float | None = CALL_LIMIT, *, probe: bool = True,
                  supervised: bool = False, load_limit: float | None = None,
                  memory_limit: float | None = None) -> Strategy:
    """The strategy of a source text (see the module text); ``time_limit`` bounds each rule call;
    ``probe``: try the grounding of ASP rules in a child process first; ``supervised``: a rule file
    runs in a :class:`SupervisedStrategy` (``load_limit`` seconds to load, ``memory_limit`` MB).

    >>> load_strategy('player:nobody')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    qubic_logic.errors.QubicError: unknown player 'nobody'; expected one of citrenbaum-1107, ..., solver
    """
    if source.startswith(PLAYER_PREFIX):
        return PlayerStrategy(source)
    if source in DICTIONARIES and not os.path.exists(source):
        return DictionaryStrategy(source, StrategyDictionary.load(str(dictionary_path(source))))
    suffix = os.path.splitext(source)[1]
    if supervised and suffix in (".lp", ".pl"):
        return SupervisedStrategy(source, time_limit, load_limit=load_limit, memory_limit=memory_limit)
    if suffix == ".lp":
        return AspStrategy(source, time_limit, probe=probe)
    if suffix == ".pl":
        return PrologStrategy(source, time_limit)
    return DictionaryStrategy(source, deadline=time.monotonic() + load_limit if load_limit else None)
