"""Engine-versus-engine games: one game, a series between two players, a round robin.

Games run in worker processes (``jobs``); players that take a ``seed`` get a
different one each game, derived from the series seed, so a series is
repeatable. Results are plain data: :class:`GameRecord` per game,
:class:`SeriesResult` per pair, and renderers for the tables.

>>> r = play_game('greedy', 'random', seed=1)
>>> r.result in ('x', 'o', 'draw'), r.moves == list(r.moves)
(True, True)
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field

from .errors import QubicError
from .executor import make_executor
from .notation import format_mcdaniel
from .players import make_player
from .position import Game


@dataclass(frozen=True)
class GameRecord:
    """One finished game: who played, the moves (0..63), the result, time spent per side."""

    x: str
    o: str
    moves: list[int]
    result: str  # 'x', 'o' or 'draw'
    seconds: dict[str, float]
    seed: int | None = None

    @property
    def length(self) -> int:
        """Number of moves (both sides)."""
        return len(self.moves)

    def to_json(self) -> dict:
        """The record as saved by ``qubic match --save`` (moves also in McDaniel's 1..64 form)."""
        return {**asdict(self), "mcdaniel": format_mcdaniel(self.moves)}


def play_game(x: str, o: str, seed: int | None = None, opening: int = 0) -> GameRecord:
    """Play one game between two player specs; an illegal move raises :class:`QubicError`.

    The first ``opening`` moves are random (drawn from ``seed``), so that
    deterministic players meet in varied games; the players play the rest.

    >>> a, b = (play_game('greedy', 'greedy', seed=3, opening=2) for _ in range(2))
    >>> a.moves == b.moves, len({tuple(play_game('greedy', 'greedy', s, opening=2).moves[:2]) for s in range(5)}) > 1
    (True, True)
    """
    players = {"x": make_player(x, seed), "o": make_player(o, None if seed is None else seed + 1)}
    game = Game()
    rng = random.Random(seed)
    for _ in range(opening):
        game.play(rng.choice(game.position.legal_moves()))
    seconds = {"x": 0.0, "o": 0.0}
    while not game.position.is_over:
        side = game.position.to_move
        start = time.perf_counter()
        move = players[side].choose(game)
        seconds[side] += time.perf_counter() - start
        if move.cell not in game.position.legal_moves():
            raise QubicError(f"player {players[side].name!r} chose {move.cell}, which is not a legal "
                             f"move after {game.moves}; expected an empty cell")
        game.play(move.cell)
    p = game.position
    return GameRecord(x, o, list(game.moves), p.winner or "draw", seconds, seed)


@dataclass
class SeriesResult:
    """Games between two players, scored from ``a``'s side."""

    a: str
    b: str
    games: list[GameRecord] = field(default_factory=list)

    def score(self, player: str, side: str) -> tuple[int, int, int]:
        """Wins, draws, losses of ``player`` when it played ``side``."""
        gs = [g for g in self.games if getattr(g, side) == player]
        w = sum(g.result == side for g in gs)
        d = sum(g.result == "draw" for g in gs)
        return w, d, len(gs) - w - d

    def time_per_move(self, player: str, side: str) -> float:
        """Mean seconds per move of ``player`` when it played ``side``."""
        total = moves = 0.0
        for g in self.games:
            if getattr(g, side) == player:
                total += g.seconds[side]
                moves += (g.length + (side == "x")) // 2
        return total / moves if moves else 0.0

    def mean_length(self) -> float:
        """Mean number of moves per game."""
        return sum(g.length for g in self.games) / len(self.games) if self.games else 0.0


def schedule(a: str, b: str, games: int, swap_sides: bool, seed: int) -> list[tuple[str, str, int]]:
    """``(x, o, seed)`` of each game of a series; with ``swap_sides`` every other game swaps.

    >>> schedule('hp67', 'greedy', 3, True, 7)
    [('hp67', 'greedy', 7000), ('greedy', 'hp67', 7001), ('hp67', 'greedy', 7002)]
    """
    return [((b, a) if swap_sides and i % 2 else (a, b)) + (seed * 1000 + i,) for i in range(games)]


def _play(task: tuple) -> GameRecord:
    return play_game(*task)


def run_games(
    tasks: list[tuple],
    jobs: int = 1,
    time_limit: float | None = None,
    progress: Callable[[GameRecord], None] | None = None,
) -> tuple[list[GameRecord], str | None]:
    """Play the games (``jobs`` processes); returns the records in task order and why it stopped early.

    Past ``time_limit`` seconds, or on Ctrl-C, the games still running are
    stopped and the finished ones returned with ``'time limit'`` or
    ``'interrupted'``; ``None`` when every game ran. Unknown player names fail
    before any game.
    """
    deadline = None if time_limit is None else time.monotonic() + time_limit
    for spec in dict.fromkeys(spec for x, o, *_ in tasks for spec in (x, o)):
        make_player(spec)  # raises a clear error for an unknown name or option
    done: dict[int, GameRecord] = {}
    stopped = None
    if jobs <= 1:
        try:
            for i, task in enumerate(tasks):
                if deadline and time.monotonic() > deadline:
                    stopped = "time limit"
                    break
                done[i] = _play(task)
                if progress:
                    progress(done[i])
        except KeyboardInterrupt:
            stopped = "interrupted"
        return [done[i] for i in sorted(done)], stopped
    with make_executor("local", jobs) as executor:
        run = executor.run(_play, tasks, time_limit=time_limit)
        for i, record in run:
            done[i] = record
            if progress:
                progress(record)
    return [done[i] for i in sorted(done)], run.stopped


def series_table(result: SeriesResult) -> list[list[str]]:
    """Rows of the results table: player, side, wins, draws, losses, time per move."""
    rows = []
    for player in dict.fromkeys((result.a, result.b)):
        for side in ("x", "o"):
            w, d, l = result.score(player, side)
            if w + d + l:
                rows.append([player, side.upper(), str(w), str(d), str(l),
                             f"{result.time_per_move(player, side) * 1000:.1f} ms"])
    return rows


def _wdl(records: list[GameRecord], side: str) -> tuple[int, int, int]:
    w = sum(g.result == side for g in records)
    d = sum(g.result == "draw" for g in records)
    return w, d, len(records) - w - d


def cross_table(records: Iterable[GameRecord], names: list[str]) -> str:
    """Markdown cross table: row = X player, column = O player, cell = X's wins-draws-losses.

    The last column sums each player's games as X; the last row gives each
    column player's own wins-draws-losses as O.

    >>> print(cross_table([GameRecord('a', 'b', [0], 'x', {'x': 0, 'o': 0})], ['a', 'b']))
    | X vs O | a | b | as X |
    |---|---|---|---|
    | **a** | - | 1-0-0 | 1-0-0 |
    | **b** |  | - | 0-0-0 |
    | *as O* | 0-0-0 | 0-0-1 | X won 1 of 1 |
    """
    records = list(records)
    lines = ["| X vs O | " + " | ".join(names) + " | as X |", "|" + "---|" * (len(names) + 2)]
    text = lambda t: "-".join(map(str, t))
    for a in names:
        cells = []
        for b in names:
            gs = [g for g in records if g.x == a and g.o == b]
            cells.append("-" if a == b else text(_wdl(gs, "x")) if gs else "")
        as_x = text(_wdl([g for g in records if g.x == a], "x"))
        lines.append(f"| **{a}** | " + " | ".join(cells) + f" | {as_x} |")
    as_o = [text(_wdl([g for g in records if g.o == b], "o")) for b in names]
    x_wins = sum(g.result == "x" for g in records)
    lines.append("| *as O* | " + " | ".join(as_o) + f" | X won {x_wins} of {len(records)} |")
    return "\n".join(lines)


def save_games(path: str, records: list[GameRecord]) -> None:
    """Write every game as JSON (one object with a ``games`` list), atomically."""
    from .saving import write_atomically

    games = ",\n".join(" " + json.dumps(g.to_json()) for g in records)
    write_atomically(path, '{"games": [\n' + games + "\n]}\n")
