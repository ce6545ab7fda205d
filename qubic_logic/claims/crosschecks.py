"""The same figures computed by the Python side (geometry, symmetry, the bitboard core).

Each function returns the figures of one claim under the names its rules file
uses; the runner holds the declarative result to them. They share no code
with the rules files: the group comes from :mod:`qubic_logic.symmetry` or a
line-preserving search, forced wins from the native/Python core.

>>> lines()['lines']
76
"""

from __future__ import annotations

import tomllib
from collections import Counter
from collections.abc import Callable
from typing import Any

from ..core import core_module, shortest_forced_win
from ..errors import IllegalMoveError, IllegalPositionError
from ..geometry import LINES, LINES_THROUGH, PLANE_LINES, PLANES, PLANES_THROUGH, line_kind, mask_of
from ..notation import parse_cell, parse_position
from ..position import Position
from ..referee import replay_forced_win
from ..symmetry import TRANSFORMS, canonical_masks, cell_orbits
from . import plane
from ..seeds import excerpts
from .catalog import claims_dir
from .counting import (
    canonical,
    classes,
    count_classes,
    k_subsets,
    line_automorphisms,
    orbit_size_histogram,
    stabilizer_order,
)

Figures = dict[str, Any]


def lines() -> Figures:
    kinds = Counter(line_kind(line).replace(" ", "_") for line in LINES)
    return {"lines": len(LINES), **kinds}


def planes() -> Figures:
    return {"planes": len(PLANES), "lines_per_plane": sorted({len(p) for p in PLANE_LINES})}


def prime_cells() -> Figures:
    count = Counter(len(t) for t in LINES_THROUGH)
    return {"cells_on_7_lines": count[7], "cells_on_4_lines": count[4],
            "prime_cells": [c + 1 for c in range(64) if len(LINES_THROUGH[c]) == 7]}


def planes_per_cell() -> Figures:
    count = Counter(len(t) for t in PLANES_THROUGH)
    return {"cells_in_6_planes": count[6], "cells_in_4_planes": count[4],
            "six_plane_cells_are_seven_line_cells":
                all((len(PLANES_THROUGH[c]) == 6) == (len(LINES_THROUGH[c]) == 7) for c in range(64))}


def planar_primes() -> Figures:
    def prime_in(c: int, p: int) -> bool:
        return sum(c in LINES[i] for i in PLANE_LINES[p]) == 3
    counts = [sum(prime_in(c, p) for p in PLANES_THROUGH[c]) for c in range(64)]
    cubic = [len(LINES_THROUGH[c]) == 7 for c in range(64)]
    return {
        "cells_prime_in_some_plane": sum(1 for n in counts if n),
        "primes_planar_prime_in_all_their_planes": sum(
            1 for c in range(64) if cubic[c] and counts[c] == len(PLANES_THROUGH[c])),
        "nonprimes_planar_prime_in_exactly_one_plane": sum(
            1 for c in range(64) if not cubic[c] and counts[c] == 1),
    }


def automorphisms() -> Figures:
    return {"automorphisms": len(line_automorphisms(64, LINES))}


def first_moves() -> Figures:
    return {"first_move_classes": len(cell_orbits())}


def _stabilizer_of_x() -> list[tuple[int, ...]]:
    return [t for t in TRANSFORMS if {t[0], t[21]} == {0, 21}]


def appendix_b() -> Figures:
    group = _stabilizer_of_x()
    others = [c for c in range(64) if c not in (0, 21)]
    pairs = k_subsets(others, 2)
    total = count_classes(group, pairs)
    entries = excerpts.appendix_b()
    seen: dict[tuple, int] = {}
    duplicates, not_x_1_22 = [], []
    for e in entries:
        x1, o1, x2, o2 = (n - 1 for n in e.numbers)
        if {x1, x2} != {0, 21} or o1 == o2 or {o1, o2} & {0, 21}:
            not_x_1_22.append(e.line)
            continue
        # the full group's canonical form: independent of the stabilizer used for the count
        key = canonical_masks(1 << x1 | 1 << x2, 1 << o1 | 1 << o2)[:2]
        if key in seen:
            duplicates.append(e.line)
        seen[key] = e.line
    missing = [[a + 1, b + 1] for ((a, b),), members in classes(group, pairs).items()
               if canonical_masks(1 << 0 | 1 << 21, 1 << a | 1 << b)[:2] not in seen]
    return {"classes": total, "listed": len(entries), "listed_distinct": len(seen), "duplicates": duplicates,
            "not_x_on_1_and_22": not_x_1_22, "missing": total - len(seen), "missing_classes": missing}


