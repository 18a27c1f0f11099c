#!/usr/bin/env python3
"""The plain job the nightly is compared with: Python, numpy and DuckDB, no pipeline code.

    python3 Benchmarks/plain_job.py INBOX [--db FILE.duckdb] [--workers 2] [--json]
    python3 Benchmarks/plain_job.py INBOX --compare NIGHTLY.sqlite [--sample 20]

Reads the same upload-JSON inbox `pipeline nightly` reads (`sessions/<user>/*.json`, docs/inbox.md), and for every
session with a recording: Base64-decodes it, walks the records of the raw BLE blob (docs/raw-ble-blob.md: a 16-byte
header, then records of an 8-byte header and a payload), parses the Indoor Bike Data notifications (0x2AD2: flags,
then the flagged fields in bit order, docs/ftms-fields.md) and the Heart Rate Measurements (0x2A37) with numpy, puts
them on a 1 Hz grid (second = record time // 1000, the last sample of a second, held over up to 3 s without one, as
`SessionAssembler` does), computes duration, average power, Normalized Power (30 s rolling means, no window across
a gap, docs/metrics.md), average heart rate (seconds above 0 bpm) and distance (the machine's total distance, last
minus first), and stores one row a session in a DuckDB table (`INSERT OR IGNORE`: a session uploaded twice is
stored once). Files are parsed by `--workers` processes (both cores, as the nightly uses both); one process writes.
It validates nothing beyond what it needs to read (no ledger, no hashes, no quarantine, no per-user aggregates):
a floor, not a competitor.

`--json` prints {"sessions", "files", "bytes", "wall_s"}. `--compare` runs nothing: it reads the nightly's SQLite
store (`session_metrics`, its bike sessions) and the DuckDB file of a previous run and prints the largest differences over `--sample`
sessions (and the count of sessions in both); exit status 1 when a metric differs by more than 0.5 % or 1 unit.

Needs numpy and duckdb (`pip install duckdb`); without duckdb it says so and exits with status 3.
"""
import argparse
import base64
import binascii
import json
import os
import sys
import time

import numpy as np

try:
    import duckdb
except ImportError:  # said clearly; the benchmark scripts skip the comparison on status 3
    duckdb = None

MAX_GAP_S = 3
# Indoor Bike Data fields in bit order: (bit, size in bytes). Bit 0 ("More Data") is inverted: speed present when 0.
IBD_FIELDS = [(0, 2), (1, 2), (2, 2), (3, 2), (4, 3), (5, 2), (6, 2), (7, 2), (8, 5), (9, 1), (10, 1), (11, 2),
              (12, 2)]


def record_offsets(raw):
    """Offsets of the records' headers: the walk is sequential (each length says where the next record starts)."""
    offsets = []
    append = offsets.append
    p, n = 16, len(raw)
    while p + 8 <= n:
        append(p)
        p += 8 + raw[p + 7]
    if p > n:  # the last record is cut off
        offsets.pop()
    return np.array(offsets, dtype=np.int64)


def u16(b, at):
    return b[at].astype(np.int64) | (b[at + 1].astype(np.int64) << 8)


def on_grid(second, values, n):
    """The last value of each second, held over up to MAX_GAP_S seconds without one; NaN elsewhere."""
    col = np.full(n, np.nan)
    col[second] = values  # later records overwrite earlier ones in the same second
    have = ~np.isnan(col)
    idx = np.where(have, np.arange(n), -1)
    np.maximum.accumulate(idx, out=idx)
    held = (idx >= 0) & (np.arange(n) - idx <= MAX_GAP_S)
    out = np.full(n, np.nan)
    out[held] = col[idx[held]]
    return out


