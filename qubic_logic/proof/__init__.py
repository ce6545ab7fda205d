"""Proof search: finding winning strategies and making them smaller.

:mod:`~qubic_logic.proof.solve` is the proof-number search that settles a
position and writes the strategy it proves; :mod:`~qubic_logic.proof.split`
solves one defender reply at a time on workers;
:mod:`~qubic_logic.proof.minimise` re-chooses a verified strategy's moves so
that it needs fewer entries by a local search, and
:mod:`~qubic_logic.proof.optimise` chooses the fewest by clingo's optimisation;
:mod:`~qubic_logic.proof.alternatives` proves more candidate moves for them. What they find is a strategy
(:mod:`qubic_logic.strategy`), checked by the verifier there, which imports
nothing of this package.
"""
