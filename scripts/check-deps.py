#!/usr/bin/env python3
"""Every target of Package.swift declares what its sources import, and imports what it declares (issue 41: targets
compiled against modules they reached only through another target's dependencies, and declared ones nothing used).

Reads the manifest through `swift package dump-package` (no build, no resolution) and each target's `.swift` files;
prints one line per target that drifts and exits 1, else prints nothing and exits 0. Run by scripts/lint.sh.
"""
import glob
import json
import re
import subprocess
import sys

# The toolchain's and the platform's own modules: never declared.
SYSTEM = {
    "Foundation", "FoundationEssentials", "FoundationNetworking", "FoundationXML", "Glibc", "Musl", "Darwin",
    "Synchronization", "Dispatch", "XCTest", "Testing", "os", "_Concurrency", "Observation", "RegexBuilder",
}
# Products whose modules are more than, or other than, the product's name.
PRODUCT_MODULES = {"Metrics": {"Metrics", "CoreMetrics"}}
IMPORT = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate)\s+)?"
    r"import\s+(?:(?:struct|class|enum|func|protocol|typealias|var|let)\s+)?([A-Za-z_]\w*)")


def main():
    manifest = json.loads(subprocess.run(
        ["swift", "package", "dump-package"], check=True, capture_output=True, text=True).stdout)
    drift = []
    for target in manifest["targets"]:
        if target["type"] in ("system", "plugin", "binary", "macro"):
            continue
        name = target["name"]
        path = target.get("path") or ("Tests/" if target["type"] == "test" else "Sources/") + name
        provided, declared = set(), set()
        for dependency in target.get("dependencies", []):
            for kind, value in dependency.items():
                declared.add(value[0])
                provided |= PRODUCT_MODULES.get(value[0], {value[0]}) if kind == "product" else {value[0]}
        imported = set()
        for file in glob.glob(path + "/**/*.swift", recursive=True):
            with open(file, encoding="utf-8") as text:
                for line in text:
                    match = IMPORT.match(line)
                    if match:
                        imported.add(match.group(1))
        imported -= SYSTEM | {name}
        missing = sorted(imported - provided)
        unused = sorted(d for d in declared if not (PRODUCT_MODULES.get(d, {d}) & imported))
        if missing or unused:
            drift.append(f"{name} ({path}): imported, not declared: {missing or '-'}; declared, not imported: "
                         f"{unused or '-'}")
    for line in drift:
        print(f"check-deps: {line}")
    return 1 if drift else 0


if __name__ == "__main__":
    sys.exit(main())
