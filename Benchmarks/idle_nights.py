#!/usr/bin/env python3
"""What a night costs when most users are idle (issue 43, item 1): the nothing-new night and the one-new-day night.

    python3 Benchmarks/idle_nights.py [--users 200,2000,20000] [--runs 3] [--bin .build/release/pipeline]
                                      [--baseline-bin PATH] [--backends sqlite,postgres] [--out FILE]
    python3 Benchmarks/idle_nights.py --short     # CI: the debug binary, 50 users, one run, SQLite; nothing written

For each population of N users (an inbox written here: N users with an LTHR, each with three summary-only runs in
the week before day 0, so that every user has a training-load series):
  0. `pipeline nightly --inbox week0 --as-of day 0`: the full pass that sets the store up (timed, not the figure);
  then, per run, on a copy of that store:
  1. **nothing new**: `pipeline nightly --as-of day 3` (no inbox): the users' series end on day 0;
  2. **one new day**: `pipeline nightly --inbox day4 --as-of day 4`, the inbox holding one run on day 4 for every
     tenth user (10 % of the users active that day).
Each night runs as its own process after `sync` and a second's pause; its wall and CPU time (wait4) are the figures,
with the training-load days it wrote (`training_load_days`; fatal when this build's nothing-new night writes any). With `--baseline-bin` (e.g. main's build before issue
43, whose nightly wrote a row per user per day), the same nights run in the same round with that binary on its own
copy of the store: the baseline. The ratio nothing-new / one-new-day is printed for each binary. PostgreSQL: a fresh
database per night on the server of $PIPELINE_TEST_POSTGRES_URL (scripts/with-postgres.sh starts one).
"""
import argparse
import datetime
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DAY0 = "2026-03-07"
ZONES = ["Europe/Berlin", "America/New_York", "Asia/Tokyo", "UTC", "Australia/Sydney"]


def run_reaped(cmd, env):
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        code = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        if code != 0:
            sys.stderr.write(f"command failed ({code}): {' '.join(cmd)}\n{err.read().decode(errors='replace')[-4000:]}\n")
            raise SystemExit(1)
        return out.read().decode(), wall, usage.ru_utime + usage.ru_stime


def day(offset):
    return (datetime.date.fromisoformat(DAY0) + datetime.timedelta(days=offset)).isoformat()


