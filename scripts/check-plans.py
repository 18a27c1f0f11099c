#!/usr/bin/env python3
"""Judge plan documents with the coaching rubric's reference checker, which is not ours.

The checker (`check_plan.py`, an independent implementation of the coaching rubric, see docs/plan-engine.md "The
external checker") lives outside the repository, read-only, in `../shared/plans/` beside the checkout; this script
imports it from there (it is never copied in) and runs it over many documents in one process:

    scripts/check-plans.py FILE_OR_DIR...        # every *.json given or under each directory; a summary per
                                                 # directory, the failures, and "N passed, M failed" (documents)
    scripts/check-plans.py --serve               # the tests' bridge: one JSON document per stdin line, one verdict
                                                 # per stdout line: {"failed": ["H11", ...], "details": [...]}

`--checker PATH` or `$PLAN_CHECKER` points at another copy of check_plan.py. Exit status: 0 when every document passes
every hard invariant, 1 when one fails, 2 when the checker cannot be found or a file cannot be read.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def load_checker(path: str | None):
    candidates = [path, os.environ.get("PLAN_CHECKER"), str(ROOT.parent / "shared" / "plans" / "check_plan.py")]
    for c in candidates:
        if c and Path(c).is_file():
            spec = importlib.util.spec_from_file_location("check_plan", c)
            mod = importlib.util.module_from_spec(spec)
            sys.modules["check_plan"] = mod   # dataclasses resolve their module by name
            spec.loader.exec_module(mod)
            return mod, c
    print("check-plans: the rubric's checker is not there (tried: "
          + ", ".join(c for c in candidates if c) + "); set PLAN_CHECKER", file=sys.stderr)
    sys.exit(2)


def verdict(checker, doc) -> dict:
    results, _, _ = checker.run_checks(doc)
    failed = [r for r in results if r.status == "fail"]
    return {
        "failed": [r.id for r in failed],
        "details": [f"{r.id} {r.title}: " + "; ".join(r.details[:4]) for r in failed],
        "passed": sum(r.status == "pass" for r in results),
    }


def serve(checker) -> int:
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            v = verdict(checker, json.loads(line))
        except Exception as e:   # a bridge never dies on one document: the test sees the reason
            v = {"failed": ["H01"], "details": [f"H01 unreadable document: {e!r}"], "passed": 0}
        sys.stdout.write(json.dumps(v) + "\n")
        sys.stdout.flush()
    return 0


def files_of(args: list) -> list:
    out = []
    for a in args:
        p = Path(a)
        if p.is_dir():
            out.extend(sorted(p.rglob("*.json")))
        else:
            out.append(p)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="*", help="plan documents (.json) or directories holding them")
    ap.add_argument("--serve", action="store_true", help="read one document per stdin line, answer one per line")
    ap.add_argument("--checker", help="path of check_plan.py (default: ../shared/plans/check_plan.py)")
    ap.add_argument("--json", action="store_true", help="the summary as JSON on stdout")
    a = ap.parse_args()
    checker, where = load_checker(a.checker)
    if a.serve:
        return serve(checker)
    if not a.paths:
        ap.error("give plan files or directories, or --serve")
    files = files_of(a.paths)
    groups: dict = {}
    failures = []
    unreadable = 0
    for f in files:
        g = groups.setdefault(str(f.parent), {"checked": 0, "passed": 0, "plans": 0, "refusals": 0})
        try:
            doc = json.loads(f.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            print(f"cannot read {f}: {e}", file=sys.stderr)
            unreadable += 1
            continue
        v = verdict(checker, doc)
        g["checked"] += 1
        g["plans" if isinstance(doc, dict) and doc.get("plan") is not None else "refusals"] += 1
        if v["failed"]:
            failures.append((str(f), v))
        else:
            g["passed"] += 1
    checked = sum(g["checked"] for g in groups.values())
    passed = sum(g["passed"] for g in groups.values())
    if a.json:
        print(json.dumps({"checker": where, "groups": groups, "failures": [
            {"file": f, **v} for f, v in failures]}, indent=2))
    else:
        print(f"checker: {where}")
        for name, g in sorted(groups.items()):
            print(f"  {name}: {g['checked']} documents ({g['plans']} plans, {g['refusals']} refusals), "
                  f"{g['passed']} passed")
        for f, v in failures:
            print(f"FAIL {f}")
            for d in v["details"]:
                print(f"     - {d}")
    print(f"{passed} passed, {checked - passed + unreadable} failed")
    return 2 if unreadable else (1 if failures or checked == 0 else 0)


if __name__ == "__main__":
    sys.exit(main())
