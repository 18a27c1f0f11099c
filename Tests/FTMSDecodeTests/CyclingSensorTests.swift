import FTMSRender
import Testing

@testable import FTMSDecode

/// Cycling Power Measurement 0x2A63 — Cycling Power Service 1.1 §3.2 / GSS "Cycling Power
/// Measurement": flags u16, power s16, then b0 balance u8 ×0.5 (b1 reference left),
/// b2 accumulated torque u16 /32 (b3 source crank), b4 wheel revs u32 + time u16 /2048,
/// b5 crank revs u16 + time u16 /1024, b6 force max/min s16, b7 torque max/min s16 /32,
/// b8 angles 2 × u12 (max = low 12 bits), b9 TDS u16, b10 BDS u16, b11 energy u16 kJ,
/// b12 offset compensation indicator.
@Suite("Cycling Power Measurement 0x2A63 (CPS 1.1 §3.2)")
struct CyclingPowerMeasurementTests {
    // Hand-computed: flags 0x1FFF = FF 1F; 250 W = FA 00; 50.5 % = 101 = 65;
    // 100.5 N·m × 32 = 3216 = 90 0C; 12345 wheel revs = 39 30 00 00, 2.5 s × 2048 = 5120 = 00 14;
    // 678 crank revs = A6 02, 1.5 s × 1024 = 1536 = 00 06; 400 N = 90 01, -50 N = CE FF;
    // 40.0 N·m × 32 = 1280 = 00 05, -2.5 × 32 = -80 = B0 FF; angles max 180 (0x0B4),
    // min 90 (0x05A): 0x05A0B4 = B4 A0 05; TDS 10 = 0A 00; BDS 190 = BE 00; 300 kJ = 2C 01.
    static let allFlags =
        "FF 1F FA 00 65 90 0C 39 30 00 00 00 14 A6 02 00 06 90 01 CE FF 00 05 B0 FF B4 A0 05 0A 00 BE 00 2C 01"
    static let allValue = CyclingPowerMeasurement {
        $0.powerW = 250
        $0.pedalPowerBalancePct = 50.5
        $0.pedalPowerBalanceLeft = true
        $0.accumulatedTorqueNm = 100.5
        $0.accumulatedTorqueFromCrank = true
        $0.cumulativeWheelRevolutions = 12345
        $0.lastWheelEventTimeS = 2.5
        $0.cumulativeCrankRevolutions = 678
        $0.lastCrankEventTimeS = 1.5
        $0.maximumForceN = 400
        $0.minimumForceN = -50
        $0.maximumTorqueNm = 40
        $0.minimumTorqueNm = -2.5
        $0.maximumAngleDeg = 180
        $0.minimumAngleDeg = 90
        $0.topDeadSpotAngleDeg = 10
        $0.bottomDeadSpotAngleDeg = 190
        $0.accumulatedEnergyKJ = 300
        $0.offsetCompensationIndicator = true
    }

