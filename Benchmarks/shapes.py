#!/usr/bin/env python3
"""The nightly against the plain numpy + DuckDB job, on both recording shapes, over several runs.

    python3 Benchmarks/shapes.py [--runs 5] [--users 100] [--days 30] [--bin .build/release] [--work DIR]
                                 [--label TEXT] [--out Benchmarks/nightly-results.md]
    python3 Benchmarks/shapes.py --short     # CI: debug binaries, 3 users × 4 days a shape, 2 runs; nothing written
    python3 Benchmarks/shapes.py --baseline-bin DIR   # also another build's nightly in each run (a change's before)

For each shape (`pipeline generate --shape mixed`, the default data set, and `--shape one-hour-1hz`, one-hour 1 Hz
indoor-bike recordings with power, cadence, speed and heart rate), one inbox is generated (seed 1), then each run:
  1. the plain job (Benchmarks/plain_job.py: Base64, the blob's records parsed with numpy, duration, average power,
     NP, average heart rate and distance a session, stored in DuckDB; both cores) into a fresh DuckDB file;
  2. `pipeline nightly --json` into a fresh SQLite store.
Each is its own process started on a settled machine (`sync`, a second's pause); wall time from wait4(2), with the
load average read before each pair. Reported per run: the nightly's sessions/s (sessions it stored) and MB/s of
upload JSON (the inbox's session files), the plain job's sessions/s (sessions it stored), and the ratio
`plain wall / nightly wall` — how many times the plain job's throughput the nightly reaches on the same inbox.
With `--baseline-bin`, each run also runs that build's nightly on the same inbox (the two builds' order alternating
from run to run) and reports `baseline wall / nightly wall`; the first run checks that `pipeline digest` of the two
stores is equal (exit status 1 when not). After the first run of each shape, `plain_job.py --compare` checks the
two jobs' metrics agree on 20 sessions (duration, average power, NP, average heart rate, distance; exit status 1
when not). Summary: median and min–max.

The plain job needs the duckdb module: when it is missing this script installs it with pip, or, failing that,
says so and measures the nightly alone (ratios left out). Build first: `swift build -c release --product pipeline`.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from nightly import inbox_bytes, machine, run_reaped, settle  # noqa: E402

SHAPES = ["mixed", "one-hour-1hz"]


def have_duckdb():
    try:
        import duckdb  # noqa: F401
        return True
    except ImportError:
        pass
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "duckdb"], check=False,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return subprocess.run([sys.executable, "-c", "import duckdb"], stderr=subprocess.DEVNULL).returncode == 0


def spread(values, fmt):
    if not values:
        return "–"
    return f"{fmt(statistics.median(values))} ({fmt(min(values))}–{fmt(max(values))})"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--users", type=int, default=100)
    p.add_argument("--days", type=int, default=30)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--shapes", default=",".join(SHAPES))
    p.add_argument("--bin", default=os.path.join(ROOT, ".build/release"))
    p.add_argument("--work", default=None)
    p.add_argument("--out", default=os.path.join(HERE, "nightly-results.md"))
    p.add_argument("--label", default="")
    p.add_argument("--baseline-bin", default=None,
                   help="a folder with another build's pipeline (e.g. the commit before a change), run in each run too")
    p.add_argument("--short", action="store_true", help="CI: debug binaries, 3 users × 4 days, 2 runs; results printed only")
    args = p.parse_args()
    if args.short:
        args.users, args.days, args.runs = 3, 4, 2
        if args.bin == p.get_default("bin"):
            args.bin = os.path.join(ROOT, ".build/debug")
        if args.out == p.get_default("out"):
            args.out = os.devnull
    pipeline = os.path.join(args.bin, "pipeline")
    plain = os.path.join(HERE, "plain_job.py")
    duck = have_duckdb()
    if not duck:
        print("shapes.py: duckdb is not installed and pip could not install it: the plain job is skipped, "
              "the nightly measured alone (no ratios)", file=sys.stderr)
    work = args.work or tempfile.mkdtemp(prefix="shapes-bench-")
    os.makedirs(work, exist_ok=True)
    env = dict(os.environ, PIPELINE_LOG_LEVEL="error")
    rows, checks, sizes, digest_checks = [], {}, {}, {}
    baseline = os.path.join(args.baseline_bin, "pipeline") if args.baseline_bin else None
    failed = False
    for shape in [s for s in args.shapes.split(",") if s]:
        inbox = os.path.join(work, f"inbox-{shape}-{args.users}x{args.days}")
        if not os.path.exists(os.path.join(inbox, "manifest.json")):
            run_reaped([pipeline, "generate", "--shape", shape, "--users", str(args.users), "--days", str(args.days),
                        "--seed", str(args.seed), "--out", inbox], env)
        mb = inbox_bytes(inbox) / 1e6
        for run in range(1, args.runs + 1):
            db = os.path.join(work, f"nightly-{shape}.sqlite")
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(db + suffix):
                    os.remove(db + suffix)
            duckfile = os.path.join(work, f"plain-{shape}.duckdb")
            settle(env)
            load = os.getloadavg()[0]
            plain_wall = plain_sessions = None
            if duck:
                text, plain_wall, _, _ = run_reaped([sys.executable, plain, inbox, "--db", duckfile, "--json"], env)
                plain_sessions = json.loads(text)["sessions"]
                settle(env)
            base_wall = None
            base_db = os.path.join(work, f"baseline-{shape}.sqlite")

            def run_baseline():
                for suffix in ("", "-wal", "-shm"):
                    if os.path.exists(base_db + suffix):
                        os.remove(base_db + suffix)
                _, wall_b, _, _ = run_reaped([baseline, "nightly", "--db", base_db, "--inbox", inbox, "--json"], env)
                settle(env)
                return wall_b

            if baseline and run % 2 == 1:
                base_wall = run_baseline()
            text, wall, cpu, rss = run_reaped([pipeline, "nightly", "--db", db, "--inbox", inbox, "--json"], env)
            stored = json.loads(text)["ingest"]["sessions"]["stored"]
            if baseline and run % 2 == 0:
                settle(env)
                base_wall = run_baseline()
            if baseline and run == 1:
                digests = [run_reaped([b, "digest", "--db", d], env)[0].strip()
                           for b, d in ((pipeline, db), (baseline, base_db))]
                digest_checks[shape] = digests
                if digests[0] != digests[1]:
                    failed = True
                    sys.stderr.write(f"digests differ on {shape}: {digests}\n")
            rows.append(dict(shape=shape, run=run, load=load, sessions=stored, wall=wall, cpu=cpu, rss=rss, mb=mb,
                             plain_wall=plain_wall, plain_sessions=plain_sessions, base_wall=base_wall))
            if duck and run == 1:
                cmp = subprocess.run([sys.executable, plain, inbox, "--db", duckfile, "--compare", db, "--sample", "20"],
                                     capture_output=True, text=True)
                result = json.loads(cmp.stdout) if cmp.stdout.strip() else {}
                checks[shape] = result
                if cmp.returncode != 0:
                    failed = True
                    sys.stderr.write(f"plain job and nightly disagree on {shape}:\n{cmp.stdout}{cmp.stderr}\n")
        sizes[shape] = (mb, rows[-1]["sessions"])
        if not args.work:
            shutil.rmtree(inbox, ignore_errors=True)

    lines = [f"### {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} — both shapes against the plain job {args.label}"
             .rstrip(), ""]
    lines.append(f"Machine: {machine()}. {'Debug (--short)' if args.short else 'Release'} build; "
                 f"`python3 Benchmarks/shapes.py --runs {args.runs} --users {args.users} --days {args.days}`; "
                 "ratio = plain job's wall / nightly's wall on the same inbox in the same run (> 1: the nightly is faster).")
    if baseline:
        lines.append(f"Baseline: `{args.baseline_bin}`; × baseline = its nightly's wall / this build's, same run.")
    lines.append("")
    lines.append("| shape | run | load (1 min) | sessions | nightly wall s | nightly sessions/s | MB/s upload JSON | "
                 "peak RSS MiB | plain job wall s | plain sessions/s | × plain job |" + (" baseline wall s | × baseline |" if baseline else ""))
    lines.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|" + ("---:|---:|" if baseline else ""))
    for r in rows:
        ratio = f"{r['plain_wall'] / r['wall']:.2f}×" if r["plain_wall"] else "–"
        prate = f"{r['plain_sessions'] / r['plain_wall']:.0f}" if r["plain_wall"] else "–"
        pwall = f"{r['plain_wall']:.2f}" if r["plain_wall"] else "–"
        lines.append(f"| {r['shape']} | {r['run']} | {r['load']:.1f} | {r['sessions']} | {r['wall']:.2f} | "
                     f"{r['sessions'] / r['wall']:.0f} | {r['mb'] / r['wall']:.0f} | {r['rss']:.0f} | {pwall} | "
                     f"{prate} | {ratio} |" + (f" {r['base_wall']:.2f} | {r['base_wall'] / r['wall']:.2f}× |" if baseline else ""))
    lines.append("")
    lines.append("| shape | sessions, MB of upload JSON (KB a session) | nightly sessions/s | MB/s | plain job sessions/s "
                 "| × plain job | load |" + (" × baseline |" if baseline else ""))
    lines.append("|---|---|---|---|---|---|---|" + ("---|" if baseline else ""))
    for shape, (mb, sessions) in sizes.items():
        rs = [r for r in rows if r["shape"] == shape]
        with_plain = [r for r in rs if r["plain_wall"]]
        lines.append(
            f"| {shape} | {sessions}, {mb:.0f} MB ({1000 * mb / max(sessions, 1):.0f} KB) | "
            f"{spread([r['sessions'] / r['wall'] for r in rs], lambda v: f'{v:.0f}')} | "
            f"{spread([r['mb'] / r['wall'] for r in rs], lambda v: f'{v:.0f}')} | "
            f"{spread([r['plain_sessions'] / r['plain_wall'] for r in with_plain], lambda v: f'{v:.0f}')} | "
            f"{spread([r['plain_wall'] / r['wall'] for r in with_plain], lambda v: f'{v:.2f}×')} | "
            f"{min(r['load'] for r in rs):.1f}–{max(r['load'] for r in rs):.1f} |"
            + (f" {spread([r['base_wall'] / r['wall'] for r in rs], lambda v: f'{v:.2f}×')} |" if baseline else ""))
    lines.append("")
    for shape, c in checks.items():
        worst = ", ".join(f"{k} {v['diff']:.3g}" for k, v in c.get("largest_difference", {}).items())
        lines.append(f"Agreement, {shape}: {c.get('compared', 0)} of {c.get('in_both', 0)} sessions stored by both "
                     f"compared; largest differences {worst}; beyond 0.5 % (or 1 unit): {c.get('beyond_tolerance', '?')}.")
    for shape, (mine, theirs) in digest_checks.items():
        lines.append(f"Digest, {shape}: this build `{mine[:16]}…`, baseline `{theirs[:16]}…` — "
                     f"{'equal' if mine == theirs else 'DIFFERENT'}.")
    lines.append("")
    text = "\n".join(lines)
    print(text)
    with open(args.out, "a") as f:
        f.write(text + "\n")
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
