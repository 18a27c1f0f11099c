import Foundation

/// Wall-clock and CPU time (all threads of the process) spent in each phase of a job, for the job's summary and
/// the benchmark (`Benchmarks/nightly.sh`). JSON: `{"ingest": {"wall_s": 1.2, "cpu_s": 2.1}, …}`.
public struct PhaseTimes: Sendable, Codable, Equatable {
    public struct Time: Sendable, Codable, Equatable {
        public var wallS: Double
        public var cpuS: Double
        enum CodingKeys: String, CodingKey { case wallS = "wall_s", cpuS = "cpu_s" }
    }

    public private(set) var phases: [String: Time] = [:]
    public init() {}

    /// CPU time used by the whole process so far (user + system, every thread), in seconds.
    public static func processCPUSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// A moment to measure from.
    public struct Mark: Sendable {
        let wall = ContinuousClock.now
        let cpu = PhaseTimes.processCPUSeconds()
        public init() {}
    }

    /// Adds the wall and CPU time since `mark` to `phase`.
    public mutating func add(_ phase: String, since mark: Mark) {
        let wall = mark.wall.duration(to: ContinuousClock.now)
        var time = phases[phase] ?? Time(wallS: 0, cpuS: 0)
        time.wallS += Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18
        time.cpuS += Self.processCPUSeconds() - mark.cpu
        phases[phase] = time
    }

    /// Runs `body` and adds its wall and CPU time to `phase`.
    public mutating func measure<T>(_ phase: String, _ body: () async throws -> T) async rethrows -> T {
        let mark = Mark()
        defer { add(phase, since: mark) }
        return try await body()
    }

    public func encode(to encoder: any Encoder) throws { try phases.encode(to: encoder) }
    public init(from decoder: any Decoder) throws { phases = try [String: Time](from: decoder) }
}
