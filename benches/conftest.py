"""Benchmark conventions: every benchmark sets ``benchmark.group`` and records
``benchmark.extra_info["items"]`` (items handled per call). At the end of the run this
prints, per group, items/s and the ratio to the group's baseline (the benchmark whose
name contains ``baseline``) and to each peer (``extra_info["peer"]``: another library's
call doing the same job), all measured in the same run. Run with
``python -m pytest benches -q``; see docs/benchmarks.md."""

import platform


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    session = getattr(config, "_benchmarksession", None)
    if session is None or not session.benchmarks:
        return
    groups = {}
    for b in session.benchmarks:
        groups.setdefault(b.group or "-", []).append(b)
    tr = terminalreporter
    tr.section("items per second and ratios to each group's baseline")
    tr.write_line(f"machine: {platform.machine()} {platform.processor() or ''} python {platform.python_version()}")
    for group, benches in sorted(groups.items()):
        base = next((b for b in benches if "baseline" in b.name), None)

        def rate(b):
            return b.extra_info.get("items", 1) / b.stats.mean

        tr.write_line(f"[{group}]")
        peers = [b for b in benches if b.extra_info.get("peer")]
        for b in sorted(benches, key=rate, reverse=True):
            ratio = f"  x{rate(b) / rate(base):.1f} vs baseline" if base is not None and b is not base else ""
            if b not in peers:
                ratio += "".join(f"  x{rate(b) / rate(p):.2f} vs {p.name.removeprefix('test_')}" for p in peers)
            tr.write_line(f"  {b.name:<60} {rate(b):>14,.0f} items/s{ratio}")
