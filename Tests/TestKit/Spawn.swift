import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// Child processes for the tests, started with `posix_spawn` rather than Foundation's `Process`: on Linux,
// `Process.run()` (swift-corelibs-foundation up to at least Swift 6.3.1) copies a whole 256-byte `d_name` out of each
// `/proc/self/fd` entry while it looks for the highest open descriptor, and now and then reads past the end of glibc's
// `readdir` buffer into an unmapped page. It crashed a test process in CI (signal 11 in `__memcpy_avx512_unaligned_erms`
// under `Process.run()`); the fix is swiftlang/swift-corelibs-foundation#5472, not in this toolchain. Every test that
// starts a program goes through here.

/// How a child process ended.
public struct ChildExit: Equatable, Sendable, CustomStringConvertible {
    public var status: Int32
    /// True when a signal killed it (`status` is then the signal number).
    public var bySignal: Bool
    public init(status: Int32, bySignal: Bool) {
        self.status = status
        self.bySignal = bySignal
    }
    public var description: String { bySignal ? "killed by signal \(status)" : "exit \(status)" }
}

/// Why a child could not be started.
public struct SpawnError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (since 2.34; Debian 12 has 2.36), which the Glibc module does not
/// export: the child closes every descriptor from `from` up, as `Process` did, so that it holds none of this process's
/// pipes or files open (a test reading a pipe to its end would wait for an unrelated child).
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func addCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32

/// `posix_spawn` and `waitpid`.
public enum Spawn {
    /// Where one of the child's standard streams goes.
    public enum Stream: Sendable {
        /// `/dev/null`.
        case null
        /// A file, created or truncated (for output) or read (for input).
        case file(String)
        /// A descriptor of this process (a pipe's end), duplicated onto the stream.
        case descriptor(Int32)
    }

    /// Starts `executable` (a path) with `arguments`, with exactly `environment` (this process's when nil). The
    /// descriptors of this process stay here (`closefrom` 3 in the child).
    public static func start(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, stdin: Stream = .null,
        stdout: Stream = .null, stderr: Stream = .null
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (fd, stream, output) in [(Int32(0), stdin, false), (1, stdout, true), (2, stderr, true)] {
            switch stream {
            case .null:
                posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", output ? O_WRONLY : O_RDONLY, 0)
            case .file(let path):
                posix_spawn_file_actions_addopen(
                    &actions, fd, path, output ? O_WRONLY | O_CREAT | O_TRUNC : O_RDONLY, 0o644)
            case .descriptor(let source):
                posix_spawn_file_actions_adddup2(&actions, source, fd)
            }
        }
        guard addCloseFrom(&actions, 3) == 0 else {
            throw SpawnError("posix_spawn_file_actions_addclosefrom_np failed")
        }
        func cStrings(_ strings: [String]) -> [UnsafeMutablePointer<CChar>?] { strings.map { strdup($0) } + [nil] }
        let argv = cStrings([executable] + arguments)
        let envp = cStrings((environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" })
        defer { for p in argv + envp { free(p) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard status == 0 else {
            throw SpawnError("posix_spawn \(executable): \(String(cString: strerror(status)))")
        }
        return pid
    }

    /// Waits for `pid` to end (blocking the calling thread): its exit status, or the signal that killed it.
    public static func wait(_ pid: pid_t) -> ChildExit {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            if errno != EINTR { return ChildExit(status: -1, bySignal: false) }
        }
        // <sys/wait.h>: WIFEXITED is (status & 0x7f) == 0, WEXITSTATUS (status >> 8) & 0xff, WTERMSIG status & 0x7f.
        let signal = status & 0x7F
        return signal == 0
            ? ChildExit(status: (status >> 8) & 0xFF, bySignal: false) : ChildExit(status: signal, bySignal: true)
    }

    /// A pipe whose two ends are closed on exec (the child gets the end it needs by `dup2`; every spawn here closes
    /// descriptors from 3 up in the child anyway, so the moment between `pipe` and `fcntl` leaks nothing).
    public static func pipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard Glibc.pipe(&fds) == 0 else { throw SpawnError("pipe: \(String(cString: strerror(errno)))") }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (fds[0], fds[1])
    }

    /// Runs the program to its end (blocking the calling thread) and returns how it ended and what it wrote to its
    /// standard output; stdin and stderr are `/dev/null` unless given.
    public static func output(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, stderr: Stream = .null
    ) throws -> (exit: ChildExit, stdout: Data) {
        let (readEnd, writeEnd) = try pipe()
        let reader = FileHandle(fileDescriptor: readEnd, closeOnDealloc: true)
        let pid: pid_t
        do {
            defer { close(writeEnd) }
            pid = try start(
                executable, arguments, environment: environment, stdout: .descriptor(writeEnd), stderr: stderr)
        }
        let data = reader.readDataToEndOfFile()
        return (wait(pid), data)
    }

    /// Runs the program to its end (blocking the calling thread); its output goes to `/dev/null` unless given.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, stdout: Stream = .null,
        stderr: Stream = .null
    ) throws -> ChildExit {
        wait(try start(executable, arguments, environment: environment, stdout: stdout, stderr: stderr))
    }
}

/// A child process with its output in files (never pipes: a full pipe would block the child), awaited without
/// blocking a thread of the cooperative pool (`waitpid` runs on a thread of its own).
public final class ChildProcess: @unchecked Sendable {
    public let processIdentifier: pid_t
    private let lock = NSCondition()
    private var ended: ChildExit?
    private var waiters: [CheckedContinuation<ChildExit, Never>] = []

    /// Starts `executable` with this process's environment merged with `environment`, stdin from `/dev/null`.
    public init(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], stdout: Spawn.Stream,
        stderr: Spawn.Stream
    ) throws {
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        processIdentifier = try Spawn.start(
            executable.path, arguments, environment: env, stdout: stdout, stderr: stderr)
        let pid = processIdentifier
        let thread = Thread { [weak self] in
            let exit = Spawn.wait(pid)
            self?.finish(exit)
        }
        thread.start()
    }

    /// The same, output into files.
    public convenience init(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], stdout: URL, stderr: URL
    ) throws {
        try self.init(
            executable, arguments, environment: environment, stdout: .file(stdout.path), stderr: .file(stderr.path))
    }

    private func finish(_ exit: ChildExit) {
        let waiting = lock.withLock {
            ended = exit
            lock.broadcast()
            defer { waiters = [] }
            return waiters
        }
        for w in waiting { w.resume(returning: exit) }
    }

    public var isRunning: Bool { lock.withLock { ended == nil } }

    public func send(_ signal: Int32) { kill(processIdentifier, signal) }

    public func wait() async -> ChildExit {
        await withCheckedContinuation { c in
            let done: ChildExit? = lock.withLock {
                if let ended { return ended }
                waiters.append(c)
                return nil
            }
            if let done { c.resume(returning: done) }
        }
    }

    /// Blocks the calling thread until the child ends (for synchronous tests; `wait()` elsewhere).
    public func waitBlocking() -> ChildExit {
        lock.lock()
        defer { lock.unlock() }
        while ended == nil { lock.wait() }
        return ended!
    }
}
