import FTMSDecode
import TestKit
import Testing

@testable import SessionAssembly

/// The zero-copy path of `SessionAssembler.assemble(bytes:)`: the grid projected from the first minute, each channel
/// written into the storage of the array it becomes, and the channels that outgrow the projection or appear after it
/// was outgrown moved to storage of their own. `SessionAssemblerDetailTests.series` checks every case of that suite
/// against the blob path and the accumulator (which lend nothing); these are the cases that reach the edges.
@Suite("Session assembler: the projected grid and the series' arrays written in place")
struct SessionAssemblerProjectionTests {
    static func bike(_ powerW: Int, distanceM: Int? = nil) -> [UInt8] {
        IndoorBikeData {
            $0.totalDistanceM = distanceM; $0.powerW = powerW
        }.encode()
    }

    @Test("the projection: exact within the first minute, from the rate of the first minute after it")
    func projection() {
        func projected(_ w: BlobWriter) -> Int { w.bytes.withUnsafeBytes { SessionAssembler.projectedSeconds($0) } }
        var w = BlobWriter(machine: .indoorBike, startMillis: 0)
        #expect(projected(w) == 0)
        let payload = Self.bike(100) // flags and power: a record of 12 bytes
        for t in stride(from: 0, through: 59_999, by: 6_000) {
            w.append(timeMillis: UInt32(t), uuid: 0x2AD2, kind: .notification, payload: payload)
        }
        #expect(projected(w) == 55) // the last record at 54 s: the grid is known
        // A record past the first minute, after 10 records (120 bytes) in 60.5 s; the blob is 26 records (328 bytes):
        // 60.5 × 312 / 120 = 157.3 s, + 25 % and 64 s = 260.6, but at most one second per 8 bytes of the blob: 41.
        w.append(timeMillis: 60_500, uuid: 0x2AD2, kind: .notification, payload: payload)
        for t in 0..<15 {
            w.append(timeMillis: UInt32(61_000 + t), uuid: 0x2AD2, kind: .notification, payload: payload)
        }
        #expect(w.bytes.count == 16 + 26 * 12)
        #expect(projected(w) == 41)
        // Below the cap: 60 records (720 bytes) in the first minute, 461 in all (5,548 bytes): 60.5 × 5,532 / 720 =
        // 464.8 s, + 25 % and 64 s = 645.
        var v = BlobWriter(machine: .indoorBike, startMillis: 0)
        for t in 0..<60 { v.append(timeMillis: UInt32(1000 * t), uuid: 0x2AD2, kind: .notification, payload: payload) }
        for t in 0..<401 {
            v.append(timeMillis: UInt32(60_500 + 1000 * t), uuid: 0x2AD2, kind: .notification, payload: payload)
        }
        #expect(v.bytes.count == 5_548)
        #expect(projected(v) == 645)
        // A record the scan will reject (a payload longer than 244 bytes) ends the walk: the grid up to the last good
        // one (the first, at 0 s).
        var bytes = v.bytes
        bytes[16 + 12 + 7] = 245
        #expect(bytes.withUnsafeBytes { SessionAssembler.projectedSeconds($0) } == 1)
    }

    @Test("fresh arrays: each buffer becomes its array with the count the body gives, in order")
    func freshArrays() {
        let (arrays, result) = SessionAssembler.withFreshArrays(count: 3, capacity: 4) { buffers in
            #expect(buffers.count == 3 && buffers.allSatisfy { $0.count >= 4 })
            for (k, buffer) in buffers.enumerated() {
                for i in 0..<4 { buffer[i] = Double(10 * k + i) }
            }
            return ([4, 0, 2], "body ran")
        }
        #expect(result == "body ran")
        #expect(arrays == [[0, 1, 2, 3], [], [20, 21]])
    }