def _planar_canonical(group, cells) -> tuple:
    return canonical(group, (frozenset(k - 1 for k in cells),))


def table_ii() -> Figures:
    group = plane.plane_group()
    wrong = []
    for e in excerpts.table_ii():
        is_line = plane.two_zero_files(list(e.numbers), at_least=3) > 0
        if e.label == "three in a row":
            ok = is_line
        elif e.label == "unique":
            ok = not is_line and sum(_planar_canonical(group, u.numbers) == _planar_canonical(group, e.numbers)
                                     for u in excerpts.table_ii() if u.label == "unique") == 1
        else:
            target = tuple(int(v) for v in e.label.split())
            ok = _planar_canonical(group, e.numbers) == _planar_canonical(group, target)
        if not ok:
            wrong.append(e.line)
    prime_triples = [c for c in k_subsets([k - 1 for k in plane.PLANAR_PRIMES], 3)
                     if not plane.two_zero_files([k + 1 for k in c[0]], at_least=3)]
    return {"rows": len(excerpts.table_ii()), "rows_correct": len(excerpts.table_ii()) - len(wrong),
            "wrong_rows": wrong, "unique_classes": count_classes(group, prime_triples)}


_CATEGORY = {"three in a row": "three_in_a_row", "no two in a row": "no_two_in_a_row",
             "no solution": "no_solution", "forced win": "forced_wins"}


def table_iv() -> Figures:
    group = plane.plane_group()
    found = classes(group, k_subsets(range(16), 3))
    counts = Counter(_CATEGORY[plane.situation_category([c + 1 for c in key[0]])] for key in found)
    wrong = []
    listed = set()
    for e in excerpts.table_iv():
        listed.add(_planar_canonical(group, e.numbers))
        if _CATEGORY[plane.situation_category(list(e.numbers))] != e.label.replace(" ", "_"):
            wrong.append(e.line)
    return {"classes": len(found), "listed_distinct": len(listed), "rows_correct": 28 - len(wrong),
            "wrong_rows": wrong, **counts}


def trap_blocks() -> Figures:
    o = [1, 4, 13]
    return {"blocking_cells": [k for k in range(1, 17) if k not in o
                               and plane.forced_win_length(o, [k]) == 0]}


def erdos_selfridge() -> Figures:
    values = {e_index: plane.erdos_selfridge_value(list(e.numbers))
              for e_index, e in enumerate(excerpts.table_iv(), 1)}
    return {"undetected_draws": [n for n in range(4, 9) if values[n] >= 16],
            "values": [[n, v] for n, v in values.items()]}


def planes_3_0() -> Figures:
    d4 = plane.dihedral_group()
    configs = k_subsets(range(16), 3)
    found = classes(d4, configs)
    hist = orbit_size_histogram(d4, configs)
    tfs = sum(1 for key in found if plane.forced_win_length([c + 1 for c in key[0]], []))
    return {"configurations": len(configs), "classes": len(found), "eight_symmetry": hist.get(8, 0),
            "four_symmetry": hist.get(4, 0), "with_tfs": tfs}


def planes_3_0_two_zero() -> Figures:
    d4 = plane.dihedral_group()
    found = classes(d4, k_subsets(range(16), 3))
    by_count = Counter(plane.two_zero_files([c + 1 for c in key[0]]) for key in found)
    four = [key for key, members in found.items() if stabilizer_order(d4, members[0]) == 2]
    rule = all(bool(plane.forced_win_length([c + 1 for c in key[0]], []))
               == (plane.two_zero_files([c + 1 for c in key[0]]) in (1, 3)) for key in four)
    return {f"classes_with_{n}": by_count[n] for n in range(4)} | {"four_symmetry_rule_holds": rule}


