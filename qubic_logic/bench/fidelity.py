"""Fidelity: how much of each seed's printed record of its program's play the replica reproduces.

For every surviving record of a program's play — McDaniel's Appendix C and
figures (seed 003), the HP-67 sample game (seed 004), McCarthy's worked
examples (seed 002), Citrenbaum's Appendix III reason lists (seed 000) — the
decisions and whole games the replica reproduces, beside a baseline
(:data:`BEFORE`: a first reading of each program from its seed's prose alone,
without the printed records), and the remaining differences with their reasons. A decision is reproduced when the player, given the record's
moves so far, plays the record's next move (a fresh player per game, asked at
each of its turns in order, so a stored force carries over as in play).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from rich.console import Console
from rich.table import Table

import re

from ..seeds.excerpts import appendix_iii_reasons, sample_game
from ..core import threats
from ..notation import parse_cell, parse_mcdaniel
from ..players import get_player
from ..players.stored_games import appendix_games, stored_games
from ..players.whiz import Whiz
from ..position import Game, Position
from ..search import linemax, treemax
from ..tictactoe import PRINTED_EXAMPLES, TicTacToe, octal_repr


@dataclass
class Fidelity:
    """One seed record against the replica."""

    record: str
    decisions: tuple[int, int]  # reproduced, printed
    games: tuple[int, int] | None = None  # reproduced, printed (None: not a set of games)
    differences: list[str] = field(default_factory=list)


#: The baseline: the same procedures run on a first reading of each program from its seed's prose
#: alone, without the printed records (docs/players.md, "Fidelity").
BEFORE: dict[str, tuple[tuple[int, int], tuple[int, int] | None]] = {
    "McDaniel App. C, player as X (003 L1069-1395)": ((2572, 7124), (106, 1278)),
    "McDaniel App. C, WHIZ alone (disk=off)": ((2572, 7124), (106, 1278)),
    "McDaniel App. C, WHIZ alone at fresh starts": ((60, 132), (39, 132)),
    "McDaniel printed choices (003 L611-L1220)": ((2, 5), None),
    "HP-67 sample game (004 L309-319)": ((10, 10), (1, 1)),
    "McCarthy lmax/tmax examples (002 L984-1043)": ((4, 4), None),
}


def _appendix_c_decisions(spec_options: dict) -> tuple[dict[tuple[int, ...], tuple[int, int]], int]:
    """Each X decision of Appendix C after 1-2,22-4, keyed by the moves up to and including the
    recorded one: (recorded, played); and the number of games reproduced."""
    decisions: dict[tuple[int, ...], tuple[int, int]] = {}
    whole = 0
    for g in appendix_games():
        player = get_player("mcdaniel", **spec_options)
        same = True
        for i in range(4, len(g.moves), 2):
            played = player.choose(Game(list(g.moves[:i]))).cell
            decisions.setdefault(g.moves[: i + 1], (g.moves[i], played))
            same &= played == g.moves[i]
        whole += same
    return decisions, whole


def _why_whiz_differs(history: tuple[int, ...], recorded: int, played: int) -> str:
    p = Position.from_cells(list(history))
    t = threats(p)
    if t.x:
        return "another winning cell" if t.x >> recorded & 1 else "the record forces instead of winning"
    if t.o:
        return "the record answers O's three in a row elsewhere"
    solution = Whiz(p.x, p.o, 2.0).solve()
    if solution is None:
        return "no WHIZ solution: GENEX/DENEM chose another cell"
    if t.forcing_x >> recorded & 1:
        return "WHIZ tries its forces in another order (first force differs)"
    return "the record plays a quiet move where WHIZ has a solution"


def _why_disk_differs(line: tuple[int, ...], kept: set[tuple[int, ...]]) -> str:
    if line not in kept:
        return "only in games the disk leaves out (they pass a win or O's three in a row, rules 1-2)"
    return "two stored games ask different moves after the same moves; the first is played"


def appendix_c(disk: bool) -> Fidelity:
    """Appendix C's X decisions and games, with the disk on or WHIZ alone."""
    decisions, whole = _appendix_c_decisions({"disk": "on" if disk else "off"})
    reasons: Counter[str] = Counter()
    kept = {g.moves[:i] for g in stored_games() for i in range(1, len(g.moves) + 1)}
    for line, (recorded, played) in decisions.items():
        if recorded != played:
            reasons[_why_whiz_differs(line[:-1], recorded, played) if not disk else _why_disk_differs(line, kept)] += 1
    same = sum(r == p for r, p in decisions.values())
    name = "McDaniel App. C, " + ("player as X (003 L1069-1395)" if disk else "WHIZ alone (disk=off)")
    return Fidelity(name, (same, len(decisions)), (whole, len(appendix_games())),
                    [f"{n} decisions: {why}" for why, n in reasons.most_common()])


