import Foundation
import PlanEngine
import TestKit

/// The coaching rubric's reference checker, which this project did not write: `check_plan.py`, read-only beside the
/// checkout (`../shared/plans/`, or `$PLAN_CHECKER`), driven through `scripts/check-plans.py --serve` — one Python
/// process per bridge, one document per line in, one verdict per line out. A judge that shares none of the engine's
/// code or readings of the rules (docs/plan-engine.md, "The external checker").
///
/// When Python or the checker is missing the bridge does not vanish: every verdict is a failure that says so, so a
/// test run without the judge is red, never quietly green.
public final class RubricChecker: @unchecked Sendable {
    public struct Verdict: Sendable {
        public var failed: [String]
        public var details: [String]
        public var passed: Bool { failed.isEmpty }
    }

    private let lock = NSLock()
    private var process: pid_t?
    private var input: FileHandle?
    private var output: FileHandle?
    private var buffer = Data()
    private var startError: String?

    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// A few bridges, so the property tests running in parallel do not queue behind one Python process.
    static let pool = (0..<4).map { _ in RubricChecker() }
    private static let counterLock = NSLock()
    nonisolated(unsafe) private static var counter = 0

    /// The verdict of the rubric's checker on `doc`.
    public static func check(_ doc: PlanDocument) -> Verdict {
        let data = (try? doc.jsonData()) ?? Data("{}".utf8)
        for bridge in pool where bridge.lock.try() {
            defer { bridge.lock.unlock() }
            return bridge.verdictLocked(data)
        }
        let bridge = counterLock.withLock {
            counter += 1
            return pool[counter % pool.count]
        }
        bridge.lock.lock()
        defer { bridge.lock.unlock() }
        return bridge.verdictLocked(data)
    }

    private func startLocked() {
        let script = Self.repositoryRoot.appendingPathComponent("scripts/check-plans.py").path
        let stdin: (read: Int32, write: Int32), stdout: (read: Int32, write: Int32)
        do {
            stdin = try Spawn.pipe()
            stdout = try Spawn.pipe()
        } catch {
            startError = "cannot make the checker's pipes: \(error)"
            return
        }
        defer {
            close(stdin.read)
            close(stdout.write)
        }
        let pid: pid_t
        do {
            pid = try Spawn.start(
                "/usr/bin/env", ["python3", script, "--serve"], stdin: .descriptor(stdin.read),
                stdout: .descriptor(stdout.write), stderr: .descriptor(2))
        } catch {
            close(stdin.write)
            close(stdout.read)
            startError = "cannot start python3 \(script): \(error)"
            return
        }
        process = pid
        input = FileHandle(fileDescriptor: stdin.write, closeOnDealloc: true)
        output = FileHandle(fileDescriptor: stdout.read, closeOnDealloc: true)
    }

    private func verdictLocked(_ json: Data) -> Verdict {
        if process == nil && startError == nil { startLocked() }
        if let e = startError { return Verdict(failed: ["CHECKER"], details: [e]) }
        // Pretty JSON escapes newlines inside strings, so its raw newlines are only layout: one line per document.
        var line = Data(json.map { $0 == UInt8(ascii: "\n") ? UInt8(ascii: " ") : $0 })
        line.append(UInt8(ascii: "\n"))
        do {
            try input!.write(contentsOf: line)
        } catch {
            startError = "the checker's bridge stopped (\(error)); is ../shared/plans/check_plan.py there?"
            return Verdict(failed: ["CHECKER"], details: [startError!])
        }
        while true {
            if let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let answer = buffer[buffer.startIndex..<nl]
                buffer.removeSubrange(buffer.startIndex...nl)
                guard let obj = try? JSONSerialization.jsonObject(with: answer) as? [String: Any] else {
                    return Verdict(
                        failed: ["CHECKER"], details: ["unreadable verdict: \(String(decoding: answer, as: UTF8.self))"]
                    )
                }
                return Verdict(failed: obj["failed"] as? [String] ?? [], details: obj["details"] as? [String] ?? [])
            }
            let chunk = output!.availableData
            if chunk.isEmpty {
                startError =
                    "the checker's bridge ended (\(process.map { Spawn.wait($0).description } ?? "not started")); "
                    + "check_plan.py must be at ../shared/plans/ or $PLAN_CHECKER"
                return Verdict(failed: ["CHECKER"], details: [startError!])
            }
            buffer.append(chunk)
        }
    }
}
