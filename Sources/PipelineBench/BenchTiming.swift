// Timing and output helpers of the benchmark suites that measure async work (cache, task manager).
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Medians, each on its own, of a body's wall time and process CPU time.
struct BenchSample {
    var wall: Duration
    var cpu: Duration
}

/// A suite that times async bodies and prints Markdown tables.
protocol TimedBenchSuite {}

extension TimedBenchSuite {
    /// Medians of wall time and process CPU time over `repetitions` runs, after one warm-up run.
    static func median(_ repetitions: Int, _ body: () async throws -> Void) async rethrows -> BenchSample {
        let clock = ContinuousClock()
        try await body() // warm-up
        var walls: [Duration] = []
        var cpus: [Duration] = []
        for _ in 0..<repetitions {
            let start = clock.now
            let cpuStart = processCPUTime()
            try await body()
            cpus.append(processCPUTime() - cpuStart)
            walls.append(start.duration(to: clock.now))
        }
        return BenchSample(wall: walls.sorted()[walls.count / 2], cpu: cpus.sorted()[cpus.count / 2])
    }

    static func processCPUTime() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return .seconds(Int64(time.tv_sec)) + .nanoseconds(Int64(time.tv_nsec))
    }

    static func nanoseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }

    /// `value` with exactly `decimals` decimals.
    static func format(_ value: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        if decimals == 0 { return String(Int(rounded)) }
        var text = String(rounded)
        if !text.contains(".") { text += "." }
        let fraction = text.split(separator: ".", omittingEmptySubsequences: false).last.map(\.count) ?? 0
        return text + String(repeating: "0", count: max(0, decimals - fraction))
    }

    /// Prints a Markdown table.
    static func table(_ header: [String], _ rows: [[String]]) {
        print("| " + header.joined(separator: " | ") + " |")
        print("|" + header.map { _ in " --- |" }.joined())
        for row in rows { print("| " + row.joined(separator: " | ") + " |") }
    }
}
