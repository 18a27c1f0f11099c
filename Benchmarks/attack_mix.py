#!/usr/bin/env python3
"""The issue-39 attack mix against `pipeline serve`, with a bystander's cached reads timed and the server's peak RSS.

One round: a fresh `pipeline serve` over a generated store (`pipeline generate` + `pipeline nightly`), then
  1. baseline: the bystander alone (cached `GET /v1/me/stats`, and `/v1/me/plan` when it has one, back to back on one
     keep-alive connection, in a process of its own so that the attackers' Python threads do not delay its clock);
  2. attack: the same bystander while, at once,
     - report windows: 2 accounts × 2 connections of `GET /v1/me/report?to=9999-12-30` and of a ten-year window;
     - big `detail` uploads: 8 accounts × 2 connections, each a batch of one session whose `detail` is a million keys
       (≈ 13 MB) or one 30 MB string, sent again as soon as answered;
     - slow bodies: 8 other accounts × 1 upload whose body comes one byte every `--slow-interval` seconds (opened again
       when the server cuts it off);
     - malformed batches: 1 account posting 1.5 MB of non-JSON in a loop;
     - a second bystander posting one small valid batch every 2 s (is it ever locked out of the upload slots?).
The server's peak RSS is `VmHWM` of /proc/PID/status (after the baseline, and at the end); VmRSS is sampled every
100 ms. Prints, per round, the bystander's p50 / p99 / max in both phases, the peak RSS, and what each attacker got
(status counts); `--log FILE` appends the same as markdown. A bystander read that gets no answer within 30 s counts
as 30 s and as not 2xx.

    python3 Benchmarks/attack_mix.py --short                   # CI: debug binary, 3 s + 15 s, one round
    python3 Benchmarks/attack_mix.py --bin .build/release/pipeline --rounds 3 --log Benchmarks/attack-results.md
    python3 Benchmarks/attack_mix.py --short --max-rss-mb 512  # exit 1 when the peak RSS is over

Needs python3 (stdlib only) and a built `pipeline`. Binds 127.0.0.1 only; stops the server on exit.
"""
import argparse
import base64
import hashlib
import hmac
import http.client
import json
import multiprocessing
import os
import pathlib
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter

