"""The claim format: ``rules/claims/<id>.toml`` (metadata) next to ``<id>.lp`` or ``<id>.pl``.

A claim's TOML file says where the seed makes the claim, what the seed states
and what is counted or checked; the rules file computes it. Keys:

``id``, ``title``, ``source`` (seed, section, line), ``quote`` (the seed's words),
``counts`` (what is counted or checked), ``seed_figure`` (a table: figure name
-> the seed's value), ``rules`` (rules file names, ``.lp`` for ASP, ``.pl`` for
Prolog; one per engine), ``uses`` (project rules loaded first, e.g.
``geometry``), ``inputs`` (fact sets the runner adds, see
:mod:`qubic_logic.claims.inputs`), ``crosscheck`` (a function of
:mod:`qubic_logic.claims.crosschecks`), ``count_models`` (ASP only: report the
number of answer sets under this figure name), ``on_differ`` (why the seed and
the computation differ, shown only when they do), ``slow`` (skip in quick runs),
``show`` (computed figures the seed gives no value for, shown after the seed's).

>>> claims = load_claims()
>>> claims['automorphisms'].seed_figure
{'automorphisms': 198}
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any

from ..errors import DataFormatError

ENGINE_OF_SUFFIX = {".lp": "asp", ".pl": "prolog"}
_KEYS = {"id", "title", "source", "quote", "counts", "seed_figure", "rules", "uses", "inputs",
         "crosscheck", "count_models", "on_differ", "order", "show"}


@dataclass(frozen=True)
class Claim:
    """One claim of a seed, ready to run."""

    id: str
    title: str
    source: str
    counts: str
    seed_figure: dict[str, Any]
    rules: dict[str, str]  # engine -> rules file name in rules/claims/
    quote: str = ""
    uses: tuple[str, ...] = ()
    inputs: tuple[str, ...] = ()
    crosscheck: str = ""
    count_models: str = ""
    on_differ: str = ""
    order: int = 0
    show: tuple[str, ...] = ()

    def shown(self) -> list[str]:
        """Figure names a report shows: the seed's, then ``show``."""
        return list(self.seed_figure) + [n for n in self.show if n not in self.seed_figure]

    def engines(self) -> list[str]:
        """Engines this claim is written for, ASP first."""
        return sorted(self.rules, key=lambda e: e != "asp")


def claims_dir():
    """The ``rules/claims`` folder inside the installed package."""
    return resources.files("qubic_logic.rules").joinpath("claims")


def parse_claim(name: str, text: str) -> Claim:
    """A claim from its TOML text (``name`` for error messages)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataFormatError(f"claim {name}: not valid TOML: {exc}") from None
    unknown = set(data) - _KEYS
    if unknown:
        raise DataFormatError(f"claim {name}: unknown keys {sorted(unknown)}; expected some of {sorted(_KEYS)}")
    for key in ("id", "title", "source", "counts", "seed_figure", "rules"):
        if key not in data:
            raise DataFormatError(f"claim {name}: missing key {key!r}")
    files = data["rules"] if isinstance(data["rules"], list) else [data["rules"]]
    rules = {}
    for f in files:
        suffix = f[f.rfind("."):]
        if suffix not in ENGINE_OF_SUFFIX:
            raise DataFormatError(f"claim {name}: rules file {f!r} must end in .lp (ASP) or .pl (Prolog)")
        rules[ENGINE_OF_SUFFIX[suffix]] = f
    if not isinstance(data["seed_figure"], dict):
        raise DataFormatError(f"claim {name}: seed_figure must be a table of figure = value")
    return Claim(
        id=data["id"], title=data["title"], source=data["source"], counts=data["counts"],
        seed_figure=data["seed_figure"], rules=rules, quote=data.get("quote", ""),
        uses=tuple(data.get("uses", ())), inputs=tuple(data.get("inputs", ())),
        crosscheck=data.get("crosscheck", ""), count_models=data.get("count_models", ""),
        on_differ=data.get("on_differ", ""), order=int(data.get("order", 0)),
        show=tuple(data.get("show", ())),
    )


def load_claims() -> dict[str, Claim]:
    """Every claim in ``rules/claims/``, in report order."""
    found = []
    for entry in claims_dir().iterdir():
        if entry.name.endswith(".toml") and not entry.name.startswith("seed"):
            claim = parse_claim(entry.name, entry.read_text(encoding="utf-8"))
            if claim.id != entry.name[:-5]:
                raise DataFormatError(f"claim {entry.name}: id {claim.id!r} must match the file name")
            found.append(claim)
    return {c.id: c for c in sorted(found, key=lambda c: (c.order, c.id))}
