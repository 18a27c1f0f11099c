import FTMSRender
import Testing

@testable import FTMSDecode

/// The decoders' fast path (one length check for the whole value, then unchecked reads)
/// against independent references: the field widths listed in `docs/ftms-fields.md`
/// ("FTMS data characteristics", FTMS 1.0 §4.4–§4.9) and the field-by-field checked path.
@Suite("Decoder fast path")
struct DecodeFastPathTests {
    /// Octets per flag bit, from the spec's field table (bit 0 read as "fields present").
    static let widths: [(name: String, bits: [Int])] = [
        // 2AD2: speed, avg speed, cadence, avg cadence, distance u24, resistance, power,
        // avg power, energy u16+u16+u8, HR, MET, elapsed, remaining.
        ("indoor_bike_data", [2, 2, 2, 2, 3, 2, 2, 2, 5, 1, 1, 2, 2]),
        // 2AD1: stroke rate u8 + stroke count u16, avg stroke rate u8, distance u24, pace,
        // avg pace, power, avg power, resistance, energy, HR, MET, elapsed, remaining.
        ("rower_data", [3, 1, 3, 2, 2, 2, 2, 2, 5, 1, 1, 2, 2]),
        // 2ACD: speed, avg speed, distance u24, inclination + ramp angle, elevation gain
        // + / −, pace u8, avg pace u8, energy, HR, MET, elapsed, remaining, force + power.
        ("treadmill_data", [2, 2, 3, 4, 4, 1, 1, 5, 1, 1, 2, 2, 4]),
        // 2ACE: speed, avg speed, distance u24, step rate + avg step rate, stride count,
        // elevation gain + / −, inclination + ramp angle, resistance, power, avg power,
        // energy, HR, MET, elapsed, remaining.
        ("cross_trainer_data", [2, 2, 3, 4, 2, 4, 4, 2, 2, 2, 5, 1, 1, 2, 2]),
        // 2ACF: floors + step count, step rate, avg step rate, elevation gain, energy, HR,
        // MET, elapsed, remaining.
        ("step_climber_data", [4, 2, 2, 2, 5, 1, 1, 2, 2]),
        // 2AD0: floors, step rate, avg step rate, elevation gain, stride count, energy, HR,
        // MET, elapsed, remaining.
        ("stair_climber_data", [2, 2, 2, 2, 2, 5, 1, 1, 2, 2]),
    ]

    static func naiveLength(_ present: UInt32, _ bits: [Int]) -> Int {
        bits.indices.reduce(0) { $0 + (present & (1 << UInt32($1)) != 0 ? bits[$1] : 0) }
    }

    static func fieldLength(_ name: String, _ present: UInt32) -> Int {
        switch name {
        case "indoor_bike_data": IndoorBikeData.fieldLength(present: present)
        case "rower_data": RowerData.fieldLength(present: present)
        case "treadmill_data": TreadmillData.fieldLength(present: present)
        case "cross_trainer_data": CrossTrainerData.fieldLength(present: present)
        case "step_climber_data": StepClimberData.fieldLength(present: present)
        default: StairClimberData.fieldLength(present: present)
        }
    }

    @Test("each characteristic's length masks give the spec's widths, for every flag combination")
    func lengthsMatchSpecWidths() {
        for (name, bits) in Self.widths {
            var mismatches = 0
            for present in 0..<UInt32(1) << UInt32(bits.count)
            where Self.fieldLength(name, present) != Self.naiveLength(present, bits) {
                mismatches += 1
            }
            #expect(mismatches == 0, "\(name)")
            // Every field present: the longest value.
            let all = UInt32(1) << UInt32(bits.count) - 1
            #expect(Self.fieldLength(name, all) == bits.reduce(0, +), "\(name)")
        }
        // Hand-computed: indoor bike speed + cadence + distance + power + energy + HR +
        // elapsed = 2 + 2 + 3 + 2 + 5 + 1 + 2 = 17 octets after the flags.
        #expect(IndoorBikeData.fieldLength(present: 0b1011_0101_0101) == 17)
    }

