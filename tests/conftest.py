"""Shared test helpers: generated positions."""

from __future__ import annotations

import random
import signal

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


@pytest.fixture(scope="session")
def certificate(tmp_path_factory):
    """A certificate of up to 20,000 forced wins found verifying Patashnik's dictionary (for 20 s at most)."""
    from qubic_logic.strategy.certificate import certificate_text
    from qubic_logic.strategy.dictionary import patashnik_dictionary
    from qubic_logic.strategy.verify import verify

    path = tmp_path_factory.mktemp("cert") / "cert.txt"
    v = verify(patashnik_dictionary(), jobs=2, time_limit=20)
    assert len(v.witnesses) >= 6000  # a busy machine settles fewer in the 20 s
    path.write_text(certificate_text(v.witnesses[:20000], ["test certificate"]), encoding="ascii")
    return path


@pytest.fixture
def ctrl_c() -> None:
    """Python's Ctrl-C handler for a test that sends itself SIGINT.

    A suite started in the background (``make test &``, ``nohup``) inherits SIGINT ignored, and
    Python then installs no handler: the signal would be lost and the test would wait it out.
    """
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)
