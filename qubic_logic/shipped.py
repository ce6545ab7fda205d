"""What ships with the package, by name: strategy dictionaries, strategies written as rules, players.

A shipped resource is named, not pathed, so the same name works from any folder
(``qubic verify dictionary patashnik``, ``qubic verify strategy open-lines.lp``)
and in the browser. A name that is also an existing file means the file.

>>> dictionary_path('patashnik').name
'patashnik-qubic.dictionary'
>>> 'open-lines.lp' in strategy_rule_files()
True
>>> resolve_dictionary('patashnik').endswith('patashnik-qubic.dictionary')
True
"""

from __future__ import annotations

import os
import re
from importlib.resources import files
from pathlib import Path

from .errors import QubicError
from .notation import shown

#: Shipped strategy dictionaries: name -> (file in qubic_logic/data, one line about it).
DICTIONARIES = {
    "patashnik": ("patashnik-qubic.dictionary",
                  "Patashnik's 1977 dictionary: X's move in 2,929 positions (a win for X)"),
    "qubic-logic-solved": ("qubic-logic-solved.dictionary",
                           "found by this project's solver: X's move in 2,132 positions"),
    "qubic-logic-lines": ("qubic-logic-lines.dictionary",
                          "the same 2,132 positions, moves chosen to share wildcard lines: 370 lines"),
    "qubic-logic-smallest": ("qubic-logic-smallest.dictionary",
                             "the smallest found: X's move in 1,773 positions (our proofs, Patashnik's second moves)"),
}
STRATEGY_RULES = files("qubic_logic.rules") / "strategies"  # strategies written as rules, shipped


def dictionary_path(name: str) -> Path:
    """The file of the shipped dictionary ``name``."""
    if name not in DICTIONARIES:
        raise QubicError(f"no shipped dictionary {shown(name)}; expected one of {', '.join(DICTIONARIES)}")
    return Path(str(files("qubic_logic") / "data" / DICTIONARIES[name][0]))


def strategy_rule_files() -> list[str]:
    """The names of the shipped strategy rule files (ASP and Prolog)."""
    return sorted(f.name for f in STRATEGY_RULES.iterdir() if f.name.endswith((".lp", ".pl")))


def rule_file_summary(name: str) -> str:
    """The one-line description in a shipped rule file's first line (after ``--``; else the whole comment)."""
    first = (STRATEGY_RULES / name).read_text(encoding="utf-8").split("\n", 1)[0]
    about = first.partition(" -- ")[2] or first.lstrip("%/* ")
    return re.sub(r"\s*\*/\s*$", "", about).strip().rstrip(".")


def resolve_dictionary(text: str) -> str:
    """The dictionary file ``text`` names: an existing file, else a shipped dictionary's name."""
    if os.path.exists(text) or text not in DICTIONARIES:
        if not os.path.exists(text):
            raise QubicError(f"no file or shipped dictionary {shown(text)}; shipped dictionaries: "
                             f"{', '.join(DICTIONARIES)} (qubic list dictionaries)")
        return text
    return str(dictionary_path(text))