    @Test("the weighted count equals five separate counts for arbitrary 16-bit masks")
    func weightedCount() {
        var rng = SplitMix(seed: 0xF7_3A5E)
        for _ in 0..<20_000 {
            // Five disjoint masks over 16 bits: each bit gets a width 0...5.
            var masks = [UInt32](repeating: 0, count: 6)
            for bit in 0..<16 { masks[Int(rng.next() % 6)] |= 1 << UInt32(bit) }
            let present = UInt32(truncatingIfNeeded: rng.next()) & 0xFFFF
            let expected =
                (present & masks[1]).nonzeroBitCount + 2 * (present & masks[2]).nonzeroBitCount
                + 3 * (present & masks[3]).nonzeroBitCount + 4 * (present & masks[4]).nonzeroBitCount
                + 5 * (present & masks[5]).nonzeroBitCount
            let got = requiredLength(
                present: present, ones: masks[1], twos: masks[2], threes: masks[3], fours: masks[4], fives: masks[5])
            if got != expected {
                Issue.record("present \(present) masks \(masks): \(got) != \(expected)")
                return
            }
        }
        // All 16 bits five octets wide: 80.
        #expect(requiredLength(present: 0xFFFF, ones: 0, twos: 0, threes: 0, fours: 0, fives: 0xFFFF) == 80)
    }

    typealias Recording = FieldRecording

    /// The decoder's path and the checked walk agree on `payload` (`fastPathMatchesCheckedWalk`).
    static func agree<T: FlaggedDataCharacteristic>(_ payload: [UInt8], _ type: T.Type) -> Bool {
        payload.withUnsafeBytes { T.fastPathMatchesCheckedWalk($0) }
    }

    @Test("fast path and field-by-field path agree on random payloads of every data characteristic")
    func differential() {
        var rng = SplitMix(seed: 0x2AD2_2AD1)
        var disagreements: [String] = []
        var decoded = 0
        for round in 0..<30_000 {
            // Mostly plausible lengths around each value's size, sometimes empty or one octet.
            let length = round % 50 == 0 ? Int(rng.next() % 2) : Int(rng.next() % 40)
            let payload = (0..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let checks: [(String, Bool)] = [
                ("indoor_bike_data", Self.agree(payload, IndoorBikeData.self)),
                ("rower_data", Self.agree(payload, RowerData.self)),
                ("treadmill_data", Self.agree(payload, TreadmillData.self)),
                // Cross Trainer Data flags are 24 bits (FTMS 1.0 §4.5.1); bit 15 is a direction, not a field.
                ("cross_trainer_data", Self.agree(payload, CrossTrainerData.self)),
                ("step_climber_data", Self.agree(payload, StepClimberData.self)),
                ("stair_climber_data", Self.agree(payload, StairClimberData.self)),
            ]
            for (name, ok) in checks where !ok {
                disagreements.append("\(name): \(payload.map { String($0, radix: 16) })")
            }
            if (try? IndoorBikeData.decode(payload)) != nil { decoded += 1 }
        }
        #expect(disagreements.count == 0, "first: \(disagreements.prefix(3))")
        // The random payloads exercised both paths: some decoded, some too short.
        #expect(decoded > 1000 && decoded < 30_000)
    }

    @Test("Cycling Power and CSC: fast path and checked walk agree, values round-trip (one field list each)")
    func cyclingSensorsDifferential() throws {
        var rng = SplitMix(seed: 0x2A63_2A5B)
        var disagreements: [String] = []
        var decoded = 0
        for round in 0..<30_000 {
            let length = round % 50 == 0 ? Int(rng.next() % 2) : Int(rng.next() % 40)
            let payload = (0..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            if !Self.agree(payload, CyclingPowerMeasurement.self) { disagreements.append("cp \(payload)") }
            if !Self.agree(payload, CSCMeasurement.self) { disagreements.append("csc \(payload)") }
            if let value = try? CyclingPowerMeasurement.decode(payload) {
                decoded += 1
                if try CyclingPowerMeasurement.decode(value.encode()) != value {
                    disagreements.append("cp rt \(payload)")
                }
            }
            if let value = try? CSCMeasurement.decode(payload) {
                if try CSCMeasurement.decode(value.encode()) != value { disagreements.append("csc rt \(payload)") }
            }
        }
        #expect(disagreements.count == 0, "first: \(disagreements.prefix(3))")
        #expect(decoded > 1000 && decoded < 30_000)
        // The streaming decoder: power first (always sent), the angles as two fields of one u24.
        var recording = Recording()
        let payload: [UInt8] = [0x00, 0x01, 0xFA, 0x00, 0xB4, 0xA0, 0x05]
        try payload.withUnsafeBytes { bytes in try CyclingPowerMeasurement.decode(bytes: bytes, into: &recording) }
        #expect(recording.flags == 0x0100)
        #expect(recording.fields == ["power_w=250/1.0", "maximum_angle_deg=180/1.0", "minimum_angle_deg=90/1.0"])
    }

    @Test("the streaming decoder hands over each present field in wire order, raw with its divisor")
    func streamingFields() throws {
        // The same Indoor Bike payload as below (FTMS 1.0 §4.9.1, flags 0x0B54).
        let payload: [UInt8] = [
            0x54, 0x0B, 0xC4, 0x09, 0xB4, 0x00, 0x39, 0x30, 0x01, 0xFB, 0xFF,
            0x2C, 0x01, 0x84, 0x03, 0x0C, 0x8C, 0x10, 0x0E,
        ]
        var recording = Recording()
        try payload.withUnsafeBytes { bytes in try IndoorBikeData.decode(bytes: bytes, into: &recording) }
        #expect(recording.flags == 0x0B54)
        #expect(
            recording.fields == [
                "speed_kmh=2500/100.0", "cadence_rpm=180/2.0", "total_distance_m=77881/1.0", "power_w=-5/1.0",
                "total_energy_kcal=300/1.0", "energy_per_hour_kcal=900/1.0", "energy_per_minute_kcal=12/1.0",
                "heart_rate_bpm=140/1.0", "elapsed_time_s=3600/1.0",
            ])
        // One octet short: an error naming the elapsed time, and nothing visited.
        var short = Recording()
        #expect(throws: DecodeError(field: "elapsed_time_s", expected: 2, offset: 17, found: 1)) {
            try Array(payload.dropLast()).withUnsafeBytes { bytes in
                try IndoorBikeData.decode(bytes: bytes, into: &short)
            }
        }
        #expect(short == Recording())
    }

