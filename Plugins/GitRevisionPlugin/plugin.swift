import Foundation
import PackagePlugin

/// Writes `GitRevision.swift` (`let generatedGitRevision = "…"`) into the build directory before each build of the
/// target that uses it (`PipelineVersion`): the revision the binary is built from, read at build time, never at run
/// time, and never written into the source tree.
///
/// The revision is `$PIPELINE_GIT_REVISION` when set (a build from a tarball or a CI that knows it), else
/// `git rev-parse --short=12 HEAD` of the package's checkout with `-dirty` when tracked files differ from it, else
/// `unknown` (no git, not a checkout). The file is rewritten only when its text changes, so an unchanged revision
/// recompiles nothing.
@main
struct GitRevisionPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "generated")
        let script = #"""
            root=$1; dir=$2; rev=$3
            if [ -z "$rev" ] && command -v git >/dev/null 2>&1; then
                rev=$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null) || rev=""
                if [ -n "$rev" ] && [ -n "$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
                    rev="$rev-dirty"
                fi
            fi
            case "$rev" in "" | *[!0-9A-Za-z._-]*) rev=unknown ;; esac
            mkdir -p "$dir"
            text="// Generated at build time by Plugins/GitRevisionPlugin; not part of the source tree.
            let generatedGitRevision = \"$rev\"
            "
            if [ "$(cat "$dir/GitRevision.swift" 2>/dev/null)" != "$(printf '%s' "$text")" ]; then
                printf '%s' "$text" > "$dir/GitRevision.swift"
            fi
            """#
        let override = ProcessInfo.processInfo.environment["PIPELINE_GIT_REVISION"] ?? ""
        return [
            .prebuildCommand(
                displayName: "Reading the git revision for \(target.name)",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", script, "sh", context.package.directoryURL.path, output.path, override],
                outputFilesDirectory: output)
        ]
    }
}
