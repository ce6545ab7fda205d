"""Strategies: Patashnik-format dictionaries, their verifier, and the proof-number solver."""

from .dictionary import Entry, StrategyDictionary, patashnik_dictionary, patashnik_path

__all__ = ["Entry", "StrategyDictionary", "patashnik_dictionary", "patashnik_path"]
