#!/usr/bin/env bash
# DocC catalogues of the library products (FTMSDecode, FTMSRender, SessionAssembly, WorkoutMetrics, PlanEngine), built
# with the docc plugin from the package mirror. A broken symbol link or any other documentation warning fails the build.
# Archives land in .build/plugins/Swift-DocC/outputs/<Target>.doccarchive (open them with `docc preview` or serve them
# statically).
set -euo pipefail
cd "$(dirname "$0")/.."
swift package generate-documentation --warnings-as-errors \
    --target FTMSDecode --target FTMSRender --target SessionAssembly --target WorkoutMetrics --target PlanEngine "$@"
