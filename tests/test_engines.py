"""The engine interface: names, result types, raw queries, time limits, errors, threads."""

import os
import random
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from qubic_logic.core import ForcedWin, Threats
from qubic_logic.engines import ENGINE_NAMES, RelatedPair, get_engine
from qubic_logic.engines.asp import solve
from qubic_logic.engines.prolog import query
from qubic_logic.errors import EngineUnavailableError, QueryTimeout, RuleError
from qubic_logic.notation import parse_position
from qubic_logic.referee import replay_forced_win

from .conftest import random_position

MUST_SHOW = parse_position("1-2,22-52,27-4")  # seed 003's plane-17 game: length 6
PIGEONS = "p(1..11). h(1..10). 1 { in(P, H) : h(H) } 1 :- p(P). :- in(P, H), in(Q, H), P < Q."


def test_get_engine_names_and_auto():
    assert get_engine("auto").name in ("native", "python")
    assert get_engine("python").name == "python"
    with pytest.raises(EngineUnavailableError, match="expected one of asp, prolog"):
        get_engine("lisp")
    assert set(ENGINE_NAMES) == {"asp", "prolog", "native", "python", "auto"}


@pytest.mark.parametrize("name", ["asp", "prolog", "python"])
def test_same_result_types(name):
    engine = get_engine(name)
    win = engine.shortest_forced_win(MUST_SHOW)
    assert isinstance(win, ForcedWin) and win.engine == name and win.length == 6
    assert replay_forced_win(MUST_SHOW, win.sequence) == 6
    assert isinstance(engine.threats(MUST_SHOW), Threats)
    pairs = engine.related_pairs(MUST_SHOW)
    assert all(isinstance(p, RelatedPair) for p in pairs)
    assert engine.related_pairs(MUST_SHOW, "o") == [p for p in pairs if p.side == "o"]


def test_max_length_bounds_the_search():
    for name in ("asp", "prolog", "python"):
        assert get_engine(name).shortest_forced_win(MUST_SHOW, max_length=5).length is None
        assert get_engine(name).shortest_forced_win(MUST_SHOW, max_length=6).length == 6


def test_raw_queries_only_on_declarative_engines():
    with pytest.raises(EngineUnavailableError, match="use engine 'asp' or 'prolog'"):
        get_engine("python").query(MUST_SHOW, "threat(x, C)")


def test_asp_solve_all_models_count_and_optimal():
    program = "{ p(1..3) }. #show p/1."
    everything = solve(program, models=0)
    assert everything.count == 8 and len(everything.models) == 8 and everything.exhausted
    counted = solve(program, models=0, keep=False)
    assert counted.count == 8 and counted.models == []
    best = solve(program + " :- not p(2). #minimize { 1, X : p(X) }.", optimal=True, models=0)
    assert best.atoms == [["p(2)"]] and best.costs == [[1]]


def test_asp_horizon_grounds_rounds():
    """forcing.lp with a fixed horizon: every first move of a 6-move win, via rules as written."""
    r = solve(":- not forced_win. #show attack/2. #show win_length/1.", rules=("geometry", "threats", "forcing"),
              position=MUST_SHOW, horizon=5, models=0)
    lengths = {a for m in r.atoms for a in m if a.startswith("win_length")}
    assert lengths == {"win_length(6)"}


def test_prolog_query_values():
    answers = query('X = [1, 2], Y = foo(bar), Z = "text", W = abc, _Hidden = 1')
    assert answers == [{"X": [1, 2], "Y": "foo(bar)", "Z": "text", "W": "abc"}]
    assert query("between(1, 5, X)", max_solutions=2) == [{"X": 1}, {"X": 2}]
    big = query("X is 1 << 63")
    assert big == [{"X": 1 << 63}]


def test_timeouts_name_engine_and_limit():
    with pytest.raises(QueryTimeout, match=r"asp engine \(clingo\).*0.2 s"):
        solve(PIGEONS, time_limit=0.2)
    with pytest.raises(QueryTimeout, match=r"prolog engine \(SWI-Prolog\).*0.2 s"):
        query("between(1, inf, X), fail", time_limit=0.2)
    # No forced win here, but a search of 0.2 s (SWI-Prolog) to 3 s (clingo): a limit of 0.01 s always
    # stops it. (MUST_SHOW with a limit of 1e-9 s raced: SWI-Prolog's alarm could come after its 3 ms answer.)
    slow = parse_position("moves:2,15,5,38,13,41,14,46,16,48,20,56,31,63")
    for name in ("asp", "prolog"):
        with pytest.raises(QueryTimeout, match=name) as info:
            get_engine(name).shortest_forced_win(slow, time_limit=0.01)
        # partial: the largest length known to have no forced win, as the cores report it
        assert isinstance(info.value.partial, int) and info.value.partial >= 0
    # the engines still answer afterwards (no open query, no stale facts)
    assert get_engine("prolog").shortest_forced_win(MUST_SHOW).length == 6
    assert query("x(C)", position=parse_position("moves:5")) == [{"C": 5}]


def test_rule_errors_name_file_and_line(tmp_path: Path):
    bad_lp = tmp_path / "bad.lp"
    bad_lp.write_text("p(1).\nq(X) :- p(X.\n")
    with pytest.raises(RuleError, match=r"bad\.lp:2:"):
        solve(files=[bad_lp])
    bad_pl = tmp_path / "bad.pl"
    bad_pl.write_text("p(1).\nq(X) :- p(X.\n")
    with pytest.raises(RuleError, match=r"bad\.pl:2:"):
        query("true", files=[bad_pl])
    with pytest.raises(RuleError, match="does not exist"):
        solve(files=[tmp_path / "missing.lp"])
    with pytest.raises(RuleError, match="Unknown procedure"):
        query("no_such_predicate(X)")
    assert query("line_cells(6, A, _, _, _)") == [{"A": 0}]  # still healthy


def test_missing_swi_prolog_names_the_package():
    env = dict(os.environ, LIBSWIPL_PATH="/nonexistent/libswipl.so", SWI_HOME_DIR="/nonexistent")
    code = "from qubic_logic.engines import get_engine; get_engine('prolog')"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False)
    assert done.returncode != 0 and "apt-get install swi-prolog-nox" in done.stderr
    cli = subprocess.run([sys.executable, "-m", "qubic_logic.cli", "win", "1-2", "--engine", "prolog"],
                         env=env, capture_output=True, text=True, check=False)
    assert cli.returncode == 2 and "apt-get install swi-prolog-nox" in cli.stderr


def test_threads_do_not_crash_and_agree():
    rng = random.Random(5)
    positions = [random_position(rng, rng.randint(8, 30)) for _ in range(12)]
    expected = [get_engine("python").shortest_forced_win(p, max_length=7).length for p in positions]
    results: dict[tuple[str, int], int | None] = {}
    errors = []

    def work(name: str, i: int) -> None:
        try:
            results[name, i] = get_engine(name).shortest_forced_win(positions[i], max_length=7).length
        except Exception as exc:  # collected and reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(name, i)) for name in ("prolog", "asp") for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert [results["prolog", i] for i in range(12)] == expected
    assert [results["asp", i] for i in range(12)] == expected
