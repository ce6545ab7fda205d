"""Strategies: Patashnik-format dictionaries and other sources, their formats, the verifier and the judge.

The search that finds strategies is :mod:`qubic_logic.proof`.
"""

from .dictionary import Entry, StrategyDictionary, patashnik_dictionary, patashnik_path

__all__ = ["Entry", "StrategyDictionary", "patashnik_dictionary", "patashnik_path"]
