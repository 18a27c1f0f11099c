import Foundation
@_exported import TestKit

/// The `pipeline` executable the package builds, next to the test bundle in the build directory
/// (`.build/<triple>/debug/pipeline`). `swift build --build-tests` (what scripts/test.sh runs before the tests)
/// builds it; `$PIPELINE_BIN` overrides the search.
enum PipelineBinary {
    static func locate(file: String = #filePath) throws -> URL {
        let fm = FileManager.default
        if let path = ProcessInfo.processInfo.environment["PIPELINE_BIN"] { return URL(fileURLWithPath: path) }
        var candidates: [URL] = []
        if let first = CommandLine.arguments.first {
            candidates.append(URL(fileURLWithPath: first).deletingLastPathComponent())
        }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        candidates.append(Bundle.main.bundleURL)
        // Tests/PipelineTests/Support/ChildProcess.swift → package root → .build/debug
        let root = URL(fileURLWithPath: file).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug"))
        for dir in candidates {
            let url = dir.appendingPathComponent("pipeline")
            if fm.isExecutableFile(atPath: url.path) { return url }
        }
        throw SupportError(
            "the pipeline executable was not found next to the test bundle (looked in \(candidates.map(\.path))); "
                + "build it first with `swift build --build-tests` (scripts/test.sh does), or set PIPELINE_BIN")
    }
}

struct SupportError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

// `ChildProcess`, `ChildExit` and `Spawn` (posix_spawn, not Foundation's `Process`) are in TestKit (Spawn.swift).