def planes_4_0() -> Figures:
    d4 = plane.dihedral_group()
    configs = k_subsets(range(16), 4)
    without = [c for c in configs if not plane.two_zero_files([k + 1 for k in c[0]])]
    with_tfs = all(plane.forced_win_length([k + 1 for k in c[0]], []) > 0 or plane.four_in_a_row(c[0])
                   for c in configs if plane.two_zero_files([k + 1 for k in c[0]]))
    return {"configurations": len(configs), "with_two_zero": len(configs) - len(without),
            "without_two_zero": len(without), "classes_without_two_zero": count_classes(d4, without),
            "orbit_sizes_without": [s for s, n in orbit_size_histogram(d4, without).items() for _ in range(n)],
            "every_one_with_two_zero_has_tfs": with_tfs}


def planes_5_0() -> Figures:
    group = plane.plane_group()
    found = classes(group, k_subsets(range(16), 5))
    return {"configurations": sum(len(m) for m in found.values()),
            "every_one_has_tfs": all(plane.forced_win_length([k + 1 for k in key[0]], []) > 0
                                     or plane.four_in_a_row(key[0]) for key in found)}


def plane_17_trap() -> Figures:
    start = parse_position("1-2,22-52,27")
    lengths = {}
    for reply in start.legal_moves():
        after = start.play(reply)
        lengths[reply + 1] = shortest_forced_win(after).length or 0
    saving = [r for r, n in lengths.items() if n == 0]
    return {"saving_replies": saving, "longest_win": max(lengths.values()),
            "saving_replies_in_plane_17": all(r - 1 in PLANES[16] for r in saving)}


def _win_length(a: int, d: int) -> int:
    """Shortest forced win of ``a`` (to move) against ``d`` on masks; 0 when none."""
    return core_module().forced_win(a, d)[0]


def _variation_result(moves: tuple[int, ...]) -> str:
    """``'win'``, ``'stop'`` or ``'problem'``: a Table III variation replayed with the core's threat scans."""
    threats = core_module().threat_cells
    o, x = mask_of(k - 1 for k in (1, 4, 13)), 0
    for i in range(0, len(moves), 2):
        bit = 1 << (moves[i] - 1)
        mine, theirs = threats(o, x), threats(x, o)
        if (o | x) & bit:
            return "problem"
        if mine:
            return "win" if mine & bit and i == len(moves) - 1 else "problem"
        if theirs.bit_count() >= 2 or (theirs and theirs != bit):
            return "problem"
        o |= bit
        new = threats(o, x)
        if i == len(moves) - 1:
            return "stop"
        if not new:
            return "problem"
        reply = 1 << (moves[i + 1] - 1)
        if (new.bit_count() == 1 and new != reply) or (o | x) & reply:
            return "problem"
        x |= reply
    return "stop, O still wins" if _win_length(o, x) else "stop"


def table_iii_003() -> Figures:
    rows = excerpts.table_iii()
    results = {e.line: _variation_result(e.numbers) for e in rows if e.label != "reference"}
    return {"variations": len(results), "references": sum(e.label == "reference" for e in rows),
            "solution_lines": sum(e.label == "solution" for e in rows),
            "tagged_solutions_win": sum(results[e.line] == "win" for e in rows if e.label == "solution"),
            "untagged_lines_win": sum(results[e.line] == "win" for e in rows if e.label == ""),
            "illegal_line_count": sum(r == "problem" for r in results.values()),
            "stopped_lines_o_still_wins": [line for line, r in results.items() if r == "stop, O still wins"]}


def appendix_c() -> Figures:
    records = excerpts.appendix_c()
    total = ok = 0
    bad_records = set()
    for r, record in enumerate(records):
        for game in excerpts.record_games(record):
            total += 1
            p = Position()
            try:
                for cell, _line in game:
                    if (cell > 0) != (p.to_move == "x") or p.is_over:
                        raise IllegalPositionError("out of turn or after the end")
                    p = p.play(abs(cell) - 1)
                good = p.winner == "x"
            except (IllegalMoveError, IllegalPositionError):
                good = False
            ok += good
            if not good:
                bad_records.add(r)
    return {"records": len(records), "games": total, "games_ok": ok, "records_with_problems": len(bad_records),
            "all_replay_and_x_wins": ok == total}


