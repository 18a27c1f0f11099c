#!/usr/bin/env python3
"""Reads a `swift test` log that ended without its summary and prints what was under way: the tests started and not
ended (swift-testing's "◇ Test X started." without a "✔/✘ Test X passed/failed"), the runner's last error lines, and
the log's last lines. Used by scripts/test.sh when the test process crashes."""
import re
import sys

lines = open(sys.argv[1], encoding="utf-8", errors="replace").read().splitlines()
started, ended = {}, set()
for n, line in enumerate(lines):
    m = re.match(r"^◇ Test (\S+?\(.*?\)) started\.", line)
    if m:
        started.setdefault(m.group(1), n)
    m = re.match(r"^[✔✘] Test (\S+?\(.*?\)) (?:with \d+ test cases? )?(?:passed|failed)", line)
    if m:
        ended.add(m.group(1))
under_way = [name for name, _ in sorted(started.items(), key=lambda kv: kv[1]) if name not in ended]
print(f"!! the test process ended without its summary (a crash): {len(under_way)} test(s) under way")
for name in under_way[:40]:
    print(f"   - {name}")
if len(under_way) > 40:
    print(f"   - … and {len(under_way) - 40} more")
errors = [l for l in lines if re.search(r"error:|Fatal error|signal code|Signal|misuse|BUG DETECTED|Illegal instruction|Segmentation", l)]
for l in errors[-10:]:
    print(f"   > {l[:300]}")
print("   last lines of the log:")
for l in lines[-15:]:
    print(f"   | {l[:300]}")
