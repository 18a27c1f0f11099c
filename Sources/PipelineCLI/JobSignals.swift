import Dispatch
import Foundation
import Logging

/// SIGTERM and SIGINT for long job commands (`nightly`, `ingest`, `plans`, `demo`): the first signal cancels the
/// job's task, which stops at its next safe point (between files, batches, sessions, users) and records the run as
/// `interrupted`; the command then exits `128 + signal` (143 for SIGTERM, 130 for SIGINT), as a shell reports a
/// process stopped by that signal. A second signal exits at once with the same code — safe too, since every unit of
/// work is one transaction, but the job run stays `running` in `job_runs`.
///
/// `serve` does not use this: it drains through swift-service-lifecycle.
enum JobSignals {
    /// The signals that stop a job, with their exit codes.
    static let handled: [Int32] = [SIGTERM, SIGINT]

    static func exitCode(for signal: Int32) -> Int32 { 128 + signal }

    /// The error a job command ends with when a signal stopped it; `runReportingErrors` maps it to its exit code.
    struct Interrupted: Error, CustomStringConvertible {
        let signal: Int32
        var name: String { signal == SIGTERM ? "SIGTERM" : signal == SIGINT ? "SIGINT" : "signal \(signal)" }
        var description: String { "stopped by \(name) at a safe point; the next run finishes the work" }
        var exitCode: Int32 { JobSignals.exitCode(for: signal) }
    }

    /// The first signal received, shared between the dispatch handlers and the waiting command.
    final class State: @unchecked Sendable {
        private let lock = NSLock()
        private var first: Int32?
        /// Records `signal`; true when it is the first one.
        func receive(_ signal: Int32) -> Bool {
            lock.withLock {
                if first != nil { return false }
                first = signal
                return true
            }
        }
        var received: Int32? { lock.withLock { first } }
    }

    /// Runs `body` in a task that SIGTERM/SIGINT cancel. Throws `Interrupted` when a signal stopped it (whatever error
    /// the cancelled body ended with), else returns or rethrows the body's own result.
    static func run<T: Sendable>(logger: Logger, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let state = State()
        let task = Task { try await body() }
        let queue = DispatchQueue(label: "pipeline.signals")
        var sources: [any DispatchSourceSignal] = []
        for sig in handled {
            // The default action (terminate) must be off for a dispatch source to see the signal.
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler {
                if state.receive(sig) {
                    logger.notice("signal received: stopping at the next safe point", metadata: ["signal": "\(sig)"])
                    task.cancel()
                } else {
                    FileHandle.standardError.write(Data("second signal: exiting now\n".utf8))
                    _exit(JobSignals.exitCode(for: sig))
                }
            }
            source.resume()
            sources.append(source)
        }
        defer {
            for source in sources { source.cancel() }
            for sig in handled { signal(sig, SIG_DFL) }
        }
        do {
            let value = try await task.value
            return value
        } catch {
            if let sig = state.received { throw Interrupted(signal: sig) }
            throw error
        }
    }
}
