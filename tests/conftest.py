"""Shared test helpers: generated positions."""

from __future__ import annotations

import random

import pytest

from qubic_logic.position import Position


def random_position(rng: random.Random, marks: int) -> Position:
    """A position reached by ``marks`` random legal moves that does not end the game."""
    while True:
        p = Position()
        for _ in range(marks):
            p = p.play(rng.choice(p.legal_moves()))
            if p.is_over:
                break
        if not p.is_over:
            return p


@pytest.fixture
def rng() -> random.Random:
    return random.Random(20261121)
