#!/usr/bin/env python3
"""numpy reference for the metrics benchmark (Sources/PipelineBench/MetricsBench.swift).

Reads the files the Swift benchmark writes (a `pipeline metrics --stream` JSON document
and raw float64 column-major matrices), computes the same definitions as
`WorkoutMetrics` (docs: ../shared/specs/metrics.md) with numpy — vectorised wherever
numpy can: cumulative sums for rolling windows, and the two W'bal recurrences written as
a cumulative product (differential form, which is linear in W'bal) and an IIR filter
(integral form, scipy.signal.lfilter) instead of Python loops — and prints values and
timings as one JSON object on stdout.

    python3 Benchmarks/metrics_numpy.py --dir DIR [--iterations N] [--sessions S] [--users U]
"""
import argparse
import json
import os
import platform
import time

import numpy as np

try:
    import scipy
    from scipy.signal import lfilter
except ImportError:  # pragma: no cover - the benchmark machine has scipy
    scipy = None
    lfilter = None

MMP_DURATIONS = [1, 5, 10, 30, 60, 120, 300, 600, 1200, 1800, 3600]


def channel(values):
    return np.array([np.nan if v is None else float(v) for v in values], dtype=np.float64)


def session_metrics(p, hr, cad, spd, ath):
    out = {}
    n = len(p)
    out["duration_s"] = n

    valid = ~np.isnan(p)
    pv = p[valid]
    ps = int(pv.size)
    out["power_seconds"] = ps
    avg = float(pv.mean())
    out["avg_power_w"] = avg
    out["max_power_w"] = float(pv.max())
    out["work_kj"] = float(pv.sum()) / 1000

    filled = np.where(valid, p, 0.0)
    cs = np.concatenate(([0.0], np.cumsum(filled)))
    cv = np.concatenate(([0], np.cumsum(valid)))

    # NP: 30 s windows of 30 valid seconds, ^4, mean, ^1/4.
    w = 30
    ok = (cv[w:] - cv[:-w]) == w
    means = (cs[w:] - cs[:-w])[ok] / w
    np_w = float(np.mean(means ** 4) ** 0.25) if means.size else None
    out["np_w"] = np_w
    ftp = ath.get("ftp_w")
    if np_w is not None and ftp:
        iff = np_w / ftp
        out["if"] = iff
        out["tss"] = ps * np_w * iff / (ftp * 3600) * 100
    if np_w is not None and avg != 0:
        out["vi"] = np_w / avg

    mmp = {}
    for d in MMP_DURATIONS:
        if d > n:
            mmp[str(d)] = None
            continue
        okd = (cv[d:] - cv[:-d]) == d
        mmp[str(d)] = float((cs[d:] - cs[:-d])[okd].max() / d) if okd.any() else None
    out["mmp_w"] = mmp

    if ftp:
        edges = np.array([55, 75, 90, 105, 120, 150], dtype=np.float64) * ftp
        level = (100 * pv[:, None] >= edges[None, :]).sum(axis=1)
        out["time_in_power_zones_s"] = np.bincount(level, minlength=7).tolist()

    cp, wp = ath.get("cp_w"), ath.get("wprime_j")
    if cp and wp:
        q = filled
        # Differential (Skiba 2015): bal_t = a_t·bal_{t-1} + (CP − P_t), a_t = 1 − max(0, CP − P_t)/W'.
        a = 1 - np.maximum(0.0, cp - q) / wp
        A = np.cumprod(a)
        bal = A * (wp + np.cumsum((cp - q) / A))
        out["wbal_min_j"] = float(min(wp, bal.min()))
        # Integral (Skiba 2012): exponentially weighted sum of the expended work above CP.
        below = q[q < cp]
        dcp = cp - (below.mean() if below.size else 0.0)
        tau = 546 * np.exp(-0.01 * dcp) + 316
        expended = lfilter([1.0], [1.0, -np.exp(-1 / tau)], np.maximum(0.0, q - cp))
        out["wbal_integral_min_j"] = float(min(wp, (wp - expended).min()))

    hv_mask = hr > 0
    hv = hr[hv_mask]
    if hv.size:
        avg_hr = float(hv.mean())
        out["avg_hr_bpm"] = avg_hr
        out["max_hr_bpm"] = float(hv.max())
        if np_w is not None:
            out["ef"] = np_w / avg_hr
        rest, hmax, sex, lthr = ath.get("hr_rest"), ath.get("hr_max"), ath.get("sex"), ath.get("lthr")
        if sex and rest is not None and hmax:
            ka, kb = (0.64, 1.92) if sex == "male" else (0.86, 1.67)
            hrr = np.maximum(0.0, (hv - rest) / (hmax - rest))
            trimp = float((hrr * np.exp(kb * hrr)).sum() * ka / 60)
            out["trimp_banister"] = trimp
            if lthr:
                r = (lthr - rest) / (hmax - rest)
                out["hrss"] = 100 * trimp / (60 * r * ka * np.exp(kb * r))
        if hmax:
            edges = np.array([50, 60, 70, 80, 90], dtype=np.float64) * hmax
            level = (100 * hv[:, None] >= edges[None, :]).sum(axis=1)
            zones = np.bincount(level, minlength=6)[1:]
            out["time_in_hr_zones_s"] = zones.tolist()
            out["trimp_edwards"] = float((zones * np.arange(1, 6)).sum()) / 60
        half = n // 2
        both = valid & hv_mask
        s1, s2 = both[:half], both[half:]
        if s1.any() and s2.any():
            r1 = p[:half][s1].sum() / hr[:half][s1].sum()
            r2 = p[half:][s2].sum() / hr[half:][s2].sum()
            if r1 != 0:
                out["aerobic_decoupling_pct"] = float(100 * (r1 - r2) / r1)

    cvalid = cad[~np.isnan(cad)]
    if cvalid.size:
        pos = cvalid[cvalid > 0]
        if pos.size:
            out["avg_cadence_rpm"] = float(pos.mean())
        out["max_cadence_rpm"] = float(cvalid.max())

    svalid = spd[~np.isnan(spd)]
    if svalid.size:
        dist = float(svalid.sum())
        moving = int((svalid > 0).sum())
        out["distance_m"] = dist
        out["moving_time_s"] = moving
        if moving:
            out["avg_speed_mps"] = dist / moving
        out["max_speed_mps"] = float(svalid.max())
    return out


