#!/usr/bin/env python3
"""The nightly job end to end, against its floor (issue 13).

    python3 Benchmarks/nightly.py [--users 200] [--days 60] [--scales 1,4] [--backends sqlite,postgres]
                                  [--bin .build/release] [--work DIR] [--out Benchmarks/nightly-results.md]
    python3 Benchmarks/nightly.py --short       # CI: debug binaries, 3 users × 7 days, SQLite; nothing written

For each scale s: `pipeline generate --users USERS*s --days DAYS --seed 1`, then, on the same inbox,
  1. the plain pass (`pipeline-bench plainpass`): read every session file, Base64-decode every blob, write each
     blob once into a plain SQLite table in batched transactions — the floor; with PostgreSQL among the backends, the
     same pass into a plain table of the server (`--postgres`), the floor of the PostgreSQL runs;
  2. `pipeline nightly --json` on a fresh store of each backend (SQLite file; PostgreSQL: a fresh database on the
     server of $PIPELINE_BENCH_POSTGRES_URL, or a throwaway one started by scripts/with-postgres.sh);
  3. `pipeline nightly` again over the same store with nothing new (the incremental case);
  4. `pipeline digest` of every store: equal across backends.
Each measured command starts on a settled machine (`sync`, and a `CHECKPOINT` of the server: the writes the command
before it left in memory are not written back during it) and runs as its own process: wall time, CPU time (user + system) and peak RSS come from wait4(2); the
per-phase wall and CPU times from the nightly's own summary (`phases`). Sessions/s counts the sessions stored.
Prints a Markdown table and appends it, with the machine and load, to --out. Build first:
`swift build -c release --product pipeline && swift build -c release --product pipeline-bench`.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_reaped(cmd, env=None):
    """Like run(), reaping the child with wait4 so its own rusage is read."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        if proc.returncode != 0:
            sys.stderr.write(f"command failed ({proc.returncode}): {' '.join(cmd)}\n{err.read().decode(errors='replace')[-4000:]}\n")
            raise SystemExit(1)
        return out.read().decode(), wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def settle(env, postgres_url=None):
    """Starts each measured command on a quiet machine: the kernel's dirty pages written out (`sync`: the previous
    command's database files would otherwise be written back during this one) and, with a server, its own dirty buffers
    (`CHECKPOINT`), then a second's pause."""
    os.sync()
    if postgres_url:
        subprocess.run(["psql", postgres_url, "-q", "-c", "CHECKPOINT"], check=True, env=env)
        os.sync()
    time.sleep(1)


def inbox_bytes(inbox):
    total = 0
    for dirpath, _, names in os.walk(os.path.join(inbox, "sessions")):
        total += sum(os.path.getsize(os.path.join(dirpath, n)) for n in names)
    return total


