#!/usr/bin/env python3
"""Builds BENCHMARKS.md from the summary below and each suite's results file (Benchmarks/*-results.md)."""
import pathlib

root = pathlib.Path(__file__).resolve().parent.parent
summary = (root / "Benchmarks" / "summary.md").read_text()
parts = [summary.rstrip() + "\n"]
for name, title in [("ftms", "FTMS blob decoding"), ("metrics", "Metrics and BLAS statistics"),
                    ("ingest", "Ingest"), ("taskmanager-cache", "TaskManager and Cache"), ("api", "HTTP API (wrk)"), ("nightly", "Nightly job end to end"),
                    ("files", "Workout file readers")]:
    path = root / "Benchmarks" / f"{name}-results.md"
    if not path.exists():
        continue
    body = path.read_text().split("\n", 1)[1] if path.read_text().startswith("# ") else path.read_text()
    body = "\n".join(("#" + line) if line.startswith("#") else line for line in body.splitlines())
    parts.append(f"\n## {title}\n\n_From `Benchmarks/{name}-results.md`._\n{body.rstrip()}\n")
(root / "BENCHMARKS.md").write_text("".join(parts))