    @Test("every flag on")
    func everyFlag() throws {
        #expect(
            pairs(decoded(0x2A63, Self.allFlags)) == [
                p("flags", 0x1FFF), p("power_w", 250), p("offset_compensation_indicator", true),
                p("pedal_power_balance_pct", 50.5), p("pedal_power_balance_reference", "left"),
                p("accumulated_torque_nm", 100.5), p("accumulated_torque_source", "crank"),
                p("cumulative_wheel_revolutions", 12345), p("last_wheel_event_time_s", 2.5),
                p("cumulative_crank_revolutions", 678), p("last_crank_event_time_s", 1.5),
                p("maximum_force_n", 400), p("minimum_force_n", -50), p("maximum_torque_nm", 40.0),
                p("minimum_torque_nm", -2.5),
                p("maximum_angle_deg", 180), p("minimum_angle_deg", 90), p("top_dead_spot_angle_deg", 10),
                p("bottom_dead_spot_angle_deg", 190), p("accumulated_energy_kj", 300),
            ])
        #expect(try CyclingPowerMeasurement.decode(hex(Self.allFlags)) == Self.allValue)
        #expect(Self.allValue.encode() == hex(Self.allFlags))
    }

    @Test("every flag off: power only (a real Zwift Hub sends 00 00 00 00)")
    func everyFlagOff() {
        // Source: Berg0162/simcline issue #7 ("Test Zwift Hub FTMS"), NimBLE log of 0x2a63:
        // "setValue: length=4, data=00000000".
        #expect(
            pairs(decoded(0x2A63, "00 00 00 00")) == [
                p("flags", 0), p("power_w", 0), p("offset_compensation_indicator", false),
            ])
        #expect(
            pairs(decoded(0x2A63, "00 00 38 FF")) == [
                p("flags", 0), p("power_w", -200), p("offset_compensation_indicator", false),
            ])
    }

    @Test(
        "each flag alone",
        arguments: [
            (0, "65", [p("pedal_power_balance_pct", 50.5), p("pedal_power_balance_reference", "unknown")]),
            (2, "90 0C", [p("accumulated_torque_nm", 100.5), p("accumulated_torque_source", "wheel")]),
            (4, "39 30 00 00 00 14", [p("cumulative_wheel_revolutions", 12345), p("last_wheel_event_time_s", 2.5)]),
            (5, "A6 02 00 06", [p("cumulative_crank_revolutions", 678), p("last_crank_event_time_s", 1.5)]),
            (6, "90 01 CE FF", [p("maximum_force_n", 400), p("minimum_force_n", -50)]),
            (7, "00 05 B0 FF", [p("maximum_torque_nm", 40.0), p("minimum_torque_nm", -2.5)]),
            (8, "B4 A0 05", [p("maximum_angle_deg", 180), p("minimum_angle_deg", 90)]),
            (9, "0A 00", [p("top_dead_spot_angle_deg", 10)]),
            (10, "BE 00", [p("bottom_dead_spot_angle_deg", 190)]),
            (11, "2C 01", [p("accumulated_energy_kj", 300)]),
        ])
    func eachFlagAlone(bit: Int, field: String, expected: [Pair]) throws {
        let flags = 1 << bit
        let payload = [UInt8(flags & 0xFF), UInt8(flags >> 8), 0xFA, 0x00] + hex(field)
        #expect(
            pairs(CharacteristicDecoder.decode(uuid: 0x2A63, kind: .notification, payload: payload))
                == [p("flags", flags), p("power_w", 250), p("offset_compensation_indicator", false)] + expected)
        #expect(try CyclingPowerMeasurement.decode(payload).encode() == payload)
        #expect(!CharacteristicDecoder.decode(uuid: 0x2A63, kind: .notification, payload: Array(payload.dropLast())).ok)
    }

    @Test("flag-only bits (1, 3, 12) and reserved bits read nothing")
    func flagOnlyBits() {
        #expect(
            pairs(decoded(0x2A63, "0A F0 FA 00")) == [
                p("flags", 0xF00A), p("power_w", 250), p("offset_compensation_indicator", true),
            ])
    }

    @Test("maximum values, short, trailing")
    func extremes() {
        // Wheel revs FF FF FF FF = 4294967295, time FF FF = 65535/2048 s; angles FF FF FF = 4095/4095.
        #expect(
            pairs(decoded(0x2A63, "10 00 FF 7F FF FF FF FF FF FF")).suffix(2)
                == [p("cumulative_wheel_revolutions", 4_294_967_295), p("last_wheel_event_time_s", 65535.0 / 2048)])
        #expect(
            pairs(decoded(0x2A63, "00 01 00 00 FF FF FF")).suffix(2) == [
                p("maximum_angle_deg", 4095), p("minimum_angle_deg", 4095),
            ])
        #expect(decoded(0x2A63, "00 00 FA").error == "power_w: expected 2 bytes at offset 2, found 1")
        #expect(
            decoded(0x2A63, String(Self.allFlags.dropLast(3))).error
                == "accumulated_energy_kj: expected 2 bytes at offset 32, found 1")
        #expect(pairs(decoded(0x2A63, "00 00 FA 00 01")).last == p("trailing_bytes", 1))
    }
}

/// CSC Measurement 0x2A5B — Cycling Speed and Cadence Service 1.0 §3.1 / GSS "CSC
/// Measurement": flags u8, b0 wheel revs u32 + time u16 **/1024**, b1 crank revs u16 + time
/// u16 /1024.
@Suite("CSC Measurement 0x2A5B (CSCS 1.0 §3.1)")
struct CSCMeasurementTests {
    @Test("every flag on / off / alone")
    func flags() throws {
        // 1000 wheel revs = E8 03 00 00, 1.0 s = 1024 = 00 04; 50 crank revs = 32 00, 2.0 s = 00 08.
        #expect(
            pairs(decoded(0x2A5B, "03 E8 03 00 00 00 04 32 00 00 08")) == [
                p("flags", 3), p("cumulative_wheel_revolutions", 1000), p("last_wheel_event_time_s", 1.0),
                p("cumulative_crank_revolutions", 50), p("last_crank_event_time_s", 2.0),
            ])
        let value = CSCMeasurement {
            $0.cumulativeWheelRevolutions = 1000
            $0.lastWheelEventTimeS = 1
            $0.cumulativeCrankRevolutions = 50
            $0.lastCrankEventTimeS = 2
        }
        #expect(try CSCMeasurement.decode(hex("03 E8 03 00 00 00 04 32 00 00 08")) == value)
        #expect(value.encode() == hex("03 E8 03 00 00 00 04 32 00 00 08"))
        #expect(pairs(decoded(0x2A5B, "00")) == [p("flags", 0)])
        #expect(
            pairs(decoded(0x2A5B, "01 E8 03 00 00 00 04")) == [
                p("flags", 1), p("cumulative_wheel_revolutions", 1000), p("last_wheel_event_time_s", 1.0),
            ])
        #expect(
            pairs(decoded(0x2A5B, "02 32 00 00 08")) == [
                p("flags", 2), p("cumulative_crank_revolutions", 50), p("last_crank_event_time_s", 2.0),
            ])
        // Reserved bits 2–7.
        #expect(pairs(decoded(0x2A5B, "FC")) == [p("flags", 0xFC)])
    }

    @Test("maximum values, short, trailing")
    func extremes() {
        #expect(
            pairs(decoded(0x2A5B, "02 FF FF FF FF")) == [
                p("flags", 2), p("cumulative_crank_revolutions", 65535), p("last_crank_event_time_s", 65535.0 / 1024),
            ])
        #expect(decoded(0x2A5B, "").error == "flags: expected 1 bytes at offset 0, found 0")
        #expect(
            decoded(0x2A5B, "03 E8 03 00 00 00 04 32 00 00").error
                == "last_crank_event_time_s: expected 2 bytes at offset 9, found 1")
        #expect(pairs(decoded(0x2A5B, "00 01")).last == p("trailing_bytes", 1))
    }
}
