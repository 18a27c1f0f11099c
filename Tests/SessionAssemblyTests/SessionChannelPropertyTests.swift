import FTMSDecode
import Foundation
import PropertyBased
import TestKit
import Testing

@testable import SessionAssembly

/// One record of a generated recording: a strap reading, a bike's total distance (with or without the machine's heart
/// rate), or both in the same millisecond.
struct ChannelStep: Sendable, CustomStringConvertible {
    /// 0: strap, 1: bike, 2: bike then strap.
    var kind: Int
    /// ms after the previous record.
    var afterMillis: Int
    /// bpm; 0 is a missing value.
    var bpm: Int
    /// How the distance moves: 0–3 forward by `distance % 200` m (either side of the limit), 4 to `distance` (anywhere in 24 bits: a reset or an
    /// implausible jump), 5 to `distance % 100` m below the top of the 24 bits (so that small steps roll over; the top
    /// itself is "data not available").
    var move: Int
    var distance: Int
    /// The bike's Heart Rate field: -1 leaves it out; 0 is a missing value.
    var machineBpm: Int

    var description: String {
        "\(["strap", "bike", "both"][kind]) +\(afterMillis) ms, \(bpm) bpm, move \(move)/\(distance), machine \(machineBpm) bpm"
    }

    static var generator: Generator<ChannelStep, AnySequence<Any>> {
        zip(
            Gen.int(in: 0...2),
            Gen.frequency(
                (4, Gen.int(in: 0...400)), (4, Gen.int(in: 600...1400)), (2, Gen.int(in: 1500...6000)),
                (0.5, Gen.int(in: 7000...40_000))),
            Gen.int(in: 0...200), Gen.int(in: 0...5), Gen.int(in: 0...0xFF_FFFF),
            Gen.frequency((2, Gen.int(in: -1 ... -1)), (1, Gen.int(in: 0...200)))
        )
        .map { ChannelStep(kind: $0, afterMillis: $1, bpm: $2, move: $3, distance: $4, machineBpm: $5) }
        .eraseToAny()
    }
}

/// The session assembler's channels against the rules of `SessionSeries`, worked out second by second from a plain
/// list of samples (the model below knows nothing of columns, capacities, fast paths or copies): generated recordings
/// with gaps shorter and longer than `maxGapSeconds`, several records a second, seconds past `maxSeconds`, a counter
/// that steps forward, jumps, resets and rolls over; through the zero-copy path, the blob path, record by record, and
/// an accumulator copied part way that must keep what it had while the original goes on.
@Suite(.shrinking) struct SessionChannelPropertyTests {
    static var count: Int { ProcessInfo.processInfo.environment["ASSEMBLER_PROPERTY_COUNT"].flatMap(Int.init) ?? 300 }
    static let limits = [3, 12, 40, 86_400]

    /// Series of a channel from its samples in arrival order (second, value): the last sample of each second; a run of
    /// empty seconds after a sample is `empty(sample)` when at most `maxGap` long (also at the end of the grid), else
    /// NaN; NaN before the first sample; empty when there is no sample.
    static func model(
        _ samples: [(second: Int, value: Double)], seconds: Int, maxGap: Int, empty: (Double) -> Double
    ) -> [Double] {
        guard !samples.isEmpty else { return [] }
        var value: [Int: Double] = [:]
        for sample in samples { value[sample.second] = sample.value }
        let sampled = value.keys.sorted()
        var out = [Double](repeating: .nan, count: seconds)
        for (k, second) in sampled.enumerated() {
            out[second] = value[second]!
            let next = k + 1 < sampled.count ? sampled[k + 1] : seconds
            if next - second - 1 <= maxGap {
                for i in second + 1..<next { out[i] = empty(value[second]!) }
            }
        }
        return out
    }

    /// A total distance reading's increment (`CounterChannel`'s rule as its documentation states it, for a uint24
    /// counter of at most 30 m/s with 50 m of slack): a step forward within the limit counts; one beyond it re-bases
    /// without counting; a step back within the limit after wrapping is a rollover; beyond it, a reset, and the new
    /// value counts when it is itself within the limit.
    struct Distance {
        var previous: (raw: Int, millis: Int)?
        var resets = 0, rollovers = 0

        mutating func increment(_ raw: Int, at millis: Int) -> Int {
            defer { previous = (raw, millis) }
            guard let previous else { return 0 }
            let elapsedMillis = max(millis - previous.millis, 1000)
            func plausible(_ metres: Int) -> Bool { metres * 1000 <= 30 * elapsedMillis + 50 * 1000 }
            if raw >= previous.raw {
                if plausible(raw - previous.raw) { return raw - previous.raw }
                resets += 1
                return 0
            }
            let wrapped = raw + (1 << 24) - previous.raw
            if plausible(wrapped) {
                rollovers += 1
                return wrapped
            }
            resets += 1
            return plausible(raw) ? raw : 0
        }
    }