def machine():
    cpu = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    return f"{os.cpu_count()} cores ({cpu}), {os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30:.0f} GiB"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--users", type=int, default=200)
    p.add_argument("--days", type=int, default=60)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--scales", default="1,4")
    p.add_argument("--backends", default="sqlite,postgres")
    p.add_argument("--bin", default=os.path.join(ROOT, ".build/release"))
    p.add_argument("--work", default=None)
    p.add_argument("--out", default=os.path.join(ROOT, "Benchmarks/nightly-results.md"))
    p.add_argument("--label", default="", help="a note for the results table (e.g. the commit)")
    p.add_argument("--short", action="store_true",
                   help="CI: the debug binaries (.build/debug), 3 users × 7 days, SQLite, scale 1; results printed only")
    args = p.parse_args()
    if args.short:
        args.users, args.days, args.scales, args.backends = 3, 7, "1", "sqlite"
        if args.bin == p.get_default("bin"):
            args.bin = os.path.join(ROOT, ".build/debug")
        if args.out == p.get_default("out"):
            args.out = os.devnull

    backends = [b for b in args.backends.split(",") if b]
    if "postgres" in backends and not os.environ.get("PIPELINE_BENCH_POSTGRES_URL"):
        if not os.environ.get("PIPELINE_TEST_POSTGRES_URL"):
            # Re-run under a throwaway server.
            os.execvp(os.path.join(ROOT, "scripts/with-postgres.sh"),
                      [os.path.join(ROOT, "scripts/with-postgres.sh"), sys.executable] + sys.argv)
        os.environ["PIPELINE_BENCH_POSTGRES_URL"] = os.environ["PIPELINE_TEST_POSTGRES_URL"]
    pipeline = os.path.join(args.bin, "pipeline")
    bench = os.path.join(args.bin, "pipeline-bench")
    work = args.work or tempfile.mkdtemp(prefix="nightly-bench-")
    os.makedirs(work, exist_ok=True)
    env = dict(os.environ, PIPELINE_LOG_LEVEL="error")
    load_before = os.getloadavg()
    rows = []
    digests = {}
    for scale in [int(s) for s in args.scales.split(",")]:
        users = args.users * scale
        inbox = os.path.join(work, f"inbox-{users}x{args.days}")
        if not os.path.exists(os.path.join(inbox, "manifest.json")):
            run_reaped([pipeline, "generate", "--users", str(users), "--days", str(args.days), "--seed", str(args.seed),
                        "--out", inbox], env)
        mb = inbox_bytes(inbox) / 1e6
        pg_url = os.environ.get("PIPELINE_BENCH_POSTGRES_URL") if "postgres" in backends else None
        settle(env, pg_url)
        text, wall, cpu, rss = run_reaped([bench, "plainpass", inbox, os.path.join(work, "plain.sqlite")], env)
        plain = json.loads(text)
        rows.append(dict(scale=f"{users}×{args.days}", what="plain pass", sessions=plain["blobs"], wall=wall, cpu=cpu,
                         rss=rss, mb=mb, phases={}))
        if "postgres" in backends:
            # The PostgreSQL floor: the same plain pass into a plain table of the server (its TOAST and WAL work included).
            base = os.environ["PIPELINE_BENCH_POSTGRES_URL"]
            name = f"plain_{users}_{int(time.time())}"
            subprocess.run(["psql", base, "-q", "-c", f"CREATE DATABASE {name}"], check=True, env=env)
            settle(env, pg_url)
            text, wall, cpu, rss = run_reaped([bench, "plainpass", inbox, "--postgres", base.rsplit("/", 1)[0] + "/" + name], env)
            plain_pg = json.loads(text)
            subprocess.run(["psql", base, "-q", "-c", f"DROP DATABASE {name}"], check=True, env=env)
            rows.append(dict(scale=f"{users}×{args.days}", what="plain pass, postgres", sessions=plain_pg["blobs"], wall=wall,
                             cpu=cpu, rss=rss, mb=mb, phases={}))
        for backend in backends:
            if backend == "sqlite":
                db = os.path.join(work, f"bench-{users}.sqlite")
                for suffix in ("", "-wal", "-shm"):
                    if os.path.exists(db + suffix):
                        os.remove(db + suffix)
            else:
                base = os.environ["PIPELINE_BENCH_POSTGRES_URL"]
                name = f"bench_{users}_{int(time.time())}"
                subprocess.run(["psql", base, "-q", "-c", f"CREATE DATABASE {name}"], check=True, env=env)
                db = base.rsplit("/", 1)[0] + "/" + name
            settle(env, pg_url)
            text, wall, cpu, rss = run_reaped([pipeline, "nightly", "--db", db, "--inbox", inbox, "--json"], env)
            summary = json.loads(text)
            stored = summary["ingest"]["sessions"]["stored"]
            rows.append(dict(scale=f"{users}×{args.days}", what=f"nightly, {backend}", sessions=stored, wall=wall, cpu=cpu,
                             rss=rss, mb=mb, phases=summary.get("phases") or {}, plain=plain))
            settle(env, pg_url)
            text, wall, cpu, rss = run_reaped([pipeline, "nightly", "--db", db, "--inbox", inbox, "--json"], env)
            again = json.loads(text)
            assert again["ingest"]["sessions"]["stored"] == 0, "second run stored sessions"
            rows.append(dict(scale=f"{users}×{args.days}", what=f"again, nothing new, {backend}", sessions=0, wall=wall,
                             cpu=cpu, rss=rss, mb=mb, phases=again.get("phases") or {}))
            text, *_ = run_reaped([pipeline, "digest", "--db", db], env)
            digests.setdefault(users, {})[backend] = text.strip().split()[-1] if text.strip() else "?"
        if not args.work:
            shutil.rmtree(inbox, ignore_errors=True)

    lines = []
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    lines.append(f"### {stamp} {args.label}".rstrip())
    lines.append("")
    lines.append(f"Machine: {machine()}; load average before {load_before[0]:.1f}/{load_before[1]:.1f}/{load_before[2]:.1f}, "
                 f"after {os.getloadavg()[0]:.1f}. {'Debug (--short)' if args.short else 'Release'} build; each command its own process (wait4: wall, user+sys CPU, peak RSS).")
    lines.append("")
    lines.append("| data | run | sessions | wall s | CPU s | sessions/s | MB/s | peak RSS MiB | × plain pass | phases wall / CPU s |")
    lines.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
    plain_by_scale = {}
    for r in rows:
        if r["what"].startswith("plain pass"):
            # Each backend's runs against its own floor (the SQLite plain pass for SQLite, the server's for PostgreSQL).
            plain_by_scale[(r["scale"], "postgres" if "postgres" in r["what"] else "sqlite")] = r["wall"]
        rate = r["sessions"] / r["wall"] if r["sessions"] else 0
        floor = plain_by_scale.get((r["scale"], "postgres" if "postgres" in r["what"] else "sqlite"))
        ratio = r["wall"] / floor if not r["what"].startswith("plain pass") and r["sessions"] and floor else None
        phases = ", ".join(f"{k} {v['wall_s']:.2f}/{v['cpu_s']:.2f}" for k, v in sorted(r["phases"].items()))
        lines.append(f"| {r['scale']} | {r['what']} | {r['sessions']} | {r['wall']:.2f} | {r['cpu']:.2f} | "
                     f"{rate:.0f} | {r['mb'] / r['wall'] if r['sessions'] else 0:.0f} | {r['rss']:.0f} | "
                     f"{'' if ratio is None else f'{ratio:.2f}×'} | {phases} |")
    lines.append("")
    for users, d in digests.items():
        same = len(set(d.values())) == 1
        lines.append(f"Digest {users} users: " + ", ".join(f"{k} `{v[:16]}…`" for k, v in d.items())
                     + (" — equal" if same else " — DIFFERENT"))
    lines.append("")
    text = "\n".join(lines)
    print(text)
    with open(args.out, "a") as f:
        f.write(text + "\n")
    if args.short and not args.work:
        shutil.rmtree(work, ignore_errors=True)
    if any(len(set(d.values())) != 1 for d in digests.values()):
        sys.exit(1)


if __name__ == "__main__":
    main()
