"""The 13-card hands of the core's legal_plays benchmark (rust/handeval-core/benches/
plays.rs reads the same file), so the Python benchmarks time the same work."""

import pathlib

HANDS13 = [
    line
    for line in (pathlib.Path(__file__).parents[1] / "rust/handeval-core/benches/hands13.txt").read_text().splitlines()
    if line.strip() and not line.startswith("#")
]
