#!/usr/bin/env python3
"""Expected values for the real files beside this script, computed by third-party parsers, never by our readers.

    pip install fitdecode==0.11.0 fitparse==1.2.0 gpxpy==1.6.2
    python3 Tests/WorkoutFilesTests/Fixtures/real/make_expectations.py   # writes expectations.json beside it

FIT: fitdecode 0.11.0 (values scaled by its profile, components such as compressed_speed_distance expanded and
accumulated, compressed timestamps resolved); every figure is also checked against fitparse 1.2.0 and the script
stops if the two Python parsers disagree. TCX: Python's xml.etree. GPX: gpxpy 1.6.2.
The JSON is committed so the Swift tests need no Python (RealFileTests.swift).
"""
import json
import math
import os
import sys
import warnings
import xml.etree.ElementTree as ET
from datetime import datetime

import fitdecode
import fitparse
import gpxpy
import gpxpy.geo

HERE = os.path.dirname(os.path.abspath(__file__))
FIT_EPOCH = 631065600
SEMICIRCLE = 180.0 / 2**31
# gpxpy's haversine uses 6 378 137 m; the readers use the mean radius 6 371 008.8 m.
RADIUS_RATIO = 6371008.8 / 6378137.0

warnings.simplefilter("ignore")


def pick(n):
    """Indices of the samples checked value by value: first, quartiles, last."""
    return sorted({0, n // 4, n // 2, (3 * n) // 4, n - 1}) if n else []


def num(v):
    if v is None or isinstance(v, (str, tuple, list)):
        return None
    if isinstance(v, float) and not math.isfinite(v):
        return None
    return float(v)


def fit_sample(values):
    s = {"t": values["timestamp"] + FIT_EPOCH}
    lat, lon = values.get("position_lat"), values.get("position_long")
    if lat is not None and lon is not None:
        s["lat"], s["lon"] = lat * SEMICIRCLE, lon * SEMICIRCLE
    alt = num(values.get("enhanced_altitude"))
    if alt is None:
        alt = num(values.get("altitude"))
    speed = num(values.get("enhanced_speed"))
    if speed is None:
        speed = num(values.get("speed"))
    cadence = num(values.get("cadence"))
    if cadence is not None and num(values.get("fractional_cadence")) is not None:
        cadence += num(values["fractional_cadence"])
    for key, v in (("alt", alt), ("speed", speed), ("cadence", cadence), ("hr", num(values.get("heart_rate"))),
                   ("distance", num(values.get("distance"))), ("power", num(values.get("power"))),
                   ("temperature", num(values.get("temperature")))):
        if v is not None:
            s[key] = v
    dev = {k: num(v) for k, v in values.get("_dev", {}).items() if num(v) is not None}
    if dev:
        s["developer"] = dev
    return s


def fitdecode_messages(path):
    """(name, {field: value}) per data message; raw FIT seconds for timestamps, semicircles for positions."""
    out = []
    with fitdecode.FitReader(path, check_crc=fitdecode.CrcCheck.WARN,
                             error_handling=fitdecode.ErrorHandling.WARN) as reader:
      try:
        for frame in reader:
            if not isinstance(frame, fitdecode.FitDataMessage):
                continue
            values, dev = {}, {}
            for f in frame.fields:
                if isinstance(f.field_def, fitdecode.types.DevFieldDefinition):
                    dev[f.name] = f.value
                    continue
                v = f.raw_value if f.name in ("timestamp", "start_time", "time_created", "local_timestamp") else f.value
                if f.name in values and values[f.name] is not None and v is None:
                    continue  # a subfield or component of the same name already gave a value
                values[f.name] = v
            values["_dev"] = dev
            out.append((frame.name, values))
      except fitdecode.FitError as error:
        # A damaged file: fitdecode stops here; what it read before is the expectation.
        out.append(("_error", {"error": str(error)}))
    return out


def fitparse_records(path):
    ff = fitparse.FitFile(path, check_crc=False)
    recs = []
    messages = []
    try:
        for m in ff.get_messages():
            messages.append(m)
    except fitparse.FitParseError as error:
        if not str(error).startswith("Got data message with invalid local message type"):
            raise  # anything but the damage fitdecode also stops at: fitparse refuses the file
    for m in messages:
        if m.name != "record":
            continue
        v = {}
        for f in m.fields:
            val = f.raw_value if f.name == "timestamp" else f.value
            if f.name in v and v[f.name] is not None and val is None:
                continue
            v[f.name] = val
        if v.get("timestamp") is not None:
            recs.append(v)
    return recs


def fit_expectations(path):
    msgs = fitdecode_messages(path)
    file_id = next((v for n, v in msgs if n == "file_id"), {})
    sessions = [v for n, v in msgs if n == "session"]
    laps = [v for n, v in msgs if n == "lap"]
    records = [v for n, v in msgs if n == "record" and v.get("timestamp") is not None]
    activity = next((v for n, v in msgs if n == "activity"), None)
    times = [r["timestamp"] for r in records]
    assert times == sorted(times), f"{path}: records out of time order"

    # fitparse must agree on every record value checked (two independent third-party decoders).
    try:
        other = fitparse_records(path)
        crosscheck = "fitparse %s agrees" % fitparse.__version__
    except fitparse.FitParseError as error:
        other, crosscheck = None, "fitparse %s refuses the file: %s" % (fitparse.__version__, error)
    if other is not None:
        assert len(other) == len(records), (path, len(other), len(records))
        for i in pick(len(records)):
            a = fit_sample(dict(records[i], _dev={}))
            b = fit_sample(dict(other[i], _dev={}))
            assert a == b, (path, i, a, b)

    # Issue 40: in a file of one session the reader keeps the records the majority agrees on (within 7 days of the
    # median record time, when they are more than half) and leaves the others out, flagged dates_disagree.
    left_out = 0
    if len(sessions) == 1 and len(records) > 2:
        median = times[len(times) // 2]
        kept = [r for r in records if abs(r["timestamp"] - median) <= 7 * 86400]
        if len(kept) < len(records) and 2 * len(kept) > len(records):
            left_out = len(records) - len(kept)
            records = kept
            times = [r["timestamp"] for r in records]

    def session(v):
        return {
            "sport": v.get("sport") if isinstance(v.get("sport"), str) else None,
            "sub_sport": v.get("sub_sport") if isinstance(v.get("sub_sport"), str) else None,
            "start": v["start_time"] + FIT_EPOCH if v.get("start_time") is not None else None,
            "elapsed": num(v.get("total_elapsed_time")),
            "timer": num(v.get("total_timer_time")),
            "distance": num(v.get("total_distance")),
            "calories": num(v.get("total_calories")),
            "avg_hr": num(v.get("avg_heart_rate")),
            "max_hr": num(v.get("max_heart_rate")),
            "ascent": num(v.get("total_ascent")),
        }

    def lap(v):
        return {
            "start": v["start_time"] + FIT_EPOCH if v.get("start_time") is not None else None,
            "elapsed": num(v.get("total_elapsed_time")),
            "timer": num(v.get("total_timer_time")),
            "distance": num(v.get("total_distance")),
            "calories": num(v.get("total_calories")),
            "avg_hr": num(v.get("avg_heart_rate")),
            "max_hr": num(v.get("max_heart_rate")),
            "avg_power": num(v.get("avg_power")),
        }

    utc_offset = None
    if activity and activity.get("local_timestamp") is not None and activity.get("timestamp") is not None:
        utc_offset = activity["local_timestamp"] - activity["timestamp"]
    return {
        "format": "fit",
        "crosscheck": crosscheck,
        "fitdecode_error": next((v["error"] for n, v in msgs if n == "_error"), None),
        "manufacturer": file_id.get("manufacturer") if isinstance(file_id.get("manufacturer"), str) else None,
        "serial_number": file_id.get("serial_number"),
        "time_created": file_id.get("time_created"),
        "utc_offset": utc_offset,
        "sessions": [session(v) for v in sessions],
        "laps": [lap(v) for v in laps],
        "record_count": len(records),
        "records_left_out": left_out,
        "first_t": times[0] + FIT_EPOCH if times else None,
        "last_t": times[-1] + FIT_EPOCH if times else None,
        "samples": {str(i): fit_sample(records[i]) for i in pick(len(records))},
        "heart_rate_sum": sum(num(r.get("heart_rate")) or 0 for r in records),
        "power_sum": sum(num(r.get("power")) or 0 for r in records),
        "records_with_position": sum(1 for r in records
                                     if r.get("position_lat") is not None and r.get("position_long") is not None),
    }


def tcx_expectations(path):
    def local(tag):
        return tag.rsplit("}", 1)[-1].split(":")[-1]

    def child(e, name):
        return next((c for c in e if local(c.tag) == name), None)

    def text(e, *names):
        for name in names:
            if e is None:
                return None
            e = child(e, name)
        return e.text.strip() if e is not None and e.text else None

    def f(s):
        return float(s) if s is not None else None

    def unix(s):
        return datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp() if s is not None else None

    def find_all(e, name):
        return [x for x in e.iter() if local(x.tag) == name]

    root = ET.parse(path).getroot()
    activities = []
    for act in find_all(root, "Activity"):
        laps, points = [], []
        for lap in find_all(act, "Lap"):
            laps.append({
                "start": unix(lap.get("StartTime")),
                "elapsed": f(text(lap, "TotalTimeSeconds")),
                "distance": f(text(lap, "DistanceMeters")),
                "calories": f(text(lap, "Calories")),
                "avg_hr": f(text(lap, "AverageHeartRateBpm", "Value")),
                "max_hr": f(text(lap, "MaximumHeartRateBpm", "Value")),
            })
            for tp in find_all(lap, "Trackpoint"):
                if text(tp, "Time") is None:
                    continue
                tpx = next(iter(find_all(tp, "TPX")), None)
                p = {"t": unix(text(tp, "Time")),
                     "lat": f(text(tp, "Position", "LatitudeDegrees")),
                     "lon": f(text(tp, "Position", "LongitudeDegrees")),
                     "alt": f(text(tp, "AltitudeMeters")),
                     "distance": f(text(tp, "DistanceMeters")),
                     "hr": f(text(tp, "HeartRateBpm", "Value")),
                     "cadence": f(text(tp, "Cadence")),
                     "speed": f(text(tpx, "Speed")) if tpx is not None else None,
                     "power": f(text(tpx, "Watts")) if tpx is not None else None}
                points.append({k: v for k, v in p.items() if v is not None})
        creator = child(act, "Creator")
        activities.append({
            "sport": act.get("Sport"),
            "id": text(act, "Id"),
            "id_t": unix(text(act, "Id")),
            "creator": text(creator, "Name") if creator is not None else None,
            "laps": laps,
            "point_count": len(points),
            "first_time": points[0]["t"] if points else None,
            "last_time": points[-1]["t"] if points else None,
            "samples": {str(i): points[i] for i in pick(len(points))},
            "heart_rate_sum": sum(p.get("hr", 0) for p in points),
        })
    return {"format": "tcx", "activities": activities}


def gpx_expectations(path):
    with open(path, encoding="utf-8") as fh:
        gpx = gpxpy.parse(fh)
    tracks = []
    for index, track in enumerate(gpx.tracks):
        points = [p for seg in track.segments for p in seg.points if p.time is not None]
        # The readers give samples in time order: points out of order are sorted, stably (Python's sort is stable).
        points = sorted(points, key=lambda p: p.time)
        if not points:
            continue
        dist = 0.0
        for a, b in zip(points, points[1:]):
            dist += gpxpy.geo.haversine_distance(a.latitude, a.longitude, b.latitude, b.longitude)
        tracks.append({
            "index": index,
            "point_count": len(points),
            "first_time": points[0].time.timestamp(),
            "last_time": points[-1].time.timestamp(),
            "track_distance": dist * RADIUS_RATIO,
            "samples": {str(i): {k: v for k, v in {"t": points[i].time.timestamp(), "lat": points[i].latitude,
                                                    "lon": points[i].longitude, "alt": points[i].elevation}.items()
                                 if v is not None}
                        for i in pick(len(points))},
        })
    # Issue 40: the tracks of one file are one outing (the reader joins consecutive tracks whose `type`s do not name
    # different sports; these files' tracks have none): all their timed points, and the sum of the tracks' distances
    # (as gpxpy's length_2d: the unrecorded gap between two tracks is not a distance anyone measured).
    points = [p for track in gpx.tracks for seg in track.segments for p in seg.points if p.time is not None]
    points = sorted(points, key=lambda p: p.time)
    outing = {
        "point_count": len(points),
        "first_time": points[0].time.timestamp(),
        "last_time": points[-1].time.timestamp(),
        "track_distance": sum(t["track_distance"] for t in tracks),
        "first_index": min(t["index"] for t in tracks),
    }
    return {"format": "gpx", "tracks": tracks, "outing": outing}


def main():
    out = {
        "generator": "make_expectations.py with fitdecode %s (cross-checked with fitparse %s), gpxpy %s, Python %s "
                     "xml.etree" % (fitdecode.__version__, fitparse.__version__, gpxpy.__version__,
                                    sys.version.split()[0]),
        "files": {},
    }
    for name in sorted(os.listdir(HERE)):
        path = os.path.join(HERE, name)
        ext = name.rsplit(".", 1)[-1].lower()
        if ext == "fit":
            out["files"][name] = fit_expectations(path)
        elif ext == "tcx":
            out["files"][name] = tcx_expectations(path)
        elif ext == "gpx":
            out["files"][name] = gpx_expectations(path)
    with open(os.path.join(HERE, "expectations.json"), "w") as fh:
        json.dump(out, fh, indent=1, sort_keys=True)
        fh.write("\n")


if __name__ == "__main__":
    main()
