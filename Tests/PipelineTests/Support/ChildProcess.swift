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
/// blocking a thread of the cooperative pool.
///
/// Started with `posix_spawn`, not Foundation's `Process`: on Linux, `Process.run()` (swift-corelibs-foundation up to
/// at least Swift 6.3.1) copies a whole 256-byte `d_name` out of each `/proc/self/fd` entry while it looks for the
/// highest open descriptor, and now and then reads past the end of glibc's `readdir` buffer into an unmapped page. It
/// crashed this test process in CI (signal 11 in `__memcpy_avx512_unaligned_erms` under `Process.run()`, from this
/// type); the fix is swiftlang/swift-corelibs-foundation#5472, not in this toolchain.
final class ChildProcess: @unchecked Sendable {
    let processIdentifier: pid_t
    private let lock = NSLock()
    private var ended: ChildExit?
    private var waiters: [CheckedContinuation<ChildExit, Never>] = []

    init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:], stdout: URL, stderr: URL) throws
    {
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        processIdentifier = try Spawn.start(
            executable.path, arguments, environment: env, stdout: stdout.path, stderr: stderr.path)
        // `waitpid` blocks: on a thread of its own, never on the cooperative pool or a dispatch queue.
        let pid = processIdentifier
        let thread = Thread { [weak self] in
            let exit = Spawn.wait(pid)
            self?.finish(exit)
        }
        thread.start()
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

    func send(_ signal: Int32) { kill(processIdentifier, signal) }

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

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (since 2.34; Debian 12 has 2.36), which the Glibc module does not
/// export: the child closes every descriptor from `from` up, as `Process` did, so that it holds none of this process's
/// pipes or files open (a test reading a pipe to its end would wait for an unrelated child).
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func addCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32

/// `posix_spawn` and `waitpid` for `ChildProcess` (see there why not `Process`).
enum Spawn {
    /// Starts `executable` with `arguments` and exactly `environment`; stdin from /dev/null, stdout and stderr into the
    /// files (created or truncated). The descriptors of this process stay here (`closefrom` 3 in the child).
    static func start(
        _ executable: String, _ arguments: [String], environment: [String: String], stdout: String, stderr: String
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard addCloseFrom(&actions, 3) == 0 else {
            throw SupportError("posix_spawn_file_actions_addclosefrom_np failed")
        }
        func cStrings(_ strings: [String]) -> [UnsafeMutablePointer<CChar>?] { strings.map { strdup($0) } + [nil] }
        let argv = cStrings([executable] + arguments)
        let envp = cStrings(environment.map { "\($0.key)=\($0.value)" })
        defer { for p in argv + envp { free(p) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard status == 0 else {
            throw SupportError("posix_spawn \(executable): \(String(cString: strerror(status)))")
        }
        return pid
    }

    /// Waits for `pid` to end (blocking the calling thread): its exit status, or the signal that killed it.
    static func wait(_ pid: pid_t) -> ChildExit {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            if errno != EINTR { return ChildExit(status: -1, bySignal: false) }
        }
        // <sys/wait.h>: WIFEXITED is (status & 0x7f) == 0, WEXITSTATUS (status >> 8) & 0xff, WTERMSIG status & 0x7f.
        let signal = status & 0x7F
        return signal == 0
            ? ChildExit(status: (status >> 8) & 0xFF, bySignal: false) : ChildExit(status: signal, bySignal: true)
    }
}
