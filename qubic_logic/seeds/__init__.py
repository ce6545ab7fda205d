"""The seeds' own texts: the tables, appendices and games of the papers the project starts from.

The excerpts committed under ``rules/claims/`` keep each seed's lines
verbatim with their line numbers; :mod:`~qubic_logic.seeds.excerpts` parses
them (McDaniel's tables and appendices, his recorded games, the sample game,
the reasons of Appendix III) for the players that replay them, the claims
that check them and the benchmarks that compare against them.
"""