    @Test("channels written in lent buffers are finished there; those that outgrew them are copied out")
    func inPlace() {
        let header = BlobHeader(version: 1, machineRaw: MachineType.indoorBike.rawValue, startMillis: 0)
        let lendable = SessionAccumulator.channelCount
        // Within the projection: power and the strap in place, their tails held.
        let (arrays, finished) = SessionAssembler.withFreshArrays(count: lendable, capacity: 8) { lent in
            var a = SessionAccumulator(header: header)
            a.lend(lent, seconds: 8)
            Self.bike(120).withUnsafeBytes { a.add(timeMillis: 1_000, uuid: 0x2AD2, kindRaw: 0, payload: $0) }
            HeartRateMeasurement(heartRateBpm: 90).encode().withUnsafeBytes {
                a.add(timeMillis: 2_000, uuid: 0x2A37, kindRaw: 0, payload: $0)
            }
            Self.bike(130).withUnsafeBytes { a.add(timeMillis: 3_000, uuid: 0x2AD2, kindRaw: 0, payload: $0) }
            [0x00, 0x01].withUnsafeBytes { a.add(timeMillis: 5_500, uuid: 0x2AD3, kindRaw: 0, payload: $0) }
            let finished = a.finish(end: .complete, lent: lent)
            var counts = [Int](repeating: 0, count: lent.count)
            for (_, k) in finished.inPlace { counts[k] = finished.series.seconds }
            return (counts, finished)
        }
        #expect(finished.series.seconds == 6)
        #expect(Set(finished.inPlace.map(\.0)) == [\SessionSeries.powerW, \SessionSeries.heartRateBpm])
        #expect(finished.series.powerW.isEmpty && finished.series.heartRateBpm.isEmpty)
        let array = { (path: WritableKeyPath<SessionSeries, [Double]>) in
            arrays[finished.inPlace.first { $0.0 == path }!.1]
        }
        #expect(same(array(\.powerW), [nan, 120, 120, 130, 130, 130]))
        #expect(same(array(\.heartRateBpm), [nan, nan, 90, 90, 90, 90]))
        #expect(arrays.filter { !$0.isEmpty }.count == 2)

        // Past the projection: everything is copied out of storage of its own.
        let (_, grown) = SessionAssembler.withFreshArrays(count: lendable, capacity: 4) { lent in
            var a = SessionAccumulator(header: header)
            a.lend(lent, seconds: 4)
            Self.bike(120).withUnsafeBytes { a.add(timeMillis: 1_000, uuid: 0x2AD2, kindRaw: 0, payload: $0) }
            Self.bike(130).withUnsafeBytes { a.add(timeMillis: 9_000, uuid: 0x2AD2, kindRaw: 0, payload: $0) }
            return ([Int](repeating: 0, count: lent.count), a.finish(end: .complete, lent: lent))
        }
        #expect(grown.inPlace.isEmpty)
        #expect(same(grown.series.powerW, [nan, 120, nan, nan, nan, nan, nan, nan, nan, 130]))

        // Room for every data second but not for the grid, which a status record after them lengthens: copied out.
        let (_, short) = SessionAssembler.withFreshArrays(count: lendable, capacity: 4) { whole in
            let lent = whole.map { UnsafeMutableBufferPointer(rebasing: $0[0..<4]) }
            var a = SessionAccumulator(header: header)
            a.lend(lent, seconds: 4)
            Self.bike(120).withUnsafeBytes { a.add(timeMillis: 1_000, uuid: 0x2AD2, kindRaw: 0, payload: $0) }
            Self.bike(130).withUnsafeBytes { a.add(timeMillis: 3_000, uuid: 0x2AD2, kindRaw: 0, payload: $0) }
            [0x00, 0x01].withUnsafeBytes { a.add(timeMillis: 4_500, uuid: 0x2AD3, kindRaw: 0, payload: $0) }
            return ([Int](repeating: 0, count: lent.count), a.finish(end: .complete, lent: lent))
        }
        #expect(short.inPlace.isEmpty)
        #expect(same(short.series.powerW, [nan, 120, 120, 130, 130]))

        // A projection far too long (here 300 s for a grid of 10, more than 10 + 5 + 128): copied out, so that the
        // series does not keep the lent buffer's memory.
        let (_, long) = SessionAssembler.withFreshArrays(count: lendable, capacity: 300) { whole in
            let lent = whole.map { UnsafeMutableBufferPointer(rebasing: $0[0..<300]) }
            var a = SessionAccumulator(header: header)
            a.lend(lent, seconds: 300)
            for t in 0..<10 {
                Self.bike(100 + t).withUnsafeBytes {
                    a.add(timeMillis: UInt32(1000 * t), uuid: 0x2AD2, kindRaw: 0, payload: $0)
                }
            }
            return ([Int](repeating: 0, count: lent.count), a.finish(end: .complete, lent: lent))
        }
        #expect(long.inPlace.isEmpty)
        #expect(same(long.series.powerW, (100..<110).map(Double.init)))
    }

