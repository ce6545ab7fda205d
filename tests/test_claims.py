"""Claims: the format, the runner, the seed parsers, and engine against Python agreement.

The tests check that the declarative rules and the Python side compute the same
figures (never the figures themselves against a typed-in answer).
"""

from __future__ import annotations

import json

import pytest

from qubic_logic.claims import load_claims, run_claim
from qubic_logic.claims.catalog import parse_claim
from qubic_logic.seeds.excerpts import appendix_b, appendix_c, table_ii, table_iv, tokens_of
from qubic_logic.cli import main
from qubic_logic.errors import DataFormatError

FAST = ["lines", "planes", "prime-cells", "planes-per-cell", "planar-primes", "first-moves",
        "appendix-b", "table-ii", "table-iv", "trap-1-4-13", "erdos-selfridge", "planes-3-0",
        "planes-3-0-two-zero", "sample-game", "strong-squares", "plane-17-trap", "table-iii-000", "table-iii-003", "line-sums",
        "ml64-compaction"]
SLOW = ["automorphisms", "planes-4-0", "planes-5-0"]


def test_every_claim_loads_with_its_rules_file():
    claims = load_claims()
    assert len(claims) >= 20
    for claim in claims.values():
        assert claim.seed_figure and claim.rules


def test_bad_claim_file_is_reported():
    with pytest.raises(DataFormatError, match="missing key"):
        parse_claim("x.toml", 'id = "x"')
    with pytest.raises(DataFormatError, match=".lp"):
        parse_claim("x.toml", 'id="x"\ntitle="t"\nsource="s"\ncounts="c"\nseed_figure={a=1}\nrules="x.py"')


@pytest.mark.parametrize("claim_id", FAST)
def test_declarative_and_python_agree(claim_id):
    result = run_claim(load_claims()[claim_id])
    assert not result.error, result.error
    assert result.crosscheck_agrees is True, (result.computed, result.crosscheck)


@pytest.mark.slow
@pytest.mark.parametrize("claim_id", SLOW)
def test_declarative_and_python_agree_slow(claim_id):
    result = run_claim(load_claims()[claim_id])
    assert not result.error, result.error
    assert result.crosscheck_agrees is True, (result.computed, result.crosscheck)


@pytest.mark.parametrize("claim_id", ["lines", "planes", "prime-cells"])
def test_asp_and_prolog_versions_agree(claim_id):
    claim = load_claims()[claim_id]
    asp, prolog = (run_claim(claim, engine, with_crosscheck=False) for engine in ("asp", "prolog"))
    assert not asp.error and not prolog.error
    assert asp.computed == prolog.computed


def test_seed_parsers_read_every_entry():
    b = appendix_b()
    assert len(b) == len({(e.line, e.numbers) for e in b})
    assert all(len(e.numbers) == 4 for e in b)
    assert all(len(r.numbers) == 3 for r in table_ii() + table_iv())
    records = appendix_c()
    assert all(r.tokens[:4] == (1, -2, 22, -4) for r in records)
    assert all(len(r.tokens) == len(r.token_lines) for r in records)


def test_tokens_keep_the_sign_with_the_number():
    assert tokens_of("1 -2 22 -4 27-54 43-64") == [1, -2, 22, -4, 27, -54, 43, -64]


def test_appendix_c_replays_with_reasons():
    # Prolog replays the games; every problem it reports names a seed line inside Appendix C.
    result = run_claim(load_claims()["appendix-c"])
    assert not result.error, result.error
    assert result.computed["games"] == result.computed["games_ok"] + len(result.computed["problems"])
    for text in result.computed["problems"]:
        assert 1069 <= int(text.split(":")[0][1:]) <= 1395


def test_claims_command_json(capsys):
    assert main(["claims", "--only", "planes", "--only", "first-moves", "--format", "json"]) == 0
    items = json.loads(capsys.readouterr().out)
    assert [i["id"] for i in items] == ["planes", "first-moves"]
    assert {"id", "source", "seed_figure", "computed", "agree"} <= set(items[0])


def test_claims_command_unknown_id(capsys):
    assert main(["claims", "--only", "nope"]) == 2
    assert "no claim nope" in capsys.readouterr().err
    assert main(["claims", "--only", "table-iv", "--engine", "asp"]) == 2
    assert "no asp version" in capsys.readouterr().err
