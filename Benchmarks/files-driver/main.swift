// Driver for Benchmarks/files-driver/build.sh: FilesBench (Sources/PipelineBench/FilesBench.swift) without the rest
// of PipelineBench, so that an -O build of WorkoutFiles alone can be timed and profiled.
import Foundation

@main
struct Driver {
    static func main() async throws {
        var args = Array(CommandLine.arguments.dropFirst())
        if args.first == "files" { args.removeFirst() }
        try await FilesBench.run(args)
    }
}