ROOT = pathlib.Path(__file__).resolve().parent.parent


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def token(secret: str, user: str, device=None) -> str:
    """An HS256 token for `user` valid for an hour, naming the device the account is bound to (if any)."""
    claims = {"sub": user, "exp": int(time.time()) + 3600, "iat": int(time.time())}
    if device:
        claims["device"] = device
    header = b64url(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    payload = b64url(json.dumps(claims, separators=(",", ":")).encode())
    signature = hmac.new(secret.encode(), f"{header}.{payload}".encode(), hashlib.sha256).digest()
    return f"{header}.{payload}.{b64url(signature)}"


def percentile(values, p):
    """Nearest-rank percentile (p in 0…100) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * p // 100))  # ceil(n·p/100)
    return ordered[int(rank) - 1]


def status_of(proc_pid: int, key: str) -> int:
    """A /proc/PID/status value in kB (VmHWM, VmRSS), 0 when the process is gone."""
    try:
        with open(f"/proc/{proc_pid}/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


# --- the bystander (a process of its own) -------------------------------------------------------------------------

def bystander(host, port, tok, routes, stop_event, out_queue, phase_event):
    """Back-to-back cached reads on one keep-alive connection; sends (phase, seconds, status) lists at the end."""
    samples = []
    conn = http.client.HTTPConnection(host, port, timeout=30)
    headers = {"Authorization": f"Bearer {tok}", "Accept-Encoding": "gzip"}
    i = 0
    while not stop_event.is_set():
        route = routes[i % len(routes)]
        i += 1
        phase = "attack" if phase_event.is_set() else "baseline"
        t0 = time.perf_counter()
        try:
            conn.request("GET", route, headers=headers)
            response = conn.getresponse()
            response.read()
            status = response.status
        except (OSError, http.client.HTTPException):
            status = 0
            conn.close()
            conn = http.client.HTTPConnection(host, port, timeout=30)
        samples.append((phase, time.perf_counter() - t0, status))
        time.sleep(0.005)
    conn.close()
    out_queue.put(samples)


# --- the attackers (threads) ---------------------------------------------------------------------------------------

class Attack:
    def __init__(self, host, port, stop):
        self.host, self.port, self.stop = host, port, stop
        self.counts = {}
        self.lock = threading.Lock()

    def count(self, kind, status):
        with self.lock:
            self.counts.setdefault(kind, Counter())[status] += 1

    def request_loop(self, kind, tok, method, path, body=None, pause=0.0):
        conn = None
        while not self.stop.is_set():
            try:
                if conn is None:
                    conn = http.client.HTTPConnection(self.host, self.port, timeout=120)
                headers = {"Authorization": f"Bearer {tok}"}
                if body is not None:
                    headers["Content-Type"] = "application/json"
                conn.request(method, path, body=body, headers=headers)
                response = conn.getresponse()
                response.read()
                self.count(kind, response.status)
                if response.getheader("Connection", "").lower() == "close":
                    conn.close()
                    conn = None
            except (OSError, http.client.HTTPException) as error:
                self.count(kind, type(error).__name__)
                if conn is not None:
                    conn.close()
                conn = None
                time.sleep(0.05)
            if pause:
                self.stop.wait(pause)
        if conn is not None:
            conn.close()

    def slow_body(self, kind, tok, interval):
        """An upload whose body comes one byte every `interval` s; opened again when the server closes it."""
        while not self.stop.is_set():
            try:
                s = socket.create_connection((self.host, self.port), timeout=5)
            except OSError as error:
                self.count(kind, type(error).__name__)
                self.stop.wait(0.5)
                continue
            opened = time.monotonic()
            head = (
                "POST /v1/sessions/batch_upload HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                f"Authorization: Bearer {tok}\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n")
            outcome = None
            try:
                s.sendall(head.encode())
                s.settimeout(interval)
                while not self.stop.is_set():
                    try:
                        data = s.recv(4096)
                        if not data:
                            outcome = "closed"
                            break
                        line = data.split(b"\r\n", 1)[0].decode(errors="replace")
                        outcome = line.split(" ")[1] if line.startswith("HTTP/") else "answered"
                        break
                    except socket.timeout:
                        s.sendall(b" ")
            except OSError:
                outcome = "closed"
            finally:
                s.close()
            if outcome is not None:
                self.count(kind, f"{outcome} after {time.monotonic() - opened:.0f} s")

    def small_uploads(self, kind, tok, pause):
        """One small valid batch (one new session, yesterday) every `pause` s: the bystander's upload."""
        conn = None
        while not self.stop.is_set():
            day = time.strftime("%Y-%m-%d", time.gmtime(time.time() - 86400))
            minute = secrets.randbelow(600)
            start = f"{day}T{6 + minute // 60:02d}:{minute % 60:02d}:00Z"
            end = f"{day}T{6 + minute // 60:02d}:{minute % 60:02d}:30Z"
            body = json.dumps({"sessions": [{
                "session_id": str(uuid.uuid4()), "started_at": start, "ended_at": end, "duration": 30,
                "total_energy": 5, "total_distance": 200, "detail": {"avg_hr": 120}}]})
            try:
                if conn is None:
                    conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
                conn.request("POST", "/v1/sessions/batch_upload", body=body,
                             headers={"Authorization": f"Bearer {tok}", "Content-Type": "application/json"})
                response = conn.getresponse()
                response.read()
                self.count(kind, response.status)
            except (OSError, http.client.HTTPException) as error:
                self.count(kind, type(error).__name__)
                if conn is not None:
                    conn.close()
                conn = None
            self.stop.wait(pause)
        if conn is not None:
            conn.close()


def big_bodies():
    """A batch of one session with a million-key `detail` (≈ 13 MB), and one with a 30 MB string in it."""
    day = time.strftime("%Y-%m-%d", time.gmtime(time.time() - 2 * 86400))
    def batch(detail_json: str) -> bytes:
        return ('{"sessions": [{"session_id": "%s", "started_at": "%sT05:00:00Z", "ended_at": "%sT05:30:00Z", '
                '"duration": 1800, "total_energy": 250, "total_distance": 14000, "detail": %s}]}'
                % (uuid.uuid4(), day, day, detail_json)).encode()
    keys = batch("{" + ",".join(f'"k{i:07d}":0' for i in range(1_000_000)) + "}")
    string = batch('{"blob": "' + "x" * (30 << 20) + '"}')
    return keys, string


# --- one round -----------------------------------------------------------------------------------------------------

def run_round(args, pipeline, db, users, devices, number):
    env = dict(os.environ)
    secret = secrets.token_hex(24)
    env["PIPELINE_JWT_SECRET"] = secret
    env.setdefault("PIPELINE_ID_HASH_KEY", "attack-mix-benchmark-key-" + "0" * 16)
    work = pathlib.Path(db).parent
    out = open(work / f"serve-{number}.out", "w+")
    err = open(work / f"serve-{number}.err", "w+")
    server = subprocess.Popen([pipeline, "serve", "--db", db, "--host", "127.0.0.1", "--port", "0",
                               "--log-level", "error"], stdout=out, stderr=err, env=env)
    try:
        base = None
        for _ in range(600):
            out.seek(0)
            for line in out.read().splitlines():
                if line.startswith("listening on "):
                    base = line.split("listening on ", 1)[1]
            if base or server.poll() is not None:
                break
            time.sleep(0.1)
        if not base:
            err.seek(0)
            raise SystemExit("the server did not start:\n" + err.read())
        host, port = base.replace("http://", "").rsplit(":", 1)
        port = int(port)
        tokens = {u: token(secret, u, devices.get(u)) for u in users}
        reader, uploader = users[0], users[1]
        reports, heavy, slow = users[2:4], users[4:12], users[12:20]

        # The bystander's routes: its stats, and its plan when it has one; each read once to be cached.
        routes = []
        for route in ["/v1/me/stats", "/v1/me/plan"]:
            conn = http.client.HTTPConnection(host, port, timeout=30)
            conn.request("GET", route, headers={"Authorization": f"Bearer {tokens[reader]}"})
            response = conn.getresponse()
            response.read()
            conn.close()
            if response.status == 200:
                routes.append(route)
            else:
                print(f"warm-up {route}: {response.status}", file=sys.stderr)
        if not routes:
            raise SystemExit("the bystander has no cached route (stats answered non-200)")

        context = multiprocessing.get_context("fork")
        stop_reader, phase, queue = context.Event(), context.Event(), context.Queue()
        reader_process = context.Process(
            target=bystander, args=(host, port, tokens[reader], routes, stop_reader, queue, phase))
        reader_process.start()
        rss_samples = []
        stop_sampler = threading.Event()

        def sampler():
            while not stop_sampler.is_set():
                rss_samples.append((time.monotonic(), status_of(server.pid, "VmRSS")))
                stop_sampler.wait(0.1)
        sampling = threading.Thread(target=sampler, daemon=True)
        sampling.start()

        time.sleep(args.baseline)
        baseline_hwm = status_of(server.pid, "VmHWM")

        keys_body, string_body = big_bodies()
        junk = b"x" * (1536 << 10)
        stop = threading.Event()
        attack = Attack(host, port, stop)
        threads = []
        def spawn(target, *a):
            t = threading.Thread(target=target, args=a, daemon=True)
            t.start()
            threads.append(t)
        phase.set()
        attack_started = time.monotonic()
        today_window = "/v1/me/report?to=9999-12-30"
        ten_years = "/v1/me/report?from=2016-01-01&to=2025-12-31"
        only = set(args.only.split(",")) if args.only else None
        def wanted(kind):
            return only is None or kind in only
        if wanted("reports"):
            for u in reports:
                spawn(attack.request_loop, "report to=9999-12-30", tokens[u], "GET", today_window)
                spawn(attack.request_loop, "report ten years", tokens[u], "GET", ten_years)
        if wanted("detail"):
            for k, u in enumerate(heavy):
                spawn(attack.request_loop, "million-key detail", tokens[u], "POST", "/v1/sessions/batch_upload",
                      keys_body)
                spawn(attack.request_loop, "30 MB detail", tokens[u], "POST", "/v1/sessions/batch_upload",
                      string_body)
        if wanted("slow"):
            for u in slow:
                spawn(attack.slow_body, "slow body", tokens[u], args.slow_interval)
        if wanted("malformed"):
            spawn(attack.request_loop, "malformed 1.5 MB", tokens[reports[0]], "POST", "/v1/sessions/batch_upload",
                  junk)
        if wanted("upload"):
            spawn(attack.small_uploads, "bystander's small upload", tokens[uploader], 2.0)

        time.sleep(args.attack)
        stop.set()
        stop_reader.set()
        samples = queue.get(timeout=120)
        reader_process.join(timeout=30)
        for t in threads:
            t.join(timeout=max(1.0, args.slow_interval + 1))
        attack_seconds = time.monotonic() - attack_started
        peak_hwm = status_of(server.pid, "VmHWM")
        after_rss = status_of(server.pid, "VmRSS")
        stop_sampler.set()
        sampling.join()
        alive = server.poll() is None
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
        out.close()
        err.close()

    result = {"round": number, "routes": routes, "attack_seconds": round(attack_seconds, 1),
              "server_alive_at_end": alive, "baseline_hwm_mib": round(baseline_hwm / 1024, 1),
              "peak_hwm_mib": round(peak_hwm / 1024, 1), "rss_after_mib": round(after_rss / 1024, 1),
              "attackers": {k: dict(v) for k, v in sorted(attack.counts.items())}}
    for name in ["baseline", "attack"]:
        times = [s[1] * 1000 for s in samples if s[0] == name]
        bad = sum(1 for s in samples if s[0] == name and s[2] not in (200, 304))
        result[name] = {"reads": len(times), "non_2xx": bad, "over_50ms": sum(1 for t in times if t > 50),
                        "p50_ms": round(percentile(times, 50), 2) if times else None,
                        "p99_ms": round(percentile(times, 99), 2) if times else None,
                        "max_ms": round(max(times), 2) if times else None}
    return result


def loadavg():
    try:
        return " ".join(pathlib.Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=str(ROOT / ".build" / "debug" / "pipeline"), help="the pipeline binary")
    parser.add_argument("--short", action="store_true", help="CI: 12 users × 14 days, 3 s baseline, 15 s attack")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--days", type=int, default=28)
    parser.add_argument("--baseline", type=float, default=10.0, help="seconds of the bystander alone")
    parser.add_argument("--attack", type=float, default=60.0, help="seconds of the attack mix")
    parser.add_argument("--slow-interval", type=float, default=5.0, help="seconds between a slow body's bytes")
    parser.add_argument("--max-rss-mb", type=float, help="exit 1 when a round's peak RSS (MiB) is over this")
    parser.add_argument("--max-p99-ms", type=float,
                        help="exit 1 when a round's bystander p99 (ms) is over this, or a read of it failed (30 s timeout)")
    parser.add_argument("--only", help="a part of the mix: comma-separated reports, detail, slow, malformed, upload")
    parser.add_argument("--log", help="append the rounds as markdown to this file")
    parser.add_argument("--keep", action="store_true", help="keep the work directory")
    args = parser.parse_args()
    if args.short:
        args.days, args.baseline, args.attack, args.slow_interval = 14, 3.0, 15.0, 1.0
    pipeline = str(pathlib.Path(args.bin).resolve())
    if not os.access(pipeline, os.X_OK):
        raise SystemExit(f"no pipeline binary at {pipeline} (swift build --product pipeline, or --bin)")

    work = pathlib.Path(tempfile.mkdtemp(prefix="attack-mix."))
    try:
        env = dict(os.environ)
        env.setdefault("PIPELINE_ID_HASH_KEY", "attack-mix-benchmark-key-" + "0" * 16)
        started = time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime())
        subprocess.run([pipeline, "generate", "--users", "20", "--days", str(args.days), "--seed", "42",
                        "--end", "yesterday", "--out", str(work / "inbox")], check=True, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        db = str(work / "pipeline.sqlite")
        subprocess.run([pipeline, "nightly", "--db", db, "--inbox", str(work / "inbox"), "--log-level", "error"],
                       check=True, env=env, stdout=subprocess.DEVNULL)
        manifest = json.loads((work / "inbox" / "manifest.json").read_text())
        users = [u["user_id"] for u in manifest["users"]]
        # The accounts bound to a device (the inbox's users files): their tokens must name it.
        devices = {}
        for path in sorted((work / "inbox" / "users").glob("*.json")):
            for u in json.loads(path.read_text())["users"]:
                if u.get("bound_device_id"):
                    devices[u["user_id"]] = u["bound_device_id"]
        if len(users) < 20:
            raise SystemExit(f"expected 20 users, the manifest has {len(users)}")
        results = []
        for number in range(1, args.rounds + 1):
            load_before = loadavg()
            result = run_round(args, pipeline, db, users, devices, number)
            result["load_before"], result["load_after"] = load_before, loadavg()
            results.append(result)
            b, a = result["baseline"], result["attack"]
            print(f"round {number}: peak RSS {result['peak_hwm_mib']} MiB (after the baseline "
                  f"{result['baseline_hwm_mib']} MiB, at the end {result['rss_after_mib']} MiB); bystander "
                  f"baseline p50 {b['p50_ms']} ms p99 {b['p99_ms']} ms ({b['reads']} reads), under attack p50 "
                  f"{a['p50_ms']} ms p99 {a['p99_ms']} ms max {a['max_ms']} ms ({a['reads']} reads, {a['over_50ms']} over 50 ms, "
                  f"{a['non_2xx']} not 2xx); load {result['load_before']} → {result['load_after']}")
            for kind, counts in result["attackers"].items():
                print(f"  {kind}: " + ", ".join(f"{k}×{v}" for k, v in sorted(counts.items(), key=str)))
        print(json.dumps({"started": started, "binary": pipeline, "rounds": results}))
        if args.log:
            write_log(args, pipeline, started, results)
        failed = []
        for r in results:
            if not r["server_alive_at_end"]:
                failed.append(f"round {r['round']}: the server died")
            if args.max_rss_mb is not None and r["peak_hwm_mib"] > args.max_rss_mb:
                failed.append(f"round {r['round']}: peak RSS {r['peak_hwm_mib']} MiB > {args.max_rss_mb}")
            if args.max_p99_ms is not None and (r["attack"]["p99_ms"] or 0) > args.max_p99_ms:
                failed.append(f"round {r['round']}: bystander p99 {r['attack']['p99_ms']} ms > {args.max_p99_ms}")
            if args.max_p99_ms is not None and r["attack"]["non_2xx"]:
                failed.append(f"round {r['round']}: {r['attack']['non_2xx']} bystander reads not answered 2xx")
        for f in failed:
            print("FAIL " + f, file=sys.stderr)
        return 1 if failed else 0
    finally:
        if args.keep:
            print(f"work directory kept: {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)


def write_log(args, pipeline, started, results):
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    lines = [f"\n## Run of {started} (`{' '.join(sys.argv[1:])}`)\n\n",
             f"Binary `{pipeline}`, checkout {commit}; 20 users × {args.days} days; baseline {args.baseline:g} s, "
             f"attack {args.attack:g} s, slow bodies one byte every {args.slow_interval:g} s.\n\n",
             "| round | load before → after | bystander baseline p50 / p99 (reads) | under attack p50 / p99 / max "
             "(reads, not 2xx) | peak RSS (VmHWM) after baseline → end | RSS at end |\n",
             "|---:|---|---|---|---|---|\n"]
    for r in results:
        b, a = r["baseline"], r["attack"]
        lines.append(f"| {r['round']} | {r['load_before']} → {r['load_after']} | {b['p50_ms']} / {b['p99_ms']} ms "
                     f"({b['reads']}) | {a['p50_ms']} / {a['p99_ms']} / {a['max_ms']} ms ({a['reads']}, "
                     f"{a['non_2xx']}) | {r['baseline_hwm_mib']} → **{r['peak_hwm_mib']} MiB** | "
                     f"{r['rss_after_mib']} MiB |\n")
    lines.append("\nWhat the attackers got (status or outcome × count), per round:\n\n")
    for r in results:
        parts = "; ".join(f"{kind}: " + ", ".join(f"{k}×{v}" for k, v in sorted(c.items(), key=str))
                          for kind, c in r["attackers"].items())
        lines.append(f"- round {r['round']}: {parts}\n")
    with open(args.log, "a") as f:
        f.write("".join(lines))


if __name__ == "__main__":
    sys.exit(main())
