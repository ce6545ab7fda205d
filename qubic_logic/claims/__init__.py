"""The seeds' claims, stated in ASP or Prolog and recomputed (``qubic claims``).

A claim is ``rules/claims/<id>.toml`` (where the seed says it, the seed's
figure, what is counted) plus a rules file that computes the figure; see
:mod:`.catalog` for the format, :mod:`.runner` for how it runs and is
cross-checked, :mod:`.report` for the output. :mod:`.counting` and
:mod:`.plane` hold the Python side's symmetry counting and plane analysis.

>>> sorted(load_claims())[:3]
['appendix-b', 'appendix-c', 'automorphisms']
"""

from .catalog import Claim, load_claims
from .runner import ClaimResult, run_claim, run_claims

__all__ = ["Claim", "ClaimResult", "load_claims", "run_claim", "run_claims"]