def workout(user, wid, date, hr, seconds):
    end = "%02d:%02d:%02d" % (12 + seconds // 3600, seconds % 3600 // 60, seconds % 60)
    return {"id": wid, "user_id": user, "source": "garmin", "updated_at": f"{date}T20:00:00Z",
            "activity_type": "running", "start": f"{date}T12:00:00Z", "end": f"{date}T{end}Z",
            "duration_s": seconds, "distance_m": seconds * 3.0, "avg_hr": hr}


def write_inboxes(root, users):
    week0, day4 = os.path.join(root, "week0"), os.path.join(root, "day4")
    for d in (week0, day4):
        os.makedirs(os.path.join(d, "workouts"))
    os.makedirs(os.path.join(week0, "users"))
    ids = [f"user-{i:05d}" for i in range(users)]
    with open(os.path.join(week0, "users", "users.ndjson"), "w") as f:
        for i, u in enumerate(ids):
            f.write(json.dumps({"user_id": u, "time_zone": ZONES[i % len(ZONES)], "created_at_ms": 0,
                                "profile": {"sex": "female" if i % 2 else "male", "max_hr": 185 + i % 10,
                                            "resting_hr": 50 + i % 8, "lthr": 165 + i % 8}}) + "\n")
    with open(os.path.join(week0, "workouts", "week0.ndjson"), "w") as f:
        for i, u in enumerate(ids):
            for k, offset in enumerate((-6, -3, -1 - i % 2)):
                f.write(json.dumps(workout(u, f"w0-{k}", day(offset), 140 + (i + k) % 25, 1800 + 300 * ((i + k) % 7))) + "\n")
    with open(os.path.join(day4, "workouts", "day4.ndjson"), "w") as f:
        for i, u in enumerate(ids):
            if i % 10 == 0:
                f.write(json.dumps(workout(u, "w4", day(4), 150, 2700)) + "\n")


class SQLite:
    name = "SQLite"

    def __init__(self, work):
        self.work = work
        self.n = 0

    def fresh(self):
        self.n += 1
        return os.path.join(self.work, f"db-{self.n}.sqlite")

    def copy(self, src):
        dst = self.fresh()
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(src + suffix):
                shutil.copyfile(src + suffix, dst + suffix)
        return dst


class Postgres:
    name = "PostgreSQL"

    def __init__(self, admin, env):
        self.admin, self.env, self.base, self.n = admin, env, admin.rsplit("/", 1)[0], 0
        self.names = []

    def psql(self, sql):
        subprocess.run(["psql", self.admin, "-qAt", "-c", sql], check=True, env=self.env, stdout=subprocess.DEVNULL)

    def fresh(self):
        self.n += 1
        name = f"idle_nights_{os.getpid()}_{self.n}"
        self.psql(f"CREATE DATABASE {name}")
        self.names.append(name)
        return f"{self.base}/{name}"

    def copy(self, src):
        self.n += 1
        name = f"idle_nights_{os.getpid()}_{self.n}"
        self.psql(f"CREATE DATABASE {name} TEMPLATE {src.rsplit('/', 1)[1]}")
        self.names.append(name)
        return f"{self.base}/{name}"

    def drop_all(self):
        for name in self.names:
            self.psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def night(binary, db, as_of, inbox, env):
    time.sleep(0.5)
    os.sync()
    time.sleep(0.5)
    cmd = [binary, "nightly", "--db", db, "--json", "--as-of", as_of + "T12:00:00Z"] + (["--inbox", inbox] if inbox else [])
    out, wall, cpu = run_reaped(cmd, env)
    summary = json.loads(out)
    return {"wall": wall, "cpu": cpu, "load_days": summary.get("training_load_days", 0),
            "recomputed": summary.get("users_recomputed", 0)}


def spread(values, fmt="%.2f"):
    return (fmt % min(values)) + "–" + (fmt % max(values)) if len(values) > 1 else fmt % values[0]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--users", default="200,2000,20000")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--bin", default=os.path.join(ROOT, ".build", "release", "pipeline"))
    p.add_argument("--baseline-bin")
    p.add_argument("--backends", default="sqlite")
    p.add_argument("--out")
    p.add_argument("--short", action="store_true")
    a = p.parse_args()
    if a.short:
        a.users, a.runs, a.bin, a.backends, a.out = "50", 1, os.path.join(ROOT, ".build", "debug", "pipeline"), "sqlite", None
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", PIPELINE_LOG_LEVEL="warning")
    binaries = [("this build", a.bin)] + ([("baseline", a.baseline_bin)] if a.baseline_bin else [])
    work = tempfile.mkdtemp(prefix="idle-nights-")
    lines = [
        f"machine: {os.cpu_count()} cores, load {open('/proc/loadavg').read().split()[:3]}, "
        f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC; binaries: "
        + "; ".join(f"{label} {subprocess.run([b, '--version'], capture_output=True, text=True).stdout.strip()} ({b})"
                    for label, b in binaries),
        "",
        "| backend | users | binary | setup (full pass) s | nothing new, wall s | CPU s | rows written | one new day (10 % of users), wall s | CPU s | rows written | nothing new / one new day |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    try:
        for backend_name in a.backends.split(","):
            if backend_name == "postgres":
                admin = os.environ.get("PIPELINE_TEST_POSTGRES_URL")
                if not admin:
                    sys.exit("postgres: set PIPELINE_TEST_POSTGRES_URL (scripts/with-postgres.sh)")
                backend = Postgres(admin, env)
            else:
                backend = SQLite(work)
            for users in [int(u) for u in a.users.split(",")]:
                inboxes = os.path.join(work, f"inbox-{users}")
                if not os.path.isdir(inboxes):  # written once, for every backend (the nights only read it)
                    write_inboxes(inboxes, users)
                for label, binary in binaries:
                    base = backend.fresh()
                    setup = night(binary, base, day(0), os.path.join(inboxes, "week0"), env)
                    idle, new = [], []
                    for _ in range(a.runs):
                        db = backend.copy(base)
                        idle.append(night(binary, db, day(3), None, env))
                        new.append(night(binary, db, day(4), os.path.join(inboxes, "day4"), env))
                    if label == "this build" and any(r["load_days"] for r in idle):
                        sys.exit(f"{backend.name}, {users} users: the nothing-new night wrote training-load rows")
                    ratios = [i["wall"] / n["wall"] for i, n in zip(idle, new)]
                    lines.append(
                        f"| {backend.name} | {users:,} | {label} | {setup['wall']:.2f} | {spread([r['wall'] for r in idle])} | "
                        f"{spread([r['cpu'] for r in idle])} | {spread([r['load_days'] for r in idle], '%d')} | "
                        f"{spread([r['wall'] for r in new])} | {spread([r['cpu'] for r in new])} | "
                        f"{spread([r['load_days'] for r in new], '%d')} | {spread(ratios)} |")
                    print(lines[-1], file=sys.stderr, flush=True)
            if isinstance(backend, Postgres):
                backend.drop_all()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    text = "\n".join(lines) + "\n"
    print(text)
    if a.out:
        with open(a.out, "a") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
