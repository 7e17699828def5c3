"""The seed vectors (tests/vectors/seed_examples.json) are the rule book's worked examples,
kept byte for byte; every section of them is tested somewhere."""

import hashlib

from conftest import VECTORS_PATH

# SHA-256 of the rule book's seed_examples.json. The test reads only the copy in tests/, so
# it runs the same in a clone, in CI and beside the rule book; a deliberate update of the
# vectors changes this digest in the same commit.
SEED_EXAMPLES_SHA256 = "5bee8ab4c1e9458faf537f5d106c8a29a23d9675a82d270dcde424ebcb1a3034"


def test_copy_is_unchanged():
    assert hashlib.sha256(VECTORS_PATH.read_bytes()).hexdigest() == SEED_EXAMPLES_SHA256


def test_every_section_is_known(vectors):
    # A new section in the vectors must get a test; this fails until it does.
    known = {
        "about",
        "cap",
        "shisanshui_score",
        "shisanshui_special",
        "tienlen_beats",
        "tienlen_remaining",
        "tienlen_chop_rounds",
        "tienlen_instant_win",
        "dachu_beats",
    }
    assert set(vectors) <= known, set(vectors) - known
