"""The seed vectors in tests/ must stay identical to the shared rule book's copy."""

from pathlib import Path

import pytest

from conftest import VECTORS_PATH

SHARED = Path(__file__).resolve().parents[2] / "shared" / "vectors" / "seed_examples.json"


@pytest.mark.skipif(not SHARED.exists(), reason="no ../shared beside the project")
def test_copy_is_identical():
    assert VECTORS_PATH.read_bytes() == SHARED.read_bytes()


def test_every_section_is_known(vectors):
    # A new section in the vectors must get a test; this fails until it does.
    known = {
        "about", "cap", "shisanshui_score", "shisanshui_special", "tienlen_beats",
        "tienlen_remaining", "tienlen_chop_rounds", "tienlen_instant_win", "dachu_beats",
    }
    assert set(vectors) <= known, set(vectors) - known
