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

/// Each suite's synopsis, for `pipeline-bench SUITE --help`; the head of the suite's file says what it measures.
let usages: [String: String] = [
    "cache": "pipeline-bench cache [--quick]",
    "files": """
    pipeline-bench files fit [--mb 50] [--runs 7] [--fixtures DIR]
           pipeline-bench files health [--mb 500] [--dir DIR] [--runs 1]
           pipeline-bench files digest [--fixtures DIR] [--dir DIR]
    """,
    "ftms": "pipeline-bench ftms [--mb 128] [--reps 7]",
    "import":
        "pipeline-bench import [--mb 50] [--runs 3] [--fixtures DIR] [--gpx-points 1000000] [--short] [--no-whole]",
    "ingest": "pipeline-bench ingest [SESSIONS]   (default 2000)",
    "metrics": """
    pipeline-bench metrics [--iterations N] [--sessions S] [--users U] [--script PATH] [--python PATH] \
    [--no-python] [--out FILE]
    """,
    "plainpass": "pipeline-bench plainpass INBOX DB [--batch 500] | plainpass INBOX --postgres URL [--batch 500]",
    "recordings": "pipeline-bench recordings DB [--repetitions N] [--limit N] [--levels 1,2,3]",
    "taskmanager": "pipeline-bench taskmanager [--quick] [--joiners N]",
]

let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first, let suite = suites[name] else {
    let known = suites.keys.sorted().joined(separator: ", ")
    let help = arguments.first == "--help" || arguments.first == "-h"
    FileHandle.standardError.write(
        Data(
            """
            usage: pipeline-bench <suite> [options]
            suites: \(known)
            pipeline-bench <suite> --help: the suite's options (the head of Sources/PipelineBench/<Suite>Bench.swift says \
            what it measures; BENCHMARKS.md how each is run)

            """.utf8))
    exit(help ? 0 : 64)
}
if arguments.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" }) {
    print("usage: \(usages[name] ?? "pipeline-bench \(name)")")
    exit(0)
}
do {
    try await suite(Array(arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("benchmark \(name) failed: \(error)\n".utf8))
    exit(1)
}