    /// A dense first minute (4 Hz) and then a record every 5 s for two hours: the projection (≈ 590 s) is outgrown.
    /// The power meter is in the first minute only (lent, then moved); the strap starts after the grid outgrew the
    /// projection (storage of its own from its first sample); the distance counter runs throughout.
    @Test("a recording that outgrows its projection, with channels appearing before and after")
    func outgrown() throws {
        var w = BlobWriter(machine: .indoorBike, startMillis: 0)
        var records = 0
        func bike(_ t: Int, _ power: Int) {
            w.append(
                timeMillis: UInt32(t), uuid: 0x2AD2, kind: .notification,
                payload: Self.bike(power, distanceM: 2 * records))
            records += 1
        }
        for t in stride(from: 0, to: 60_000, by: 250) {
            bike(t, 200)
            if t >= 30_000, t < 40_000, t % 1000 == 0 {
                w.append(
                    timeMillis: UInt32(t), uuid: 0x2A63, kind: .notification,
                    payload: CyclingPowerMeasurement { $0.powerW = 500 }.encode())
            }
        }
        for k in 1...1440 {
            let t = 60_000 + 5_000 * k
            bike(t, k % 400 + 100)
            if t >= 3_000_000, t < 3_100_000 {
                for s in 0..<5 {
                    w.append(
                        timeMillis: UInt32(t + 1000 * s), uuid: 0x2A37, kind: .notification,
                        payload: HeartRateMeasurement(heartRateBpm: 120).encode())
                }
            }
        }
        let projected = w.bytes.withUnsafeBytes { SessionAssembler.projectedSeconds($0) }
        #expect(projected < 1_000)
        let s = try SessionAssemblerDetailTests.series(w)
        #expect(s.seconds == 7_261)
        #expect(s.powerW.count == 7_261 && s.heartRateBpm.count == 7_261 && s.distanceM.count == 7_261)
        // The power meter where it has a value, the bike elsewhere; 4 empty seconds between the bike's records (NaN).
        #expect(same(Array(s.powerW[28...41]), [200, 200] + Array(repeating: 500, count: 10) + [200, 200]))
        #expect(same(Array(s.powerW[7_255...7_260]), [339, nan, nan, nan, nan, 340]))
        // The strap from 3,000 s to 3,099 s; the bike has no heart rate.
        #expect(s.heartRateBpm[2_999].isNaN && s.heartRateBpm[3_000] == 120 && s.heartRateBpm[3_099] == 120)
        #expect(s.heartRateBpm[3_100].isNaN)
        // Every bike record carries 2 m more than the one before.
        #expect(s.derivedTotals.distanceM == Double(2 * (records - 1)))
        #expect(s.derivedTotals.counterResets == 0 && s.derivedTotals.counterRollovers == 0)
    }

    @Test("a grid that ends after its last sample: the tail held or NaN, written in place")
    func tails() throws {
        for (statusAt, expected) in [(12_500, [100.0, 100, 100]), (20_000, [100, nan, nan])] {
            var w = BlobWriter(machine: .indoorBike, startMillis: 0)
            for t in stride(from: 0, through: 10_000, by: 1000) {
                w.append(timeMillis: UInt32(t), uuid: 0x2AD2, kind: .notification, payload: Self.bike(100))
            }
            w.append(timeMillis: UInt32(statusAt), uuid: 0x2AD3, kind: .notification, payload: [0x00, 0x01])
            let s = try SessionAssemblerDetailTests.series(w)
            #expect(s.seconds == statusAt / 1000 + 1)
            #expect(same(Array(s.powerW[10...12]), expected))
        }
    }
}
