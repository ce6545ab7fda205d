"""``qubic list strategies|dictionaries|players``: what ships with qubic-logic, one line each.

Shipped resources are used by name from any folder: ``qubic verify dictionary
patashnik``, ``qubic verify strategy open-lines.lp``, ``qubic reply hp67 .231``.
"""

from __future__ import annotations

import argparse

from ..errors import QubicError
from ..notation import shown
from ..players import REGISTRY, player_names
from ..shipped import DICTIONARIES, rule_file_summary, strategy_rule_files
from ._common import json_arg, print_json
from ._terminal import plain, say

KINDS = ("strategies", "dictionaries", "players")


def shipped(kind: str) -> list[tuple[str, str]]:
    """``(name, description)`` of each shipped resource of ``kind`` (one of :data:`KINDS`).

    >>> dict(shipped('dictionaries'))['patashnik'][:22]
    "Patashnik's 1977 dicti"
    """
    if kind not in KINDS:
        raise QubicError(f"cannot list {shown(kind)}; expected one of {', '.join(KINDS)}")
    if kind == "dictionaries":
        return [(name, about) for name, (_, about) in DICTIONARIES.items()]
    if kind == "players":
        return [(name, REGISTRY[name][1]) for name in player_names()]
    rules = [(name, rule_file_summary(name)) for name in strategy_rule_files()]
    return rules + [(name, f"the dictionary as a strategy: {about}") for name, (_, about) in DICTIONARIES.items()] + [
        ("player:NAME", "any player as a strategy (qubic list players)")]


def run(args: argparse.Namespace) -> int:
    items = shipped(args.kind)
    if args.json:
        print_json({args.kind: [{"name": n, "description": d} for n, d in items]})
        return 0
    width = max(len(name) for name, _ in items)
    for name, about in items:
        say(f"{name:<{width}}  {about}", hang=width + 2)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("list", description=plain(__doc__))
    parser.add_argument("kind", metavar="KIND", choices=KINDS, help=f"what to list: {', '.join(KINDS)}")
    json_arg(parser)
    parser.set_defaults(func=run)
