// Benchmark driver. Each suite lives in its own file as `enum <Name>Bench { static func run(_ args: [String]) async throws }`.
// Build in release: `swift run -c release pipeline-bench <suite> [options]`.
import Foundation
import Pipeline

// The allocator settings `pipeline` runs with (Pipeline.MallocTuning), so that the suites measure what the jobs do.
MallocTuning.apply()

let suites: [String: ([String]) async throws -> Void] = [
    "ftms": FTMSBench.run,
    "metrics": MetricsBench.run,
    "taskmanager": TaskManagerBench.run,
    "cache": CacheBench.run,
    "ingest": IngestBench.run,
    "plainpass": PlainPassBench.run,
    "files": FilesBench.run,
    "recordings": RecordingsBench.run,
    "import": ImportBench.run,
]

let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first, let suite = suites[name] else {
    let known = suites.keys.sorted().joined(separator: ", ")
    FileHandle.standardError.write(Data("usage: pipeline-bench <suite> [options]\nsuites: \(known)\n".utf8))
    exit(arguments.first == "--help" || arguments.first == "-h" ? 0 : 64)
}
do {
    try await suite(Array(arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("benchmark \(name) failed: \(error)\n".utf8))
    exit(1)
}
