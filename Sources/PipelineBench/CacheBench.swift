// Cache benchmark, in release mode:
//   swift run -c release pipeline-bench cache [--quick]
// Throughput of get/set on one task and on two concurrent tasks, and the hit ratio of LRU
// against W-TinyLFU on Zipf and scan workloads. Wall time by ContinuousClock and process CPU
// time, medians of several repetitions; comparisons are ratios within one run.
import Cache
import Foundation
import Synchronization
import SyntheticData

enum CacheBench: TimedBenchSuite {
    static func run(_ args: [String]) async throws {
        let quick = args.contains("--quick")
        let repetitions = quick ? 3 : 7
        let operations = quick ? 200_000 : 1_000_000
        print("Cache benchmark (\(repetitions) repetitions, median; \(operations) operations per repetition)")
        print("")
        await throughput(operations: operations, repetitions: repetitions)
        print("")
        hitRatios(accesses: quick ? 300_000 : 2_000_000)
    }

    // MARK: - Throughput

    private static func throughput(operations: Int, repetitions: Int) async {
        let capacity = 100_000
        var rows: [[String]] = []

        // Baseline: a dictionary behind a Mutex, the least a thread-safe map costs.
        let dictionary = Mutex<[BenchKey: Int]>([:])
        dictionary.withLock { map in for i in 0..<capacity { map[BenchKey(i)] = i } }
        let dictionaryGet = await measure(repetitions, operations) { range in
            var sum = 0
            for i in range { sum &+= dictionary.withLock { $0[BenchKey(i % capacity)] } ?? 0 }
            return sum
        }
        rows.append(row("Mutex<Dictionary> get (baseline)", dictionaryGet, baseline: dictionaryGet))

        for policy in [CacheEvictionPolicy.lru, .windowTinyLFU] {
            let name = policy == .lru ? "LRU" : "W-TinyLFU"
            let cache = Cache<BenchKey, Int>(
                configuration: .init(name: "bench", maximumEntries: capacity, evictionPolicy: policy))
            for i in 0..<capacity { cache.set(BenchKey(i), i) }
            let get = await measure(repetitions, operations) { range in
                var sum = 0
                for i in range { sum &+= cache.get(BenchKey(i % capacity)) ?? 0 }
                return sum
            }
            rows.append(row("\(name) get, hit", get, baseline: dictionaryGet))
            let loadHit = await measure(repetitions, operations) { range in
                var sum = 0
                for i in range { sum &+= (try? await cache.getOrLoad(BenchKey(i % capacity)) { 1 }) ?? 0 }
                return sum
            }
            precondition(cache.statistics.loadCount == 0, "the getOrLoad row must only hit")
            rows.append(row("\(name) getOrLoad, hit", loadHit, baseline: dictionaryGet))
            let replace = await measure(repetitions, operations) { range in
                for i in range { cache.set(BenchKey(i % capacity), i) }
                return 0
            }
            rows.append(row("\(name) set, replace", replace, baseline: dictionaryGet))
            let insert = await measure(repetitions, operations) { range in
                // New keys every time: each set evicts one entry.
                let offset = Int.random(in: 1..<1_000_000) * 10_000_000
                for i in range { cache.set(BenchKey(offset + i), i) }
                return 0
            }
            rows.append(row("\(name) set, new key + eviction", insert, baseline: dictionaryGet))
        }
        let users = Cache<UserCacheKey, Int>(configuration: .init(name: "bench", maximumEntries: capacity))
        let userKeys = (0..<capacity).map {
            UserCacheKey(user: CacheUserID("user-\($0 / 10)"), resource: "plan/week/\($0 % 10)")
        }
        for (i, key) in userKeys.enumerated() { users.set(key, i) }
        let userGet = await measure(repetitions, operations) { range in
            var sum = 0
            for i in range { sum &+= users.get(userKeys[i % userKeys.count]) ?? 0 }
            return sum
        }
        rows.append(row("W-TinyLFU get, hit, UserCacheKey (string key)", userGet, baseline: dictionaryGet))

        print("Throughput over \(capacity) resident keys: one task, then the same work split over 2 concurrent tasks")
        table(
            [
                "operation", "1 task Mops/s", "ns/op", "CPU ns/op", "2 tasks Mops/s", "2 tasks ÷ 1 task",
                "CPU ns/op ÷ baseline get",
            ], rows)
    }

    private struct Throughput {
        var single: Duration
        var singleCPU: Duration
        var dual: Duration
        var operations: Int
    }

