"""Run a claim's rules file in its declarative engine and read its figures.

A rules file reports what it computed as ``figure(Name, Value)``: ASP atoms of
the answer set (or of the last one, when a claim counts answer sets) or Prolog
solutions. Several values under one name make a list. ASP runs in-process with
clingo; Prolog runs in a separate ``swipl`` process, so a time limit can stop it
cleanly.

>>> figures_of([('lines', 76), ('kind', 'a'), ('kind', 'b'), ('pairs', [1, 2])])
{'lines': 76, 'kind': ['a', 'b'], 'pairs': [[1, 2]]}
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path
from typing import Any

from ..engines.prolog import quote
from ..errors import EngineUnavailableError, QueryTimeout, RuleError


def figures_of(pairs: list[tuple[str, Any]], tuples: bool = True) -> dict[str, Any]:
    """Group ``(name, value)`` pairs: one value stays a value, several become a sorted list.

    With ``tuples`` (ASP), list values are tuples and always make a list of them,
    however many there are; without (Prolog), a lone list value is the figure.
    """
    grouped: dict[str, list[Any]] = {}
    for name, value in pairs:
        grouped.setdefault(name, []).append(value)
    return {k: v[0] if len(v) == 1 and not (tuples and isinstance(v[0], list)) else ordered(v)
            for k, v in grouped.items()}


def ordered(values: list[Any]) -> list[Any]:
    """Values sorted naturally when comparable, else by their text.

    >>> ordered([4, 13, 1])
    [1, 4, 13]
    """
    try:
        return sorted(values)
    except TypeError:
        return sorted(values, key=repr)


def _python_value(symbol) -> Any:
    import clingo

    if symbol.type == clingo.SymbolType.Number:
        return symbol.number
    if symbol.type == clingo.SymbolType.String:
        return symbol.string
    if symbol.type == clingo.SymbolType.Function:
        if not symbol.arguments:
            return {"true": True, "false": False}.get(symbol.name, symbol.name)
        args = [_python_value(a) for a in symbol.arguments]
        return args if not symbol.name else [symbol.name, *args]
    return str(symbol)


def run_asp(files: list[Path], facts: str, count_models: str = "", time_limit: float = 60.0) -> dict[str, Any]:
    """Ground and solve ASP files plus facts; the figures of the answer set.

    clingo runs through :func:`qubic_logic.engines.asp.solve`, as everywhere in the project.

    With ``count_models`` every answer set is enumerated (models that differ only in
    hidden atoms count once) and their number is reported under that name (e.g. how many
    automorphisms exist).
    """
    from ..engines import asp

    try:
        result = asp.solve(facts, files, models=0 if count_models else 1, project=bool(count_models),
                           time_limit=time_limit)
    except QueryTimeout as exc:
        models = exc.partial.count if exc.partial is not None else 0
        raise QueryTimeout(f"ASP claim stopped after {time_limit:g} s", partial={"models": models}) from None
    if not result.satisfiable:
        raise RuleError(f"ASP rules {', '.join(f.name for f in files)} have no answer set; a claim must have one")
    figures = figures_of([(str(_python_value(a.arguments[0])), _python_value(a.arguments[1]))
                          for a in result.models[-1] if a.match("figure", 2)])
    if count_models:
        figures[count_models] = result.count
    return figures


_PROLOG_MAIN = """
:- use_module(library(http/json)).
qubic_claim_main :-
    forall(figure(K, V),
           ( json_write(current_output, json([name=K, value=V]), [width(0)]), nl )),
    format("qubic_claim_done~n").
"""


def run_prolog(files: list[Path], uses: list[Path], facts: str, time_limit: float = 60.0) -> dict[str, Any]:
    """Consult Prolog files (after the modules in ``uses``) and collect ``figure(K, V)``."""
    swipl = shutil.which("swipl")
    if not swipl:
        raise EngineUnavailableError("SWI-Prolog (swipl) is not installed; apt-get install swi-prolog-nox")
    with tempfile.TemporaryDirectory(prefix="qubic-claim-") as tmp:
        facts_file = Path(tmp, "facts.pl")
        facts_file.write_text(":- style_check(-discontiguous).\n" + facts + _PROLOG_MAIN, encoding="utf-8")
        loads = [f"use_module({quote(str(u))})" for u in uses]
        loads += [f"consult({quote(str(facts_file))})"] + [f"consult({quote(str(f))})" for f in files]
        goal = ", ".join(loads) + ", qubic_claim_main"
        # The goal runs under halt/0 in -g: any error or failure exits with status 1.
        command = [swipl, "-q", "-f", "none", "-g", goal, "-t", "halt"]
        with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env={**os.environ, "LANG": "C.UTF-8"}) as proc:
            timer = threading.Timer(time_limit or 10**9, proc.kill)
            timer.start()
            try:
                out, err = proc.communicate()
            except BaseException:  # Ctrl-C: stop Prolog now rather than wait for it
                proc.kill()
                raise
            finally:
                timer.cancel()
            if proc.returncode == -9:
                raise QueryTimeout(f"Prolog claim stopped after {time_limit:g} s", partial={})
    if proc.returncode != 0 or "Warning:" in err:
        raise RuleError(f"Prolog rules {', '.join(f.name for f in files)} failed (status {proc.returncode}): "
                        f"{err.strip()[:600] or 'the goal failed'}")
    if "qubic_claim_done" not in out.splitlines():
        raise RuleError(f"Prolog rules {', '.join(f.name for f in files)} ended Prolog before the end "
                        "(does a rule call halt/0? rules must not end the process)")
    pairs = []
    for line in out.splitlines():
        if line.startswith("{"):
            item = json.loads(line)
            pairs.append((item["name"], _prolog_value(item["value"])))
    return figures_of(pairs, tuples=False)


def _prolog_value(value: Any) -> Any:
    if value in ("true", "false"):
        return value == "true"
    if isinstance(value, list):
        return [_prolog_value(v) for v in value]
    return value