def session_metrics(raw):
    """(duration_s, avg_power_w, np_w, avg_hr_bpm, distance_m) of one blob, None where undefined."""
    if len(raw) < 16 or raw[:4] != b"SFRB" or raw[4] != 1:
        return None
    o = record_offsets(raw)
    if len(o) == 0:
        return (0.0, None, None, None, None)
    # Two bytes of padding: a vectorised read of a field that a short last record does not hold (the branch np.where
    # does not take, a uint16 heart rate in a 2-byte record) stays inside the array; such values are masked below.
    b = np.frombuffer(raw + b"\0\0", dtype=np.uint8)
    t = u16(b, o) | (u16(b, o + 2) << 16)
    uuid = u16(b, o + 4)
    kind = b[o + 6]
    length = b[o + 7].astype(np.int64)
    n = int(t.max() // 1000) + 1
    sec = t // 1000

    # Indoor Bike Data: the fields' positions follow from each record's flags.
    m = (uuid == 0x2AD2) & (kind == 0) & (length >= 2)
    start = o[m] + 8
    end = start + length[m]
    flags = u16(b, start)
    pos = start + 2
    at = {}
    for bit, size in IBD_FIELDS:
        present = ((flags >> bit) & 1) == (0 if bit == 0 else 1)
        at[bit] = (pos, present & (pos + size <= end))
        pos = pos + np.where(present, size, 0)
    s_ibd = sec[m]
    power = distance = None
    p_at, p_ok = at[6]
    if p_ok.any():
        v = u16(b, p_at[p_ok])
        v = np.where(v >= 0x8000, v - 0x10000, v).astype(np.float64)
        v[v == 0x7FFF] = np.nan
        power = on_grid(s_ibd[p_ok], v, n)
    d_at, d_ok = at[4]
    if d_ok.any():
        dv = u16(b, d_at[d_ok]) | (b[d_at[d_ok] + 2].astype(np.int64) << 16)
        dv = dv[dv != 0xFFFFFF]
        distance = float(dv[-1] - dv[0]) if len(dv) else None

    # Heart Rate Measurement: uint8 or uint16 value; "contact not detected" and 0 bpm are missing.
    h = (uuid == 0x2A37) & (kind == 0) & (length >= 2)
    hs = o[h] + 8
    hflags = b[hs]
    wide = (hflags & 1) == 1
    hr = np.where(wide, u16(b, hs + 1), b[hs + 1]).astype(np.float64)
    hr[wide & (length[h] < 3)] = np.nan  # a uint16 value the record is too short to hold
    hr[((hflags >> 1) & 3) == 2] = np.nan
    hr[hr == 0] = np.nan
    hr_grid = on_grid(sec[h], hr, n) if len(hr) else None

    avg_power = np_w = avg_hr = None
    if power is not None:
        valid = ~np.isnan(power)
        if valid.any():
            avg_power = float(power[valid].mean())
        if n >= 30:
            filled = np.where(valid, power, 0.0)
            c = np.concatenate(([0.0], np.cumsum(filled)))
            gaps = np.concatenate(([0], np.cumsum(~valid)))
            roll = (c[30:] - c[:-30]) / 30
            whole = (gaps[30:] - gaps[:-30]) == 0
            if whole.any():
                np_w = float(np.mean(roll[whole] ** 4) ** 0.25)
    if hr_grid is not None:
        ok = hr_grid > 0
        if ok.any():
            avg_hr = float(hr_grid[ok].mean())
    return (float(n), avg_power, np_w, avg_hr, distance)


def parse_file(path):
    """The rows of one upload file: (user, session_id, started_at, raw bytes, metrics...)."""
    user = os.path.basename(os.path.dirname(path))
    try:
        with open(path, "rb") as f:
            doc = json.loads(f.read())
        sessions = doc["sessions"]
    except (ValueError, KeyError, TypeError):
        return []
    rows = []
    for s in sessions if isinstance(sessions, list) else []:
        text = s.get("raw") if isinstance(s, dict) else None
        if not isinstance(text, str):
            continue
        try:
            raw = base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError):
            continue
        m = session_metrics(raw)
        if m is None:
            continue
        rows.append((user, str(s.get("session_id")), str(s.get("started_at")), len(raw)) + m)
    return rows


def session_files(inbox):
    root = os.path.join(inbox, "sessions")
    return sorted(os.path.join(d, n) for d, _, names in os.walk(root) for n in names if n.endswith(".json"))


COLUMNS = ["user_id", "session_id", "started_at", "blob_bytes", "duration_s", "avg_power_w", "np_w", "avg_hr_bpm",
           "distance_m"]


