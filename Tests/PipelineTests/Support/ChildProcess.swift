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

/// How a child process ended.
struct ChildExit: Equatable, CustomStringConvertible {
    var status: Int32
    /// True when a signal killed it (`status` is then the signal number).
    var bySignal: Bool
    var description: String { bySignal ? "killed by signal \(status)" : "exit \(status)" }
}

/// A child process with its output in files (never pipes: a full pipe would block the child), awaited without
/// blocking a thread.
final class ChildProcess: @unchecked Sendable {
    let process = Process()
    private let lock = NSLock()
    private var ended: ChildExit?
    private var waiters: [CheckedContinuation<ChildExit, Never>] = []

    init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:], stdout: URL, stderr: URL) throws
    {
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        process.environment = env
        for url in [stdout, stderr] where !FileManager.default.createFile(atPath: url.path, contents: nil) {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        process.standardOutput = try FileHandle(forWritingTo: stdout)
        process.standardError = try FileHandle(forWritingTo: stderr)
        process.standardInput = FileHandle.nullDevice
        process.terminationHandler = { [weak self] p in
            self?.finish(ChildExit(status: p.terminationStatus, bySignal: p.terminationReason == .uncaughtSignal))
        }
        try process.run()
    }

    private func finish(_ exit: ChildExit) {
        let waiting = lock.withLock {
            ended = exit
            defer { waiters = [] }
            return waiters
        }
        for w in waiting { w.resume(returning: exit) }
    }

    var isRunning: Bool { lock.withLock { ended == nil } }

    func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    func wait() async -> ChildExit {
        await withCheckedContinuation { c in
            let done: ChildExit? = lock.withLock {
                if let ended { return ended }
                waiters.append(c)
                return nil
            }
            if let done { c.resume(returning: done) }
        }
    }
}
