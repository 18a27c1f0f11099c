import SessionAssembly
import Testing

@testable import FTMSDecode

/// Values captured from real devices and published in public projects' issues. Each test
/// names its source; expected values are computed by hand from the layouts "as deployed"
/// (ftms-fields.md), and they show why those layouts are the right ones.
@Suite("Real captures from public issues")
struct RealCaptureTests {
    /// Zwift Hub, Berg0162/simcline issue #7 ("Test Zwift Hub FTMS"):
    /// "Client Rec'd Raw FTM Indoor Bike Data: [20] [ FE 02 99 0B C7 07 B2 00 72 00 F7 00 00 14 00 46 00 5D 00 00 ]".
    /// Flags 0x02FE: speed, b1–b7, b9. 20 octets fit only with a 16-bit resistance level
    /// (the project's own uint8 reading shifted every later field: "Cadence: 995 RPM").
    @Test("Zwift Hub indoor bike data (simcline #7)")
    func zwiftHub() {
        #expect(
            pairs(decoded(0x2AD2, "FE 02 99 0B C7 07 B2 00 72 00 F7 00 00 14 00 46 00 5D 00 00")) == [
                p("flags", 0x02FE), p("more_data", false), p("speed_kmh", 29.69), p("average_speed_kmh", 19.91),
                p("cadence_rpm", 89.0), p("average_cadence_rpm", 57.0), p("total_distance_m", 247),
                p("resistance_level", 20),
                p("power_w", 70), p("average_power_w", 93), p("heart_rate_bpm", 0),
            ])
        #expect(
            pairs(decoded(0x2AD2, "FE 02 89 0B DB 07 B2 00 74 00 FF 00 00 14 00 47 00 5D 00 00")) == [
                p("flags", 0x02FE), p("more_data", false), p("speed_kmh", 29.53), p("average_speed_kmh", 20.11),
                p("cadence_rpm", 89.0), p("average_cadence_rpm", 58.0), p("total_distance_m", 255),
                p("resistance_level", 20),
                p("power_w", 71), p("average_power_w", 93), p("heart_rate_bpm", 0),
            ])
    }

    /// Same issue: the client writes simulation parameters "[ 11 00 00 00 00 28 33 00 ]",
    /// the trainer answers "[ 80 11 01 ]" and notifies status "[ 12 00 00 00 00 28 33 ]".
    @Test("Zwift Hub control point and status (simcline #7)")
    func zwiftHubControl() {
        #expect(
            pairs(decoded(0x2AD9, "11 00 00 00 00 28 33 00", kind: .write)) == [
                p("op_code", 0x11), p("op_name", "set_indoor_bike_simulation_parameters"), p("wind_speed_mps", 0.0),
                p("grade_pct", 0.0), p("crr", 0.004), p("cw_kg_per_m", 0.51), p("trailing_bytes", 1),
            ])
        #expect(
            pairs(decoded(0x2AD9, "80 11 01", kind: .indication)) == [
                p("op_code", 0x80), p("op_name", "response_code"), p("request_op_code", 0x11),
                p("request_op_name", "set_indoor_bike_simulation_parameters"), p("result_code", 1),
                p("result_name", "success"),
            ])
        #expect(
            pairs(decoded(0x2ADA, "12 00 00 00 00 28 33")) == [
                p("op_code", 0x12), p("op_name", "indoor_bike_simulation_parameters_changed"), p("wind_speed_mps", 0.0),
                p("grade_pct", 0.0), p("crr", 0.004), p("cw_kg_per_m", 0.51),
            ])
    }

    /// JetBlack Volt, Berg0162/simcline issue #9: "[ 64 02 00 00 00 00 14 00 00 00 00 ]" with
    /// the console's "Resistance Level: 20"; flags 0x0264 = speed, cadence, resistance, power, HR.
    @Test("JetBlack Volt indoor bike data (simcline #9)")
    func jetBlackVolt() {
        #expect(
            pairs(decoded(0x2AD2, "64 02 00 00 00 00 14 00 00 00 00")) == [
                p("flags", 0x0264), p("more_data", false), p("speed_kmh", 0.0), p("cadence_rpm", 0.0),
                p("resistance_level", 20), p("power_w", 0), p("heart_rate_bpm", 0),
            ])
        #expect(decoded(0x2AD2, "64 02 1D 00 00 00 14 00 00 00 00").fields["speed_kmh"] == .double(0.29))
    }

    /// Elite trainer, Berg0162/simcline issue #4: "Raw FTM IBD Data: [13] [ 54 08 2F 07 6A 00 02 00 00 37 00 00 00 ]"
    /// and, about a second apart, "[ 54 08 1A 07 68 00 07 00 00 3B 00 00 00 ]" and
    /// "[ 54 08 3F 07 6A 00 0C 00 00 3C 00 01 00 ]" (flags 0x0854: speed, cadence, distance,
    /// power, elapsed); training status "[ 00 01 ]" and "[ 00 0A ]", machine status
    /// "[ 02 01 ]", "[ 04 ]", "[ 12 00 00 FF FF 28 33 ]", control point response "[ 80 00 01 ]".
    /// The project's decoder of that day skipped the speed field and printed "Cadence: 919 RPM",
    /// "Elapsed time: 55 s"; read per the spec the three packets are consistent: ~18.4 km/h
    /// (5.1 m/s) and the distance going 2 → 7 → 12 m, 55–60 W, elapsed 0 → 1 s.
    @Test("Elite trainer data, status and training status (simcline #4)")
    func elite() {
        #expect(
            pairs(decoded(0x2AD2, "54 08 2F 07 6A 00 02 00 00 37 00 00 00")) == [
                p("flags", 0x0854), p("more_data", false), p("speed_kmh", 18.39), p("cadence_rpm", 53.0),
                p("total_distance_m", 2), p("power_w", 55), p("elapsed_time_s", 0),
            ])
        #expect(
            pairs(decoded(0x2AD2, "54 08 1A 07 68 00 07 00 00 3B 00 00 00")).dropFirst(2) == [
                p("speed_kmh", 18.18), p("cadence_rpm", 52.0), p("total_distance_m", 7), p("power_w", 59),
                p("elapsed_time_s", 0),
            ])
        #expect(
            pairs(decoded(0x2AD2, "54 08 3F 07 6A 00 0C 00 00 3C 00 01 00")).dropFirst(2) == [
                p("speed_kmh", 18.55), p("cadence_rpm", 53.0), p("total_distance_m", 12), p("power_w", 60),
                p("elapsed_time_s", 1),
            ])
        #expect(
            pairs(decoded(0x2AD2, "54 08 00 00 00 00 00 00 00 00 00 31 00")).suffix(2) == [
                p("power_w", 0), p("elapsed_time_s", 49),
            ])
        #expect(decoded(0x2AD3, "00 01").fields["training_status_name"] == .string("idle"))
        #expect(decoded(0x2AD3, "00 0A").fields["training_status_name"] == .string("speed_outside_control_region_high"))
        #expect(
            pairs(decoded(0x2ADA, "02 01")) == [
                p("op_code", 2), p("op_name", "stopped_or_paused_by_user"), p("control_information", 1),
            ])
        #expect(pairs(decoded(0x2ADA, "04")) == [p("op_code", 4), p("op_name", "started_or_resumed_by_user")])
        #expect(decoded(0x2ADA, "12 00 00 FF FF 28 33").fields["grade_pct"] == .double(-0.01))
        #expect(decoded(0x2AD9, "80 00 01").fields["request_op_name"] == .string("request_control"))
    }

    /// Viking Pro V rower (First Degree Fitness), zpukr/ArduRower issue #1, nRF Connect log of
    /// 0x2AD1. Three notifications at 19:41:31.627, one record split in three parts:
    /// "05-0A-62-00-00-00-31-00" (More Data; distance 98 m, HR 0, elapsed 49 s),
    /// "F8-00-26-0B-00-C7-00-00-00-2C-00-1B-00-02-00" (stroke rate 19.0, 11 strokes, pace 199 s,
    /// avg pace 0, power 44 W, avg power 27 W, resistance 2 — 15 octets: sint16 resistance) and
    /// "01-01-04-00-C5-01-07" (More Data; energy 4 kcal, 453 kcal/h, 7 kcal/min).
    static let vikingParts = [
        "05 0A 62 00 00 00 31 00",
        "F8 00 26 0B 00 C7 00 00 00 2C 00 1B 00 02 00",
        "01 01 04 00 C5 01 07",
    ]

    @Test("Viking Pro V rower data (ArduRower #1)")
    func vikingRower() {
        #expect(
            pairs(decoded(0x2AD1, "05 0A 5A 00 00 00 2E 00")) == [
                p("flags", 0x0A05), p("more_data", true), p("total_distance_m", 90), p("heart_rate_bpm", 0),
                p("elapsed_time_s", 46),
            ])
        #expect(
            pairs(decoded(0x2AD1, Self.vikingParts[1])) == [
                p("flags", 0xF8), p("more_data", false), p("stroke_rate_spm", 19.0), p("stroke_count", 11),
                p("pace_s_per_500m", 199),
                p("average_pace_s_per_500m", 0), p("power_w", 44), p("average_power_w", 27), p("resistance_level", 2),
            ])
        #expect(
            pairs(decoded(0x2AD1, Self.vikingParts[2])) == [
                p("flags", 0x0101), p("more_data", true), p("total_energy_kcal", 4), p("energy_per_hour_kcal", 453),
                p("energy_per_minute_kcal", 7),
            ])
    }

    /// The three Viking parts are one record: the assembler puts them in the same second
    /// even when they straddle a second boundary.
    @Test("Viking record parts merge into one second")
    func vikingMerge() throws {
        var w = BlobWriter(machine: .rower, startMillis: 0)
        w.append(timeMillis: 998, uuid: 0x2AD1, kind: .notification, payload: hex(Self.vikingParts[0]))
        w.append(timeMillis: 999, uuid: 0x2AD1, kind: .notification, payload: hex(Self.vikingParts[1]))
        w.append(timeMillis: 1001, uuid: 0x2AD1, kind: .notification, payload: hex(Self.vikingParts[2]))
        let series = try SessionAssembler.assemble(BlobReader.read(w.bytes))
        #expect(series.seconds == 2)
        #expect(same(series.strokeRateSpm, [19, 19]))
        #expect(same(series.powerW, [44, 44]))
        #expect(same(series.paceSPer500m, [199, 199]))
        #expect(same(series.energyKcal, [0, 0])) // first reading is the baseline, in second 0 with the rest
        #expect(
            series.machineTotals
                == MachineTotals(
                    totalDistanceM: 98, totalEnergyKcal: 4, elapsedS: 49, strokeCount: 11,
                    averagePowerW: 27))
        #expect(series.derivedTotals.secondsWithData == 1)
    }

    /// Horizon treadmill, cagnulein/qdomyos-zwift issue #175: "0x84-04-00-00-00-00-00-00-00-00-00-00-00-00"
    /// — flags 0x0484 (speed, distance, energy, elapsed) = exactly 14 octets.
    @Test("Horizon treadmill idle data (qdomyos-zwift #175)")
    func horizonTreadmill() {
        #expect(
            pairs(decoded(0x2ACD, "84 04 00 00 00 00 00 00 00 00 00 00 00 00")) == [
                p("flags", 0x0484), p("more_data", false), p("speed_kmh", 0.0), p("total_distance_m", 0),
                p("total_energy_kcal", 0),
                p("energy_per_hour_kcal", 0), p("energy_per_minute_kcal", 0), p("elapsed_time_s", 0),
            ])
    }
}
