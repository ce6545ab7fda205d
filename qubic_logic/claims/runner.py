"""Run claims: the declarative engine computes, the Python core cross-checks, the seed is compared.

>>> from qubic_logic.claims.catalog import load_claims
>>> result = run_claim(load_claims()['planes'])
>>> result.computed['planes'], result.agree, result.crosscheck_agrees
(18, True, True)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import DataFormatError, QubicError, RuleError
from . import crosschecks
from .catalog import Claim, claims_dir
from .declarative import ordered, run_asp, run_prolog
from .inputs import facts


@dataclass
class ClaimResult:
    """What one claim run found."""

    claim: Claim
    engine: str
    computed: dict[str, Any] = field(default_factory=dict)
    crosscheck: dict[str, Any] | None = None
    seconds: float = 0.0
    error: str = ""

    @property
    def agree(self) -> bool:
        """Every figure the seed states equals the computed one."""
        return not self.error and not self.differing()

    def differing(self) -> list[str]:
        """Names of the seed's figures that the computation does not confirm."""
        return [k for k, v in self.claim.seed_figure.items() if not same(v, self.computed.get(k))]

    @property
    def crosscheck_agrees(self) -> bool | None:
        """Whether the Python core gives the same figures (None: no cross-check)."""
        if self.crosscheck is None:
            return None
        return all(same(v, self.computed.get(k)) for k, v in self.crosscheck.items())

    @property
    def why(self) -> str:
        """The explanation shown when the seed and the computation differ."""
        if self.error:
            return self.error
        if self.crosscheck_agrees is False:
            return "the declarative engine and the Python core disagree: " + ", ".join(
                f"{k}: {self.computed.get(k)!r} vs {v!r}" for k, v in self.crosscheck.items()
                if not same(v, self.computed.get(k)))
        return "" if self.agree else self.claim.on_differ

    def to_json(self) -> dict[str, Any]:
        """The JSON object of ``qubic claims --format json``."""
        c = self.claim
        return {
            "id": c.id, "title": c.title, "source": c.source, "counts": c.counts, "engine": self.engine,
            "seed_figure": c.seed_figure, "computed": self.computed, "agree": self.agree,
            "differs_in": self.differing() if not self.error else [],
            "crosscheck": self.crosscheck, "crosscheck_agrees": self.crosscheck_agrees,
            "why": self.why, "seconds": round(self.seconds, 3), "error": self.error or None,
        }


def same(seed: Any, computed: Any) -> bool:
    """Equality of figures; lists compare as sorted lists (a lone value is a one-item list).

    >>> same([3, 1], [1, 3]), same([5], 5), same(198, 192)
    (True, True, False)
    """
    if isinstance(seed, list) or isinstance(computed, list):
        def as_list(v):
            return ordered(v if isinstance(v, list) else ([] if v is None else [v]))
        return as_list(seed) == as_list(computed)
    return seed == computed


def _rules_path(name: str) -> Path:
    return Path(str(claims_dir().joinpath(name)))


def _use_path(name: str, suffix: str) -> Path:
    path = Path(str(claims_dir().parent.joinpath(name + suffix)))
    if not path.is_file():
        raise RuleError(f"project rules {name}{suffix} not found in rules/")
    return path


def run_claim(claim: Claim, engine: str | None = None, time_limit: float = 120.0,
              with_crosscheck: bool = True) -> ClaimResult:
    """Compute one claim with ``engine`` (default: the first it is written for)."""
    engine = engine or claim.engines()[0]
    result = ClaimResult(claim, engine)
    start = time.perf_counter()
    try:
        if engine not in claim.rules:
            raise RuleError(f"claim {claim.id} has no {engine} version; it is written for "
                            f"{', '.join(claim.engines())}")
        fact_text = "".join(facts(name) for name in claim.inputs)
        rules = _rules_path(claim.rules[engine])
        if engine == "asp":
            files = [_use_path(u, ".lp") for u in claim.uses] + [rules]
            result.computed = run_asp(files, fact_text, claim.count_models, time_limit)
        else:
            uses = [_use_path(u, ".pl") for u in claim.uses]
            result.computed = run_prolog([rules], uses, fact_text, time_limit)
        if with_crosscheck and claim.crosscheck:
            if claim.crosscheck not in crosschecks.CROSSCHECKS:
                raise DataFormatError(f"claim {claim.id}: no cross-check {claim.crosscheck!r}; expected one of "
                                      f"{', '.join(sorted(crosschecks.CROSSCHECKS))}")
            result.crosscheck = crosschecks.CROSSCHECKS[claim.crosscheck]()
    except QubicError as exc:
        result.error = str(exc)
    result.seconds = time.perf_counter() - start
    return result


def run_claims(claims: Iterable[Claim], engine: str | None = None, time_limit: float = 120.0,
               on_result: Callable[[ClaimResult], None] | None = None) -> list[ClaimResult]:
    """Run claims in order; with ``engine`` only the claims written for it."""
    results = []
    for claim in claims:
        if engine and engine not in claim.rules:
            continue
        result = run_claim(claim, engine, time_limit)
        results.append(result)
        if on_result:
            on_result(result)
    return results