    @Test("a value decoded from the fast path reads back the octets written")
    func fastPathValues() throws {
        // Indoor bike, FTMS 1.0 §4.9.1: flags 0x0B54 = speed (bit 0 clear), cadence (b2),
        // distance (b4), power (b6), energy (b8), HR (b9), elapsed (b11).
        let payload: [UInt8] = [
            0x54, 0x0B, 0xC4, 0x09, 0xB4, 0x00, 0x39, 0x30, 0x01, 0xFB, 0xFF,
            0x2C, 0x01, 0x84, 0x03, 0x0C, 0x8C, 0x10, 0x0E,
        ]
        let v = try IndoorBikeData.decode(payload)
        #expect(v.speedKmh == 2500.0 / 100) // 0x09C4 = 2500 × 0.01 km/h
        #expect(v.cadenceRpm == 90) // 0x00B4 = 180 × 0.5 rpm
        #expect(v.totalDistanceM == 0x013039) // uint24, little-endian
        #expect(v.powerW == -5) // sint16 0xFFFB
        #expect(v.energy == ExpendedEnergy(totalKcal: 300, perHourKcal: 900, perMinuteKcal: 12))
        #expect(v.heartRateBpm == 140)
        #expect(v.elapsedTimeS == 3600) // 0x0E10
        #expect(v.averagePowerW == nil && v.remainingTimeS == nil)
    }
}

@Suite("RR intervals read in bulk")
struct RRIntervalBulkTests {
    @Test("every count from 0 to 121, with and without an odd trailing octet, equals appending one by one")
    func bulkEqualsAppend() throws {
        for count in 0...121 {
            for odd in [false, true] {
                var payload: [UInt8] = [0x10, 70]
                var expected = RRIntervals()
                for n in 0..<count {
                    let raw = UInt16(truncatingIfNeeded: 700 + n * 37)
                    payload += [UInt8(raw & 0xFF), UInt8(raw >> 8)]
                    expected.append(raw: raw)
                }
                if odd { payload.append(0xAB) }
                let value = try HeartRateMeasurement.decode(payload)
                #expect(value.rrIntervals == expected, "count \(count)")
                #expect(value.rrIntervals?.count == count)
                if count > 0 {
                    #expect(value.rrIntervals?.raw(at: count - 1) == UInt16(truncatingIfNeeded: 700 + (count - 1) * 37))
                }
                let decoded = CharacteristicDecoder.decode(uuid: 0x2A37, kind: .notification, payload: payload)
                #expect(decoded.fields["trailing_bytes"] == (odd ? .int(1) : nil), "count \(count)")
            }
        }
    }
}

/// SplitMix64: a seeded generator, so every run tests the same payloads.
typealias SplitMix = SplitMix64