def fresh_starts() -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Appendix C's X decisions that start a line of their own: O's move before was free (not the
    block of an X three in a row), and the line from here is not one already stored, in the
    appendix's order, for another position (ML64 retried a solution found for one O reply on the
    others, L625: those reuses are not WHIZ's choice). ``(moves so far, stored line)``.
    """
    out, seen, asked = [], set(), set()
    for g in appendix_games():
        m = g.moves
        for i in range(4, len(m), 2):
            if m[:i] in asked:
                continue
            asked.add(m[:i])
            if i > 4:
                before = Position.from_cells(list(m[: i - 1]))
                if threats(before).x == 1 << m[i - 1]:
                    continue  # O blocked X's only three in a row: a forced move
            line = m[i:]
            if line not in seen:
                out.append((m[:i], line))
            seen.add(line)
    return out


def appendix_c_fresh() -> Fidelity:
    """WHIZ alone (disk off) at the fresh starts: first move and whole line as stored."""
    first = whole = 0
    starts = fresh_starts()
    for history, line in starts:
        player = get_player("mcdaniel", disk="off")
        played = [player.choose(Game([*history, *line[:k]])).cell == line[k] for k in range(0, len(line), 2)]
        first += played[0]
        whole += all(played)
    return Fidelity("McDaniel App. C, WHIZ alone at fresh starts", (first, len(starts)), (whole, len(starts)),
                    [f"{len(starts) - first} fresh starts: WHIZ's first move differs (force order; the author's "
                     "kibitzing, L707, also steered WHIZ by hand)"])


#: McDaniel's printed choices of his program: (moves before, X's move, seed line, what printed it).
MCDANIEL_PRINTED = [
    ("1-2,22-4", 27, "L611", "DENEM chose 27"),
    ("1-2,22-4,27-16", 26, "L625", "GENEX generates 26 (ML64: no solution)"),
    ("1-2,22-4,27-3", 43, "L654", "Fig. 24: the stored line 43-64,..."),
    ("1-2,22-4,27-17", 26, "L1201", "Appendix C: GENEX's 26 after 27-17"),
    ("1-2,22-4,27-32", 26, "L1220", "Appendix C: GENEX's 26 after 27-32"),
]


def mcdaniel_printed() -> Fidelity:
    """The choices McDaniel's text prints, asked of the player and of WHIZ/GENEX alone."""
    same, differences = 0, []
    for before, cell, line, what in MCDANIEL_PRINTED:
        game = Game(parse_mcdaniel(before))
        played = get_player("mcdaniel").choose(game).cell + 1
        alone = get_player("mcdaniel", disk="off").choose(game)
        same += played == cell
        if played != cell:
            differences.append(f"{line} {what}: the player plays {played}")
        if alone.cell + 1 != cell:
            differences.append(f"{line} {what}: with disk=off, {alone.explain('number')} -> {alone.cell + 1}")
    return Fidelity("McDaniel printed choices (003 L611-L1220)",
                    (same, len(MCDANIEL_PRINTED)), None, differences)


def hp67() -> Fidelity:
    """The HP-67 sample game: the machine's ten replies to Alan's moves."""
    player, game = get_player("hp67"), Game()
    same, differences = 0, []
    for line, human, machine in sample_game():
        game.play(parse_cell(human))
        move = player.choose(game)
        shown = machine.removeprefix("1")
        if move.cell == parse_cell(shown):
            same += 1
        else:
            differences.append(f"L{line}: printed {machine}, played {move.explain('hp67')}")
        game.play(parse_cell(shown))
    rows = len(sample_game())
    return Fidelity("HP-67 sample game (004 L309-319)", (same, rows), (int(same == rows), 1), differences)


def mccarthy() -> Fidelity:
    """McCarthy's worked examples: the printed lmax and tmax of two tic-tac-toe positions."""
    same, differences = 0, []
    for title, example in PRINTED_EXAMPLES.items():
        for kind, search in (("line", linemax), ("tree", treemax)):
            t = TicTacToe(example["moves"])
            got = octal_repr(search(t, t.p1, -1000, 1000))
            same += got == example[kind]
            if got != example[kind]:
                differences.append(f"{title} {kind}: {got}")
    return Fidelity("McCarthy lmax/tmax examples (002 L984-1043)", (same, 2 * len(PRINTED_EXAMPLES)),
                    None, differences)