def table_iii_000() -> Figures:
    path = claims_dir().joinpath("seed000-table-iii.toml")
    rows = tomllib.loads(path.read_text(encoding="utf-8"))["row"]
    agreeing = 0
    for row in rows:
        cells = row["cells"]
        tfs = plane.forced_win_length(cells, []) > 0
        openings = plane.opening_moves(cells)
        good = row.get("two_zero", plane.two_zero_files(cells)) == plane.two_zero_files(cells)
        good = good and row["tfs"] == tfs
        if "openings" in row and row["tfs"]:
            good = good and (set(row["openings"]) <= set(openings) if row.get("openings_partial")
                             else sorted(row["openings"]) == openings)
        agreeing += good
    return {"rows": len(rows), "rows_agreeing": agreeing}


def line_sums() -> Figures:
    contents = [(c, o) for c in range(5) for o in range(5) if c + o <= 4]
    sums = {5 * c + o for c, o in contents}
    named = {f"sum_{5 * c + o}": f"{c} computer, {o} opponent, {4 - c - o} empty" for c, o in contents
             if 5 * c + o in (10, 11, 20, 4, 15, 3)}
    return {"contents": len(contents), "distinct_sums": len(sums),
            "sums_identify_contents": len(sums) == len(contents), **named}


_ML64_REPLIES = (3, 5, 7, 8, 9, 10, 12, 13, 14, 15, 18, 19, 20, 21, 23, 25, 26, 28, 29, 30, 31, 34, 35, 36, 37,
                 39, 40, 41, 42, 45, 46, 47, 50, 51, 52, 53, 55, 56, 57, 58, 60, 61, 62, 63)
_ML64_LINE = (43, 64, 11, 59, 17, 32, 49, 33, 16, 38, 6)


def ml64_compaction() -> Figures:
    def wins(reply: int) -> bool:
        try:
            replay_forced_win(parse_position(f"1-2,22-4,27-{reply}"), [c - 1 for c in _ML64_LINE])
        except IllegalMoveError:
            return False
        return True
    fails = [r for r in _ML64_REPLIES if not wins(r)]
    return {"listed_replies": len(_ML64_REPLIES), "line_wins_for_listed": len(_ML64_REPLIES) - len(fails),
            "line_fails_for": fails,
            "x_forced_win_after_16": shortest_forced_win(parse_position("1-2,22-4,27-16")).found}


def strong_squares() -> Figures:
    strong = [c + 1 for c in range(64) if len(LINES_THROUGH[c]) == 7]
    return {"strong": strong, "strong_count": len(strong), "weak_count": 64 - len(strong)}


def sample_game() -> Figures:
    p = Position()
    moves = []
    for _line, human, machine in excerpts.sample_game():
        moves += [human, machine.lstrip("1") if machine.startswith("1.") else machine]
    for cell in (parse_cell(m, "hp67") for m in moves):
        p = p.play(cell)
    return {"legal": True, "winner": {"x": "human", "o": "machine"}.get(p.winner or "", "none"),
            "decided_at_move": (len(moves) + 1) // 2}


def doake_patterns_force() -> Figures:
    from ..players.doake.claim import figures, pattern_cases

    return figures(pattern_cases())


CROSSCHECKS: dict[str, Callable[[], Figures]] = {
    f.__name__: f for f in (lines, planes, prime_cells, planes_per_cell, planar_primes, automorphisms,
                            first_moves, appendix_b, table_ii, table_iv, trap_blocks, erdos_selfridge,
                            planes_3_0, planes_3_0_two_zero, planes_4_0, planes_5_0, plane_17_trap, ml64_compaction, table_iii_003, appendix_c, table_iii_000, line_sums,
                            strong_squares,
                            sample_game, doake_patterns_force)
}
