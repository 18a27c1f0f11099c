# Shared by run.sh and bench.sh (sourced, not run): FTMSDecode and SessionAssembly of a git revision and of the work
# tree, built together as one module with `swiftc -O -wmo` (no SwiftPM; earlier revisions had the assembler inside
# FTMSDecode) and linked with a driver and the benchmark's recording generator (of the same revision: it builds its
# records with that revision's API).
#   export_revision REV DIR        Sources/FTMSDecode and Sources/SessionAssembly of REV into DIR/src, its generator
#                                  (Sources/PipelineBench/FTMSBench.swift) into DIR
#   build DIR DRIVER SOURCES...    libFTMSDecode of SOURCES into DIR, then DIR/<driver> from DRIVER.swift and the
#                                  generator in DIR (the work tree's when DIR has none)
#   $worktree_sources              the work tree's sources of both
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

export_revision() {
    local rev="$1" dir="$2"
    mkdir -p "$dir/src"
    rm -f "$dir"/src/*.swift
    for f in $(git -C "$root" ls-tree --name-only "$rev" Sources/FTMSDecode/ Sources/SessionAssembly/); do
        git -C "$root" show "$rev:$f" > "$dir/src/$(basename "$f")"
    done
    git -C "$root" show "$rev:Sources/PipelineBench/FTMSBench.swift" > "$dir/FTMSBench.swift"
}

build() {
    local dir="$1" driver="$2"; shift 2
    mkdir -p "$dir"
    local generator="$dir/FTMSBench.swift"
    [ -f "$generator" ] || generator="$root/Sources/PipelineBench/FTMSBench.swift"
    # The assembler's `import FTMSDecode` is ignored (with a warning) inside the one module.
    swiftc -O -wmo -parse-as-library -module-name FTMSDecode -package-name workout_pipeline \
        -emit-module -emit-module-path "$dir/FTMSDecode.swiftmodule" -emit-library -static -o "$dir/libFTMSDecode.a" "$@"
    swiftc -O -wmo -parse-as-library -module-name "${driver^}" -I "$dir" -L "$dir" -lFTMSDecode \
        "$root/Benchmarks/assembler-digest/$driver.swift" "$generator" -o "$dir/$driver"
}

worktree_sources=("$root"/Sources/FTMSDecode/*.swift "$root"/Sources/SessionAssembly/*.swift)