def timed(iterations, fn, batches=10):
    """Seconds per call: the best of `batches` batches, by this thread's CPU time (as the
    Swift side measures)."""
    fn()
    per_batch = max(1, iterations // batches)
    best = float("inf")
    for _ in range(batches):
        start = time.thread_time()
        for _ in range(per_batch):
            fn()
        best = min(best, (time.thread_time() - start) / per_batch)
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--sessions", type=int, required=True)
    ap.add_argument("--users", type=int, required=True)
    args = ap.parse_args()

    with open(os.path.join(args.dir, "session.json")) as f:
        doc = json.load(f)
    ath = doc["athlete"]
    s = doc["stream_1hz"]
    p, hr = channel(s["power_w"]), channel(s["hr_bpm"])
    cad, spd = channel(s["cadence_rpm"]), channel(s["speed_mps"])

    metrics = session_metrics(p, hr, cad, spd, ath)
    per_session = timed(args.iterations, lambda: session_metrics(p, hr, cad, spd, ath))

    n = 3600
    def matrix(name, rows, cols):
        return np.fromfile(os.path.join(args.dir, name), dtype="<f8").reshape(cols, rows).T

    P = matrix("batch_power.f64", n, args.sessions)
    H = matrix("batch_hr.f64", n, args.sessions)
    durations = np.array([120.0, 300.0, 600.0, 1200.0])
    C = matrix("cp_powers.f64", 4, args.users)

    reps = 10
    moments = lambda: (P.mean(axis=0), np.cov(P, rowvar=False))
    moments_s = timed(reps, moments)
    cov00 = float(moments()[1][0, 0])

    design = np.stack([np.ones(4), durations], axis=1)
    cp_fit = lambda: np.linalg.lstsq(design, C * durations[:, None], rcond=None)[0]
    cp_s = timed(reps, cp_fit)
    sol = cp_fit()

    def hr_slopes():
        pc = P - P.mean(axis=0)
        hc = H - H.mean(axis=0)
        return (pc * hc).sum(axis=0) / (pc * pc).sum(axis=0)
    hr_s = timed(reps, hr_slopes)

    print(json.dumps({
        "numpy_version": np.__version__,
        "scipy_version": getattr(scipy, "__version__", None),
        "python_version": platform.python_version(),
        "per_session_s": per_session,
        "metrics": metrics,
        "moments_s": moments_s,
        "cov_00": cov00,
        "cp_s": cp_s,
        "cp_first": [float(sol[1, 0]), float(sol[0, 0])],
        "hr_s": hr_s,
        "hr_slope_first": float(hr_slopes()[0]),
    }))


if __name__ == "__main__":
    main()
