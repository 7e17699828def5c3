"""Shared fixtures: the seed vectors, read from tests/vectors/seed_examples.json (the
worked examples of the rule documents, as test vectors)."""

import json
from pathlib import Path

import pytest

# tests/grpc_fixtures.py's fixtures (the shared gRPC server) for every test folder.
pytest_plugins = ["grpc_fixtures"]

VECTORS_PATH = Path(__file__).parent / "vectors" / "seed_examples.json"


@pytest.fixture(scope="session")
def vectors():
    return json.loads(VECTORS_PATH.read_text(encoding="utf-8"))