    /// Runs `body` over `operations` indices on one task, then over two halves on two
    /// concurrent tasks; medians of `repetitions`.
    private static func measure(
        _ repetitions: Int, _ operations: Int, _ body: @escaping @Sendable (Range<Int>) async -> Int
    ) async -> Throughput {
        let single = await median(repetitions) { _ = await body(0..<operations) }
        let dual = await median(repetitions) {
            await withTaskGroup(of: Int.self) { group in
                group.addTask { await body(0..<operations / 2) }
                group.addTask { await body(operations / 2..<operations) }
                for await _ in group {}
            }
        }
        return Throughput(single: single.wall, singleCPU: single.cpu, dual: dual.wall, operations: operations)
    }

    private static func row(_ name: String, _ t: Throughput, baseline: Throughput) -> [String] {
        let n = Double(t.operations)
        let singleNs = nanoseconds(t.single) / n
        let dualNs = nanoseconds(t.dual) / n
        let cpuNs = nanoseconds(t.singleCPU) / n
        return [
            name, format(1_000 / singleNs, 2), format(singleNs, 1), format(cpuNs, 1), format(1_000 / dualNs, 2),
            format(singleNs / dualNs, 2), format(cpuNs / (nanoseconds(baseline.singleCPU) / n), 2),
        ]
    }

    // MARK: - Hit ratio

    private static func hitRatios(accesses: Int) {
        print("Hit ratio, LRU vs W-TinyLFU (read; on a miss, store): \(accesses) accesses, seeded")
        var rows: [[String]] = []
        let universe = 1_000_000
        for exponent in [0.8, 1.0, 1.2] {
            let zipf = Zipf(count: universe, exponent: exponent)
            for capacity in [1_000, 10_000] {
                let workload: @Sendable (inout SplitMix) -> Int = { zipf.next(using: &$0) }
                rows.append(compare("Zipf s=\(exponent), \(universe) keys", capacity, accesses, workload))
            }
        }
        // Scan resistance: a hot set of 500 keys (Zipf s=1.0 over them) taking 30% of the
        // reads while 70% is a scan of keys never seen again.
        let hot = Zipf(count: 500, exponent: 1.0)
        let scan = Mutex(10_000_000)
        rows.append(
            compare("30% hot set (500) + 70% one-off scan", 1_000, accesses) { generator in
                if Double.random(in: 0..<1, using: &generator) < 0.3 { return hot.next(using: &generator) }
                return scan.withLock {
                    $0 += 1; return $0
                }
            })
        // Recency-friendly: a working set that shifts over time (LRU's home ground).
        let shift = Mutex(0)
        rows.append(
            compare("shifting working set (loop over 800 keys, moving)", 1_000, accesses) { generator in
                shift.withLock { step in
                    step += 1
                    return step / 50 + Int.random(in: 0..<800, using: &generator)
                }
            })
        table(["workload", "capacity", "LRU hit %", "W-TinyLFU hit %", "difference (points)"], rows)
    }

    private static func compare(
        _ name: String, _ capacity: Int, _ accesses: Int, _ next: @escaping @Sendable (inout SplitMix) -> Int
    ) -> [String] {
        func ratio(_ policy: CacheEvictionPolicy) -> Double {
            let cache = Cache<BenchKey, Int>(
                configuration: .init(name: "ratio", maximumEntries: capacity, evictionPolicy: policy))
            var generator = SplitMix(seed: 2024)
            for _ in 0..<accesses {
                let key = BenchKey(next(&generator))
                if cache.get(key) == nil { cache.set(key, key.id) }
            }
            return cache.statistics.hitRatio * 100
        }
        let lru = ratio(.lru)
        let tinyLFU = ratio(.windowTinyLFU)
        return [name, "\(capacity)", format(lru, 1), format(tinyLFU, 1), format(tinyLFU - lru, 1)]
    }

}

/// An untagged integer key.
private struct BenchKey: CacheKey {
    let id: Int
    init(_ id: Int) { self.id = id }
}

/// Deterministic generator (SplitMix64, SyntheticData's).
private typealias SplitMix = SeededRandom.SplitMix64

/// Zipf-distributed ranks 0..<count (rank 0 most popular), by inverting the cumulative
/// distribution with a binary search.
private struct Zipf: Sendable {
    private let cumulative: [Double]

    init(count: Int, exponent: Double) {
        var cumulative = [Double](repeating: 0, count: count)
        var total = 0.0
        for rank in 0..<count {
            total += 1 / pow(Double(rank + 1), exponent)
            cumulative[rank] = total
        }
        self.cumulative = cumulative.map { $0 / total }
    }

    func next(using generator: inout some RandomNumberGenerator) -> Int {
        let u = Double.random(in: 0..<1, using: &generator)
        var low = 0
        var high = cumulative.count - 1
        while low < high {
            let middle = (low + high) / 2
            if cumulative[middle] < u { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