    @Test func channelsFollowTheSeriesRules() async {
        await propertyCheck(
            count: Self.count, input: ChannelStep.generator.array(of: 0...60), Gen.int(in: 0...4),
            Gen.int(in: 0...3), Gen.int(in: 0...60)
        ) { steps, maxGap, limit, split in
            let configuration = SessionAssembler.Configuration(maxGapSeconds: maxGap, maxSeconds: Self.limits[limit])
            var writer = BlobWriter(machine: .indoorBike, startMillis: 0)
            var records: [(millis: Int, uuid: UInt16, payload: [UInt8], value: Int, machineBpm: Int?)] = []
            var millis = 0
            var raw = 0
            for step in steps {
                millis += step.afterMillis
                if step.kind >= 1 {
                    switch step.move {
                    case 0...3: raw = (raw + step.distance % 200) & 0xFF_FFFF
                    case 4: raw = step.distance
                    default: raw = 0xFF_FFFF - step.distance % 100
                    }
                    let machineBpm = step.machineBpm >= 0 ? step.machineBpm : nil
                    let bike = IndoorBikeData {
                        $0.totalDistanceM = raw; $0.heartRateBpm = machineBpm
                    }
                    records.append((millis, 0x2AD2, bike.encode(), raw, machineBpm))
                }
                if step.kind != 1 {
                    let strap = HeartRateMeasurement(heartRateBpm: step.bpm, sensorContact: .detected, rrIntervalsS: [])
                    records.append((millis, 0x2A37, strap.encode(), step.bpm, nil))
                }
            }
            for r in records {
                writer.append(timeMillis: UInt32(r.millis), uuid: r.uuid, kind: .notification, payload: r.payload)
            }

            /// What the rules give for the first `n` records.
            func expected(_ n: Int) -> (
                heartRate: [Double], distance: [Double], total: Int, resets: Int, rollovers: Int, seconds: Int,
                withData: Int
            ) {
                let used = records.prefix(n).filter { $0.millis / 1000 < configuration.maxSeconds }
                let seconds = used.map { $0.millis / 1000 + 1 }.max() ?? 0
                var strap: [(Int, Double)] = []
                var machine: [(Int, Double)] = []
                var increments: [(Int, Double)] = []
                var counter = Distance()
                var total = 0
                for r in used {
                    if r.uuid == 0x2A37 {
                        strap.append((r.millis / 1000, r.value == 0 ? .nan : Double(r.value)))
                    } else {
                        if let bpm = r.machineBpm { machine.append((r.millis / 1000, bpm == 0 ? .nan : Double(bpm))) }
                        let value = r.value
                        if value == 0xFF_FFFF { continue } // "data not available": no reading
                        let delta = counter.increment(value, at: r.millis)
                        total += delta
                        if let last = increments.last, last.0 == r.millis / 1000 {
                            increments[increments.count - 1].1 += Double(delta)
                        } else {
                            increments.append((r.millis / 1000, Double(delta)))
                        }
                    }
                }
                // The strap's value in the seconds where it has one, else the machine's.
                let (fromStrap, fromMachine) = (
                    Self.model(strap, seconds: seconds, maxGap: maxGap) { $0 },
                    Self.model(machine, seconds: seconds, maxGap: maxGap) { $0 }
                )
                let heartRate =
                    fromStrap.isEmpty
                    ? fromMachine
                    : fromMachine.isEmpty ? fromStrap : zip(fromStrap, fromMachine).map { $0.isNaN ? $1 : $0 }
                return (
                    heartRate,
                    Self.model(increments, seconds: seconds, maxGap: maxGap) { _ in 0 },
                    total, counter.resets, counter.rollovers, seconds, Set(used.map { $0.millis / 1000 }).count
                )
            }
            func check(_ series: SessionSeries, _ n: Int, _ path: String) {
                let e = expected(n)
                #expect(series.seconds == e.seconds, "\(path): seconds")
                #expect(
                    same(series.heartRateBpm, e.heartRate),
                    "\(path): heart rate \(series.heartRateBpm) against \(e.heartRate)")
                #expect(
                    same(series.distanceM, e.distance), "\(path): distance \(series.distanceM) against \(e.distance)")
                #expect(series.derivedTotals.distanceM == Double(e.total), "\(path): total distance")
                #expect(
                    series.derivedTotals.counterResets == e.resets
                        && series.derivedTotals.counterRollovers == e.rollovers, "\(path): resets and rollovers")
                #expect(series.derivedTotals.secondsWithData == e.withData, "\(path): seconds with data")
                #expect(series.recordCount == n && series.decodeErrors == 0, "\(path): records")
            }

            let bytes = writer.bytes
            check(try SessionAssembler.assemble(bytes: bytes, configuration: configuration), records.count, "bytes")
            let blob = try BlobReader.read(bytes)
            check(SessionAssembler.assemble(blob, configuration: configuration), records.count, "blob")
            // Record by record, copied after `cut` records: the copy keeps the first `cut`, the original takes them all.
            let cut = min(split, blob.records.count)
            var original = SessionAccumulator(header: blob.header, configuration: configuration)
            for record in blob.records.prefix(cut) { original.add(record) }
            let copy = original
            for record in blob.records.dropFirst(cut) { original.add(record) }
            check(original.finish(end: blob.end), records.count, "record by record")
            check(copy.finish(end: blob.end), cut, "copy after \(cut) records")
        }
    }
}
