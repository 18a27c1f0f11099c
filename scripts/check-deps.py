#!/usr/bin/env python3
"""Every target of Package.swift declares what its sources import, and imports what it declares (issue 41: targets
compiled against modules they reached only through another target's dependencies, and declared ones nothing used);
the README's architecture drawing shows exactly the dependencies between targets that the manifest declares.

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
    drift += drawing_drift(manifest)
    for line in drift:
        print(f"check-deps: {line}")
    return 1 if drift else 0


def drawing_drift(manifest):
    """The README's architecture drawing against the manifest: every edge drawn is a dependency a target declares on
    another target, and every such dependency is drawn (test-support targets under Tests/ and the benchmarks'
    executable are left out of both). The drawing's grammar: a line is `A (notes) ──▶ B · C ──▶ D`, each arrow from
    every name before it to every name after it; a line that starts with `├──▶` or `└──▶` hangs from the nearest line
    above it whose marker stands further left (the root line, `pipeline (PipelineCLI …)`, from none); text in
    parentheses and words that are not target names are notes."""
    names = {t["name"] for t in manifest["targets"]}
    drawn_targets = {
        t["name"] for t in manifest["targets"]
        if t["type"] in ("regular", "executable", "system") and t["name"] != "PipelineBench"
        and not (t.get("path") or "").startswith("Tests/")}
    declared = set()
    for target in manifest["targets"]:
        if target["name"] not in drawn_targets:
            continue
        for dependency in target.get("dependencies", []):
            for kind, value in dependency.items():
                if kind in ("byName", "target") and value[0] in drawn_targets:
                    declared.add((target["name"], value[0]))
    with open("README.md", encoding="utf-8") as text:
        readme = text.read()
    section = readme[readme.index("## Architecture"):]
    block = section.split("```")[1]
    drawn, stack = set(), []
    for line in block.splitlines():
        if line.startswith("("):
            continue
        branch = re.match(r"^([ │]*)[├└]──▶ ", line)
        column = len(branch.group(1)) if branch else -1
        body = line[branch.end():] if branch else line
        if body.startswith("pipeline (PipelineCLI"):
            body = "PipelineCLI"
        segments = [
            [n for n in re.findall(r"[A-Za-z_]\w*", re.sub(r"\([^()]*\)", "", part)) if n in names]
            for part in body.split("──▶")]
        if not segments[0]:
            continue
        while stack and stack[-1][0] >= column:
            stack.pop()
        if branch and stack:
            drawn |= {(parent, head) for parent in stack[-1][1] for head in segments[0]}
        for before, after in zip(segments, segments[1:]):
            drawn |= {(a, b) for a in before for b in after}
        stack.append((column, segments[0]))
    drift = [f"README's drawing lacks {a} ──▶ {b} (Package.swift declares it)"
             for a, b in sorted(declared - drawn)]
    drift += [f"README's drawing shows {a} ──▶ {b}, which Package.swift does not declare"
              for a, b in sorted(drawn - declared)]
    drift += [f"README's drawing does not name {n}" for n in sorted(drawn_targets - {x for e in drawn for x in e})]
    return drift


if __name__ == "__main__":
    sys.exit(main())