def records() -> list[Fidelity]:
    """Every record, in the order of the report."""
    return [appendix_c(True), appendix_c(False), appendix_c_fresh(), mcdaniel_printed(), hp67(), mccarthy()]


def _share(pair: tuple[int, int] | None) -> str:
    if pair is None:
        return "-"
    done, total = pair
    return f"{done}/{total} ({100 * done / total:.1f}%)"


#: The replica's explanations matched to Appendix III's reasons (the 1107's own WRITE texts,
#: L5331-5784, differ from the reasons Appendix III prints; TRY2's "2-0 file in a promising square"
#: is counted as "forms an excess plane").
REPLICA_REASONS: tuple[tuple[str, str], ...] = (
    ("preset move", r"preset"),
    ("continues a TFS", r"^continues"),
    ("makes a 4-0 file (wins)", r"4-0 file"),
    ("forms two 3-0 files", r"^plays the major cell"),
    ("moves to a watch cell", r"in hopes"),
    ("starts a TFS", r"starts a terminal"),
    ("blocks a TFS", r"possible force"),
    ("blocks a related pair", r"related pair"),
    ("blocks a three in a row", r"0-3 file"),
    ("forms an excess plane", r"promising square"),
)


def reason_kind(explanation: str) -> str:
    """The Appendix III reason a replica explanation stands for (``'other'`` if none).

    >>> reason_kind("blocks a possible force in plane 3")
    'blocks a TFS'
    """
    return next((kind for kind, pattern in REPLICA_REASONS if re.search(pattern, explanation)), "other")


def self_play_reasons(games: int) -> Counter[str]:
    """Reasons over ``games`` self-play games of ``citrenbaum-1107`` (game g: both sides preset offset g)."""
    counts: Counter[str] = Counter()
    for g in range(games):
        players = {"x": get_player("citrenbaum-1107", seed=g), "o": get_player("citrenbaum-1107", seed=g + 1)}
        game = Game()
        while not game.position.is_over:
            move = players[game.position.to_move].choose(game)
            counts[reason_kind(move.explanation)] += 1
            game.play(move.cell)
        counts["game ends in a tie" if game.position.is_draw else "game won"] += 1
    return counts


def appendix_iii_table(games: int) -> Table:
    """Citrenbaum's Appendix III reasons per game beside the replica's self-play (1107 v 1107)."""
    printed = appendix_iii_reasons()
    played = self_play_reasons(games)
    kinds = sorted({k for c in [*printed.values(), played] for k in c}, key=lambda k: (k == "other", k))
    table = Table(title=f"Citrenbaum Appendix III: reasons per game (seed 000 L3545-4138) "
                        f"beside {games} self-play games of citrenbaum-1107 (mean per game)")
    printed["Game One"]["game ends in a tie"] = 1  # L3792-3795, and the 1107 printed "TIE" (L5336-5352)
    printed["Game Two"]["game won"] = printed["Game Three"]["game won"] = 1  # L3551-3555
    table.add_column("reason")
    for title in printed:
        table.add_column(title, justify="right")
    table.add_column("replica", justify="right")
    for kind in kinds:
        table.add_row(kind, *(str(c.get(kind, 0)) for c in printed.values()), f"{played.get(kind, 0) / games:.2f}")
    return table


def run(console: Console, quick: bool = False) -> None:
    table = Table(title="seed records of the programs' play reproduced by the replicas")
    for column in ("record", "decisions before", "decisions now", "games before", "games now"):
        table.add_column(column, justify="left" if column == "record" else "right")
    found = records()
    for f in found:
        before = BEFORE.get(f.record, (None, None))
        table.add_row(f.record, _share(before[0]), _share(f.decisions), _share(before[1]), _share(f.games))
    console.print(table)
    for f in found:
        for text in f.differences:
            console.print(f"  [dim]{f.record.split(' (')[0]}:[/dim] {text}")
    console.print(appendix_iii_table(4 if quick else 20))


__all__ = ["BEFORE", "Fidelity", "appendix_c", "hp67", "mccarthy", "mcdaniel_printed", "reason_kind", "records",
           "run", "self_play_reasons"]
