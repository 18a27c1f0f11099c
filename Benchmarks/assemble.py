#!/usr/bin/env python3
"""Builds BENCHMARKS.md: the current figures (Benchmarks/summary.md) and an index of each suite's log.

The logs (Benchmarks/<suite>-results.md) keep every round with its raw figures, machine, load and profile, oldest
first; BENCHMARKS.md says only what holds now and where the evidence is. `--check` (CI) writes nothing and fails
when BENCHMARKS.md is not what the script would make.
"""
import pathlib
import sys

root = pathlib.Path(__file__).resolve().parent.parent
summary = (root / "Benchmarks" / "summary.md").read_text()
parts = [summary.rstrip() + "\n", "\n## Logs: method, machine and every round\n\n"]
for name, title in [("ftms", "FTMS blob decoding and the session assembler"), ("metrics", "Metrics and BLAS statistics"),
                    ("ingest", "Ingest"), ("taskmanager-cache", "TaskManager and Cache"), ("api", "HTTP API (wrk)"),
                    ("nightly", "Nightly job end to end"), ("files", "Workout file readers"),
                    ("attack", "HTTP API under the attack mix (issue 39)"),
                    ("recordings", "Compressed recordings"),
                    ("idle-nights", "Nights with idle users (issue 43)")]:
    path = root / "Benchmarks" / f"{name}-results.md"
    if not path.exists():
        continue
    parts.append(f"- {title}: [`Benchmarks/{name}-results.md`](Benchmarks/{name}-results.md)\n")
text = "".join(parts)
if "--check" in sys.argv[1:]:  # CI: BENCHMARKS.md must be what this script makes of the logs
    if (root / "BENCHMARKS.md").read_text() != text:
        sys.exit("BENCHMARKS.md is stale: run python3 Benchmarks/assemble.py and commit it")
    print("BENCHMARKS.md is up to date with Benchmarks/summary.md and the logs")
else:
    (root / "BENCHMARKS.md").write_text(text)
