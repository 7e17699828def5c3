"""Shared fixtures: the seed vectors, read from tests/vectors/seed_examples.json (an
identical copy of ../shared/vectors/seed_examples.json, checked by test_vectors.py)."""

import json
from pathlib import Path

import pytest

VECTORS_PATH = Path(__file__).parent / "vectors" / "seed_examples.json"


@pytest.fixture(scope="session")
def vectors():
    return json.loads(VECTORS_PATH.read_text(encoding="utf-8"))
