#!/usr/bin/env python3
"""The scale report: what a night costs as users grow, what a session costs in the store, and the nightly against
its plain pass on both recording shapes, in one run and one report.

    scripts/with-postgres.sh python3 Benchmarks/scale_report.py [--users 200,2000,20000] [--runs 5]
                                                               [--workers] [--out FILE]
                                                               [--idle-baseline-bin DIR] [--shapes-baseline-bin DIR]
    python3 Benchmarks/scale_report.py --short     # CI: debug binaries, small populations, one run each

It runs the measuring scripts one after the other, each as its own process, and prints their tables under one
heading with the machine (cores, load before and after each part):

1. **Nights as users grow** (`Benchmarks/idle_nights.py`): the nothing-new night and the one-new-day night (10 % of
   the users active) at each population, on SQLite and on PostgreSQL, with the training-load rows each wrote.
2. **Store bytes per session** (`Benchmarks/recordings.sh`): the stored recording's bytes against the recording's,
   the store file per session, and re-analysis read speed against a copy and a plain-table baseline.
3. **The nightly against its plain pass** (`Benchmarks/shapes.py`): both recording shapes (the mixed default and
   one-hour 1 Hz bike sessions), sessions/s, MB/s of upload JSON and the ratio to the plain numpy + DuckDB job, with
   the spread over runs.
4. With `--workers`: the shared-run workers (`Benchmarks/scale.sh`: SQLite, and PostgreSQL with 1, 2 and 4 workers).

Baselines from the same minutes: part 2 reads a plain table and copies the recordings in the same process, part 3 runs
the plain job in every run, part 4 sets workers against one process. Two more can be asked for, each a folder holding
another build's `pipeline`, run in the same rounds on its own copies of the stores:
- `--idle-baseline-bin` for part 1 (`idle_nights.py --baseline-bin`): e.g. main's build before issue 43 (9185890),
  whose nightly wrote a training-load row per user per day;
- `--shapes-baseline-bin` for part 3 (`shapes.py --baseline-bin`): a change's before; its results must be this
  build's (the part fails when the two stores' digests differ), so a build from before a change of the digest's
  answers does not fit here.

PostgreSQL comes from $PIPELINE_TEST_POSTGRES_URL (`scripts/with-postgres.sh` starts a throwaway server); without
it the script starts one through `scripts/with-postgres.sh` itself. A part that fails (a script's exit status other
than 0: e.g. a nothing-new night that wrote training load, the plain job and the nightly disagreeing) makes the
report's exit status 1, after the other parts have run. Release binaries unless `--short`: build first with
`swift build -c release --product pipeline && swift build -c release --product pipeline-bench` (SwiftPM builds only
the last of several `--product`s).
"""
import argparse
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def load():
    return " ".join(open("/proc/loadavg").read().split()[:3])


def part(title, cmd, env, failures):
    """Runs one measuring script; returns its section of the report (stdout, with the load before and after)."""
    before, start = load(), time.perf_counter()
    print(f"== {title}: {' '.join(cmd)}", file=sys.stderr, flush=True)
    proc = subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    took = time.perf_counter() - start
    status = "" if proc.returncode == 0 else f" **FAILED (exit {proc.returncode})**"
    if proc.returncode != 0:
        failures.append(title)
    # recordings.sh also echoes each run's JSON line: the table after them says what they hold.
    body = "\n".join(line for line in proc.stdout.strip().splitlines() if not line.startswith("{"))
    return f"## {title}{status}\n\n`{' '.join(cmd)}`: {took:.0f} s; load before {before}, after {load()}.\n\n{body}\n"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--users", default="200,2000,20000", help="populations of the idle-night part (comma-separated)")
    p.add_argument("--runs", type=int, default=5, help="runs of each measurement")
    p.add_argument("--workers", action="store_true", help="also the shared-run workers (Benchmarks/scale.sh)")
    p.add_argument("--out", help="append the report to this file as well")
    p.add_argument("--idle-baseline-bin", metavar="DIR", help="another build's folder, run beside this one in part 1")
    p.add_argument("--shapes-baseline-bin", metavar="DIR", help="another build's folder, run beside this one in part 3")
    p.add_argument("--short", action="store_true", help="CI: debug binaries, small populations, one or two runs")
    a = p.parse_args()
    if not os.environ.get("PIPELINE_TEST_POSTGRES_URL"):
        # Both backends are part of the report: run again under a throwaway server.
        os.execvp("bash", ["bash", os.path.join(ROOT, "scripts", "with-postgres.sh"), sys.executable] + sys.argv)
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    py = sys.executable
    config = "debug" if a.short else "release"
    binary = os.path.join(ROOT, ".build", config, "pipeline")
    if a.short:
        idle = [py, "Benchmarks/idle_nights.py", "--users", "30", "--runs", "1", "--bin", binary,
                "--backends", "sqlite,postgres"]
        recordings_env = dict(env, CONFIG="debug", SHORT="1", RUNS="1", REPETITIONS="1", USERS="3", DAYS="4")
        shapes = [py, "Benchmarks/shapes.py", "--short"]
        workers = ["bash", "Benchmarks/scale.sh", "--short"]
    else:
        idle = [py, "Benchmarks/idle_nights.py", "--users", a.users, "--runs", str(a.runs), "--bin", binary,
                "--backends", "sqlite,postgres"]
        recordings_env = dict(env, RUNS=str(a.runs))
        shapes = [py, "Benchmarks/shapes.py", "--runs", str(a.runs), "--out", os.devnull]
        workers = ["bash", "Benchmarks/scale.sh"]

    def baseline(folder):
        path = os.path.join(os.path.abspath(folder), "pipeline")
        if not os.access(path, os.X_OK):
            sys.exit(f"scale_report.py: no executable `pipeline` in {folder}")
        return path

    if a.idle_baseline_bin:
        idle += ["--baseline-bin", baseline(a.idle_baseline_bin)]
    if a.shapes_baseline_bin:
        shapes += ["--baseline-bin", os.path.dirname(baseline(a.shapes_baseline_bin))]
    failures = []
    sections = [
        part("Nights as users grow: nothing new and one new day, both backends", idle, env, failures),
        part("Store bytes per session and re-analysis speed", ["bash", "Benchmarks/recordings.sh"], recordings_env,
             failures),
        part("The nightly against its plain pass, both recording shapes", shapes, env, failures),
    ]
    if a.workers:
        sections.append(part("Shared-run workers", workers, env, failures))
    head = (f"# Scale report, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}\n\n"
            f"{os.cpu_count()} cores; {config} binaries; "
            f"`python3 Benchmarks/scale_report.py {' '.join(sys.argv[1:])}`.\n")
    text = "\n".join([head] + sections)
    print(text)
    if a.out:
        with open(a.out, "a") as f:
            f.write(text + "\n")
    if failures:
        print(f"scale_report.py: failed: {'; '.join(failures)}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