def run(inbox, db, workers):
    start = time.perf_counter()
    files = session_files(inbox)
    if os.path.exists(db):
        os.remove(db)
    con = duckdb.connect(db)
    con.execute("CREATE TABLE session_metrics (user_id VARCHAR, session_id VARCHAR, started_at VARCHAR, "
                "blob_bytes BIGINT, duration_s DOUBLE, avg_power_w DOUBLE, np_w DOUBLE, avg_hr_bpm DOUBLE, "
                "distance_m DOUBLE, PRIMARY KEY (user_id, session_id))")
    rows = []
    if workers > 1:
        import multiprocessing
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            for part in pool.imap(parse_file, files, chunksize=8):
                rows.extend(part)
    else:
        for path in files:
            rows.extend(parse_file(path))

    def col(i, numeric):
        if not numeric:
            return np.array([r[i] for r in rows], dtype=object)
        return np.array([np.nan if r[i] is None else r[i] for r in rows], dtype=np.float64)

    batch = {name: col(i, i >= 3) for i, name in enumerate(COLUMNS)}  # noqa: F841 (DuckDB scans it by name)
    con.execute("INSERT OR IGNORE INTO session_metrics SELECT user_id, session_id, started_at, "
                "blob_bytes::BIGINT, duration_s, "
                "CASE WHEN isnan(avg_power_w) THEN NULL ELSE avg_power_w END, "
                "CASE WHEN isnan(np_w) THEN NULL ELSE np_w END, "
                "CASE WHEN isnan(avg_hr_bpm) THEN NULL ELSE avg_hr_bpm END, "
                "CASE WHEN isnan(distance_m) THEN NULL ELSE distance_m END FROM batch")
    stored = con.execute("SELECT count(*) FROM session_metrics").fetchone()[0]
    con.close()
    wall = time.perf_counter() - start
    return dict(sessions=stored, files=len(files), bytes=sum(os.path.getsize(f) for f in files), wall_s=wall)


def compare(db, nightly_db, sample):
    """The largest differences between the plain job's rows and the nightly's `session_metrics`."""
    import sqlite3
    con = duckdb.connect(db, read_only=True)
    ours = {(u, s): (d, p, npw, hr, dist) for u, s, d, p, npw, hr, dist in con.execute(
        "SELECT user_id, session_id, duration_s, avg_power_w, np_w, avg_hr_bpm, distance_m FROM session_metrics")
        .fetchall()}
    lite = sqlite3.connect(f"file:{nightly_db}?mode=ro", uri=True)
    theirs = {}
    for u, s, d, dist, p, hr, doc in lite.execute(
            "SELECT user_id, session_id, duration_s, distance_m, avg_power_w, avg_hr_bpm, metrics_json "
            "FROM session_metrics WHERE sport = 'bike'"):  # the plain job reads Indoor Bike Data only
        npw = (json.loads(doc).get("metrics") or {}).get("np_w") if doc else None
        theirs[(u, s)] = (d, p, npw, hr, dist)
    both = sorted(set(ours) & set(theirs))
    step = max(1, len(both) // max(1, sample))
    names = ["duration_s", "avg_power_w", "np_w", "avg_hr_bpm", "distance_m"]
    worst = {n: (0.0, None) for n in names}
    bad = 0
    for key in both[::step][:sample]:
        for i, name in enumerate(names):
            a, b = ours[key][i], theirs[key][i]
            if a is None or b is None:
                if (a is None) != (b is None):
                    worst[name] = (float("inf"), key)
                    bad += 1
                continue
            diff = abs(a - b)
            if diff > worst[name][0]:
                worst[name] = (diff, key)
            if diff > max(1.0, 0.005 * abs(b)):
                bad += 1
    return dict(sessions_plain=len(ours), sessions_nightly=len(theirs), in_both=len(both),
                compared=len(both[::step][:sample]),
                largest_difference={n: dict(diff=w[0], session=None if w[1] is None else "/".join(w[1]))
                                    for n, w in worst.items()},
                beyond_tolerance=bad)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("inbox")
    p.add_argument("--db", default=None, help="DuckDB file (default: INBOX/../plain.duckdb)")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    p.add_argument("--json", action="store_true")
    p.add_argument("--compare", metavar="NIGHTLY_SQLITE")
    p.add_argument("--sample", type=int, default=20)
    args = p.parse_args()
    if duckdb is None:
        sys.stderr.write("plain_job.py: the duckdb module is missing (pip install duckdb); nothing run\n")
        sys.exit(3)
    db = args.db or os.path.join(os.path.dirname(os.path.abspath(args.inbox)), "plain.duckdb")
    if args.compare:
        result = compare(db, args.compare, args.sample)
        print(json.dumps(result, indent=2))
        sys.exit(1 if result["beyond_tolerance"] else 0)
    result = run(args.inbox, db, args.workers)
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['sessions']} sessions from {result['files']} files ({result['bytes'] / 1e6:.0f} MB) in "
              f"{result['wall_s']:.2f} s: {result['sessions'] / result['wall_s']:.0f} sessions/s")


if __name__ == "__main__":
    main()
