import FTMSDecode

// Differential check of SessionAssembler (Benchmarks/assembler-digest/run.sh): a hash over every value of the series
// of a generated 6 MB recording and of 30,000 random blobs (every characteristic, random flags and lengths, truncated
// ends, random assembler configurations), with how many values each channel got. Two builds of FTMSDecode that agree
// here give the same series, bit for bit.
struct FNV {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    mutating func add(_ x: UInt64) { for i in 0..<8 { h ^= (x >> (8 * UInt64(i))) & 0xFF; h = h &* 0x100_0000_01b3 } }
    mutating func add(_ a: [Double]) { add(UInt64(a.count)); for x in a { add(x.bitPattern) } }
    mutating func add(_ s: String) { for b in s.utf8 { h ^= UInt64(b); h = h &* 0x100_0000_01b3 } }
}
struct Rng {
    var s: UInt64
    mutating func next() -> UInt64 {
        s &+= 0x9E37_79B9_7F4A_7C15; var z = s; z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9;
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB; return z ^ (z >> 31)
    }
    mutating func int(_ lo: Int, _ hi: Int) -> Int { lo + Int(next() % UInt64(hi - lo + 1)) }
}
nonisolated(unsafe) var stats = [String: Int]()
func feed(_ f: inout FNV, _ bytes: [UInt8], _ c: SessionAssembler.Configuration = .default) {
    guard let s = try? SessionAssembler.assemble(bytes: bytes, configuration: c) else { f.add(0xDEAD); return }
    stats["records", default: 0] += s.recordCount; stats["decodeErrors", default: 0] += s.decodeErrors
    for (k, a) in [
        ("power", s.powerW), ("speed", s.speedKmh), ("cadence", s.cadenceRpm), ("hr", s.heartRateBpm),
        ("stroke", s.strokeRateSpm), ("step", s.stepRateSpm), ("pace500", s.paceSPer500m), ("paceKm", s.paceSPerKm),
        ("incl", s.inclinationPct), ("resist", s.resistanceLevel), ("dist", s.distanceM), ("energy", s.energyKcal),
        ("strokes", s.strokes),
    ] {
        stats[k, default: 0] += a.lazy.filter { !$0.isNaN }.count
    }
    f.add(UInt64(s.seconds)); f.add(s.powerW); f.add(s.speedKmh); f.add(s.cadenceRpm); f.add(s.heartRateBpm)
    f.add(s.strokeRateSpm); f.add(s.stepRateSpm); f.add(s.paceSPer500m); f.add(s.paceSPerKm); f.add(s.inclinationPct)
    f.add(s.resistanceLevel); f.add(s.distanceM); f.add(s.energyKcal); f.add(s.strokes); f.add(s.wheelRevolutions)
    f.add(s.crankRevolutions); f.add(s.paused.map { $0 ? 1.0 : 0.0 })
    f.add(
        "\(s.machineTotals)|\(s.derivedTotals)|\(s.decodeErrors)|\(s.unknownRecords)|\(s.recordsPastLimit)|\(s.end)|\(s.recordCount)"
    )
}
@main struct Main {
    static func main() {
        var f = FNV()
        feed(&f, FTMSBench.generate(targetBytes: 6 << 20))
        var r = Rng(s: 42)
        let uuids: [UInt16] = [
            0x2ACD, 0x2ACE, 0x2ACF, 0x2AD0, 0x2AD1, 0x2AD2, 0x2A37, 0x2A63, 0x2A5B, 0x2ADA, 0x2AD3, 0x2ACC,
            0x2AD4, 0x2AD5, 0x2AD6, 0x2AD7, 0x2AD8, 0x2AD9, 0x2A29, 0x2A24, 0x1234,
        ]
        var blobs = 0
        for _ in 0..<30_000 {
            var w = BlobWriter(machineRaw: UInt8(r.int(0, 6)), startMillis: 1_766_570_400_000)
            var t: UInt32 = UInt32(r.int(0, 3000))
            let family = uuids[r.int(0, 5)]
            for _ in 0..<r.int(0, 120) {
                let jump = r.int(0, 9)
                t &+=
                    jump < 5
                    ? UInt32(r.int(0, 300)) : jump < 8 ? UInt32(r.int(0, 1500)) : jump == 8 ? UInt32(r.int(0, 9000)) : 0
                let uuid = r.int(0, 2) == 0 ? uuids[r.int(0, uuids.count - 1)] : family
                let len = r.int(0, 3) == 0 ? r.int(0, 24) : r.int(2, 20)
                var payload = (0..<len).map { _ in UInt8(truncatingIfNeeded: r.next()) }
                if len >= 2, r.int(0, 1) == 0 { payload[1] = 0 } // fewer fields, more often valid
                if len >= 1, r.int(0, 3) == 0 { payload[0] &= 0x0F }
                w.append(timeMillis: t, uuid: uuid, kindRaw: UInt8(r.int(0, 3)), payload: payload)
            }
            var bytes = w.bytes
            if r.int(0, 9) == 0, bytes.count > 20 { bytes.removeLast(r.int(1, 5)) }
            feed(
                &f, bytes,
                r.int(0, 4) == 0
                    ? .init(
                        maxGapSeconds: r.int(0, 5), proximityMergeMillis: UInt32(r.int(0, 200)),
                        moreDataMergeMillis: UInt32(r.int(0, 2000)), maxSeconds: r.int(1, 20)) : .default)
            blobs += 1
        }
        print(stats.sorted { $0.key < $1.key })
        print("blobs \(blobs) digest \(String(f.h, radix: 16))")
    }
}
