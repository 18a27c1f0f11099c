#!/usr/bin/env python3
"""Builds BENCHMARKS.md: the current figures (Benchmarks/summary.md) and an index of each suite's log.

The logs (Benchmarks/<suite>-results.md) keep every round with its raw figures, machine, load and profile, oldest
first; BENCHMARKS.md says only what holds now and where the evidence is.
"""
import pathlib

root = pathlib.Path(__file__).resolve().parent.parent
summary = (root / "Benchmarks" / "summary.md").read_text()
parts = [summary.rstrip() + "\n", "\n## Logs: method, machine and every round\n\n"]
for name, title in [("ftms", "FTMS blob decoding and the session assembler"), ("metrics", "Metrics and BLAS statistics"),
                    ("ingest", "Ingest"), ("taskmanager-cache", "TaskManager and Cache"), ("api", "HTTP API (wrk)"),
                    ("nightly", "Nightly job end to end"), ("files", "Workout file readers"),
                    ("attack", "HTTP API under the attack mix (issue 39)"),
                    ("recordings", "Compressed recordings")]:
    path = root / "Benchmarks" / f"{name}-results.md"
    if not path.exists():
        continue
    parts.append(f"- {title}: [`Benchmarks/{name}-results.md`](Benchmarks/{name}-results.md)\n")
(root / "BENCHMARKS.md").write_text("".join(parts))
