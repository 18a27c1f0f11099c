import FTMSDecode
import TestKit
import Testing

@testable import SessionAssembly

@Suite("Session assembler details: pauses, counters, merging, sources, limits")
struct SessionAssemblerDetailTests {
    static func series(_ w: BlobWriter, _ configuration: SessionAssembler.Configuration = .default) throws
        -> SessionSeries
    {
        let blob = try BlobReader.read(w.bytes)
        let series = SessionAssembler.assemble(blob, configuration: configuration)
        // Whole, zero-copy and record-by-record always agree.
        #expect(try SessionAssembler.assemble(bytes: w.bytes, configuration: configuration) == series)
        var accumulator = SessionAccumulator(header: blob.header, configuration: configuration)
        for record in blob.records { accumulator.add(record) }
        #expect(accumulator.finish(end: blob.end) == series)
        return series
    }

    @Test("pauses from Fitness Machine Status and Training Status")
    func pauses() throws {
        var w = BlobWriter(machine: .indoorBike, startMillis: 0)
        let bike = IndoorBikeData { $0.powerW = 100 }.encode()
        w.append(timeMillis: 500, uuid: 0x2AD2, kind: .notification, payload: bike)
        // reserved control information: no change
        w.append(timeMillis: 600, uuid: 0x2ADA, kind: .notification, payload: hex("02 03"))
        w.append(timeMillis: 1500, uuid: 0x2AD2, kind: .notification, payload: bike)
        w.append(
            timeMillis: 2500, uuid: 0x2ADA, kind: .notification,
            payload: FitnessMachineStatus.stoppedOrPausedByUser(controlInformation: 2).encode())
        w.append(
            timeMillis: 5200, uuid: 0x2ADA, kind: .notification,
            payload: FitnessMachineStatus.startedOrResumedByUser.encode())
        // idle
        w.append(timeMillis: 7000, uuid: 0x2AD3, kind: .notification, payload: TrainingStatus(status: 0x01).encode())
        // other: no change
        w.append(timeMillis: 7500, uuid: 0x2AD3, kind: .notification, payload: TrainingStatus(status: 0x00).encode())
        // quick start
        w.append(timeMillis: 8100, uuid: 0x2AD3, kind: .notification, payload: TrainingStatus(status: 0x0D).encode())
        w.append(timeMillis: 9000, uuid: 0x2AD2, kind: .notification, payload: bike)
        w.append(
            timeMillis: 9500, uuid: 0x2ADA, kind: .notification,
            payload: FitnessMachineStatus.stoppedBySafetyKey.encode())
        let s = try Self.series(w)
        #expect(s.seconds == 10)
        #expect(s.paused == [false, false, true, true, true, false, false, true, false, true])
        #expect(s.derivedTotals.pausedSeconds == 5)
        // Paused or not, samples stay as the machine sent them; 7 seconds without one: NaN.
        #expect(same(s.powerW, [100, 100, nan, nan, nan, nan, nan, nan, nan, 100]))
    }

    @Test("pause events out of time order (fed to the accumulator) apply in the order they were added")
    func pausesOutOfOrder() throws {
        // The blob reader ends a blob at a record whose time goes back (raw-ble-blob.md: times do not decrease), but
        // `SessionAccumulator` takes records from any caller: events apply in the order added, so the pause at 4 s,
        // added after the resume at 6 s, holds from second 6 on.
        var accumulator = SessionAccumulator(
            header: BlobHeader(machineRaw: MachineType.indoorBike.rawValue, startMillis: 0))
        let bike = IndoorBikeData { $0.powerW = 100 }.encode()
        let pause = FitnessMachineStatus.stoppedOrPausedByUser(controlInformation: 2).encode()
        let resume = FitnessMachineStatus.startedOrResumedByUser.encode()
        let records: [(UInt32, UInt16, [UInt8])] = [
            (500, 0x2AD2, bike), (2000, 0x2ADA, pause), (6000, 0x2ADA, resume), (4000, 0x2ADA, pause),
            (9000, 0x2AD2, bike),
            // Both in the last second (the one at 7 s added after the one at 9 s): the later one wins.
            (9000, 0x2ADA, resume), (7000, 0x2ADA, pause),
        ]
        for (t, uuid, payload) in records {
            payload.withUnsafeBytes { accumulator.add(timeMillis: t, uuid: uuid, kindRaw: 1, payload: $0) }
        }
        let s = accumulator.finish(end: .complete)
        #expect(s.seconds == 10)
        #expect(s.paused == [false, false, true, true, true, true, true, true, true, true])
        #expect(s.derivedTotals.pausedSeconds == 8)
    }

    @Test("counters: 24-bit and 16-bit rollover, resets, not-available values skipped")
    func counters() throws {
        var w = BlobWriter(machine: .treadmill, startMillis: 0)
        let na = ExpendedEnergy(totalKcal: 0xFFFF, perHourKcal: 0xFFFF, perMinuteKcal: 0xFF)
        let rows: [(Int, ExpendedEnergy, Double, Double)] = [
            (16_777_200, ExpendedEnergy(totalKcal: 65530, perHourKcal: 600, perMinuteKcal: 10), 12, 1.5),
            (16_777_210, ExpendedEnergy(totalKcal: 65534, perHourKcal: 600, perMinuteKcal: 10), 12, 1.5),
            (4, ExpendedEnergy(totalKcal: 1, perHourKcal: 600, perMinuteKcal: 10), 12, 1.5), // both roll over
            (0xFF_FFFF, na, 655.35, 3276.7), // "data not available" everywhere
            (20, ExpendedEnergy(totalKcal: 3, perHourKcal: 600, perMinuteKcal: 10), 12, 1.5),
            (5, ExpendedEnergy(totalKcal: 0, perHourKcal: 600, perMinuteKcal: 10), 0, 1.5), // machine reset; standing
            (15, ExpendedEnergy(totalKcal: 1, perHourKcal: 600, perMinuteKcal: 10), 12, 1.5),
        ]
        for (i, row) in rows.enumerated() {
            let v = TreadmillData {
                $0.speedKmh = row.2
                $0.totalDistanceM = row.0
                $0.inclinationPct = row.3
                $0.rampAngleDeg = 0
                $0.energy = row.1
            }
            w.append(timeMillis: UInt32(500 + 1000 * i), uuid: 0x2ACD, kind: .notification, payload: v.encode())
        }
        let s = try Self.series(w)
        #expect(s.seconds == 7)
        // 16777200 → 16777210: +10; → 4: +10 (wrap at 2^24); n/a skipped (held 0); → 20: +16;
        // → 5: reset, +5; → 15: +10.
        #expect(same(s.distanceM, [0, 10, 10, 0, 16, 5, 10]))
        // 65530 → 65534: +4; → 1: +3 (wrap at 2^16); n/a; → 3: +2; → 0: reset, +0; → 1: +1.
        #expect(same(s.energyKcal, [0, 4, 3, 0, 2, 0, 1]))
        #expect(s.derivedTotals.distanceM == 51)
        #expect(s.derivedTotals.energyKcal == 10)
        #expect(s.derivedTotals.counterRollovers == 2)
        #expect(s.derivedTotals.counterResets == 2)
        #expect(s.machineTotals.totalDistanceM == 15 && s.machineTotals.totalEnergyKcal == 1)
        // Not-available speed and inclination are missing values; pace = 3600 / 12 km/h = 300 s/km,
        // missing at standstill.
        #expect(same(s.speedKmh, [12, 12, 12, nan, 12, 0, 12]))
        #expect(same(s.paceSPerKm, [300, 300, 300, nan, 300, nan, 300]))
        #expect(same(s.inclinationPct, [1.5, 1.5, 1.5, nan, 1.5, 1.5, 1.5]))
    }

    @Test("multi-notification records: More Data and time proximity merge disjoint parts")
    func merging() throws {
        var w = BlobWriter(machine: .indoorBike, startMillis: 0)
        func bike(_ t: UInt32, _ v: IndoorBikeData) {
            w.append(timeMillis: t, uuid: 0x2AD2, kind: .notification, payload: v.encode())
        }
        bike(990, IndoorBikeData { $0.powerW = 200 }) // More Data = 1
        bike(1010, IndoorBikeData { $0.speedKmh = 30 }) // closes the record: second 0, not 1
        bike(1990, IndoorBikeData { $0.powerW = 210 }) // power again: a new record
        bike(2040, IndoorBikeData { $0.speedKmh = 31 })
        bike(
            2990,
            IndoorBikeData {
                $0.speedKmh = 32; $0.powerW = 220
            }) // complete record (More Data = 0)
        bike(3050, IndoorBikeData { $0.cadenceRpm = 80 }) // 60 ms later, disjoint: same record (proximity)
        bike(3995, IndoorBikeData { $0.cadenceRpm = 81 }) // cadence again: new record at 3995
        bike(4100, IndoorBikeData { $0.speedKmh = 33 }) // More Data before it: joins the 3995 record (second 3)
        bike(
            5200,
            IndoorBikeData {
                $0.speedKmh = 34; $0.powerW = 230
            }) // 1205 ms after 3995: new record
        let s = try Self.series(w)
        #expect(s.seconds == 6)
        #expect(same(s.powerW, [200, 210, 220, 220, 220, 230]))
        #expect(same(s.speedKmh, [30, 31, 32, 33, 33, 34]))
        #expect(same(s.cadenceRpm, [nan, nan, 80, 81, 81, 81]))
        #expect(s.derivedTotals.secondsWithData == 5) // seconds 0, 1, 2, 3, 5

        // Without merging windows, the 1010 ms part lands in second 1 and the 4100 ms one in 4.
        let unmerged = try Self.series(
            w, SessionAssembler.Configuration(proximityMergeMillis: 0, moreDataMergeMillis: 0))
        #expect(same(unmerged.speedKmh, [nan, 30, 32, 32, 33, 34]))
    }

    @Test("a part arriving after the proximity window starts a new record")
    func proximityWindow() throws {
        var w = BlobWriter(machine: .indoorBike, startMillis: 0)
        w.append(
            timeMillis: 950, uuid: 0x2AD2, kind: .notification,
            payload: IndoorBikeData { $0.speedKmh = 20 }.encode())
        // 101 ms > 100
        w.append(
            timeMillis: 1051, uuid: 0x2AD2, kind: .notification,
            payload: IndoorBikeData { $0.powerW = 99 }.encode())
        let s = try Self.series(w)
        #expect(same(s.powerW, [nan, 99]))
        #expect(same(s.speedKmh, [20, 20]))
    }

    @Test("sources: sensor per second over machine; machine HR as fallback; not-available values missing")
    func sources() throws {
        var w = BlobWriter(machine: .indoorBike, startMillis: 0)
        w.append(
            timeMillis: 100, uuid: 0x2AD2, kind: .notification,
            payload: IndoorBikeData {
                $0.speedKmh = 655.35
                $0.cadenceRpm = 90
                $0.powerW = 0x7FFF
                $0.heartRateBpm = 0
            }.encode())
        w.append(
            timeMillis: 1100, uuid: 0x2AD2, kind: .notification,
            payload: IndoorBikeData {
                $0.speedKmh = 20
                $0.cadenceRpm = 92
                $0.powerW = 150
                $0.heartRateBpm = 140
            }.encode())
        w.append(
            timeMillis: 2100, uuid: 0x2A63, kind: .notification,
            payload: CyclingPowerMeasurement { $0.powerW = 300 }.encode())
        w.append(
            timeMillis: 3100, uuid: 0x2A63, kind: .notification,
            payload: CyclingPowerMeasurement { $0.powerW = 310 }.encode())
        let s = try Self.series(w)
        #expect(same(s.powerW, [nan, 150, 300, 310]))
        #expect(same(s.speedKmh, [nan, 20, 20, 20]))
        #expect(same(s.heartRateBpm, [nan, 140, 140, 140]))
        #expect(same(s.cadenceRpm, [90, 92, 92, 92]))
    }

    @Test("strap heart rate: 0 bpm and contact not detected are missing")
    func strap() throws {
        var w = BlobWriter(machine: .rower, startMillis: 0)
        for (t, value) in [(0, "06 48"), (1000, "04 48"), (2000, "06 00"), (3000, "06 50")] {
            w.append(timeMillis: UInt32(t), uuid: 0x2A37, kind: .notification, payload: hex(value))
        }
        #expect(same(try Self.series(w).heartRateBpm, [72, nan, nan, 80]))
    }

    @Test("crank revolutions: cadence and increments across 16-bit rollovers, coasting to 0")
    func crankCadence() throws {
        var w = BlobWriter(machine: .indoorBike, startMillis: 0)
        // (time, revolutions, event ticks of 1/1024 s)
        for (t, revs, ticks) in [
            (0, 65534, 64000), (1000, 65535, 65024), (2000, 1, 536), (3000, 1, 536), (6000, 1, 536),
        ] {
            let v = CSCMeasurement {
                $0.cumulativeCrankRevolutions = UInt16(revs)
                $0.lastCrankEventTimeS = Double(ticks) / 1024
            }
            w.append(timeMillis: UInt32(t), uuid: 0x2A5B, kind: .notification, payload: v.encode())
        }
        let s = try Self.series(w)
        // 1 rev in 1024 ticks = 60 rpm; 2 revs (65535 → 1) in 1048 ticks (65024 → 536) =
        // 2 × 60 × 1024 / 1048; no new event for 4 s: 0 rpm.
        let fast: Double = 2.0 * 61440 / 1048
        let expected: [Double] = [nan, 60, fast, fast, fast, fast, 0]
        #expect(same(s.cadenceRpm, expected))
        #expect(same(s.crankRevolutions, [0, 1, 2, 0, 0, 0, 0]))
        #expect(s.derivedTotals.crankRevolutions == 3)
        #expect(s.derivedTotals.counterRollovers == 1)
        #expect(s.wheelRevolutions.isEmpty)
    }

    @Test("rower strokes and pace; 0 and 0xFFFF pace are missing")
    func rower() throws {
        var w = BlobWriter(machine: .rower, startMillis: 0)
        for (i, (count, pace)) in [(10, 120), (12, 0xFFFF), (14, 0), (65535, 118), (2, 117)].enumerated() {
            let v = RowerData {
                $0.strokeRateSpm = 24
                $0.strokeCount = count
                $0.paceSPer500m = pace
            }
            w.append(timeMillis: UInt32(1000 * i), uuid: 0x2AD1, kind: .notification, payload: v.encode())
        }
        let s = try Self.series(w)
        // 14 → 65535 is not plausible in 1 s (limit 3/s + 10): a reset counting 0 (65535 itself
        // is implausible); 65535 → 2 is a rollover of 3.
        #expect(same(s.strokes, [0, 2, 2, 0, 3]))
        #expect(same(s.paceSPer500m, [120, nan, nan, 118, 117]))
        #expect(same(s.strokeRateSpm, [24, 24, 24, 24, 24]))
        #expect(s.machineTotals.strokeCount == 2)
        #expect(s.derivedTotals.strokes == 7)
    }

    @Test("records past the grid limit are counted, not used")
    func gridLimit() throws {
        var w = BlobWriter(machine: .indoorBike, startMillis: 0)
        w.append(
            timeMillis: 5000, uuid: 0x2AD2, kind: .notification,
            payload: IndoorBikeData { $0.powerW = 1 }.encode())
        w.append(
            timeMillis: 10_000, uuid: 0x2AD2, kind: .notification,
            payload: IndoorBikeData { $0.powerW = 2 }.encode())
        w.append(
            timeMillis: 4_000_000_000, uuid: 0x2AD2, kind: .notification,
            payload: IndoorBikeData { $0.powerW = 3 }.encode())
        let s = try Self.series(w, SessionAssembler.Configuration(maxSeconds: 10))
        #expect(s.seconds == 6)
        #expect(s.recordsPastLimit == 2)
        #expect(s.recordCount == 3)
        #expect(same(s.powerW, [nan, nan, nan, nan, nan, 1]))
        // The default limit is 24 h.
        let d = try Self.series(w)
        #expect(d.seconds == 11 && d.recordsPastLimit == 1)
    }

    @Test("decode errors and unknown UUIDs are counted and skipped; truncation reported")
    func errors() throws {
        var w = BlobWriter(machine: .indoorBike, startMillis: 0)
        w.append(timeMillis: 0, uuid: 0x2AD2, kind: .notification, payload: hex("44 00 C4 09 B4")) // short
        w.append(timeMillis: 10, uuid: 0x1234, kind: .notification, payload: hex("01"))
        w.append(timeMillis: 20, uuid: 0x2A37, kind: .notification, payload: hex("00 48"))
        w.append(timeMillis: 30, uuid: 0x2ADA, kind: .notification, payload: [])
        let bytes = w.bytes + hex("E8 03 00 00")
        let blob = try BlobReader.read(bytes)
        let s = SessionAssembler.assemble(blob)
        #expect(s.decodeErrors == 2)
        #expect(s.unknownRecords == 1)
        #expect(s.recordCount == 4)
        #expect(s.end == .truncated(offset: w.bytes.count))
        #expect(same(s.heartRateBpm, [72]))
        #expect(s.powerW.isEmpty)
    }

    @Test("an empty blob gives an empty grid")
    func empty() throws {
        let s = try Self.series(BlobWriter(machine: .stairClimber, startMillis: 9))
        #expect(s.seconds == 0 && s.paused.isEmpty && s.powerW.isEmpty && s.recordCount == 0)
        #expect(s.machine == .stairClimber && s.startMillis == 9)
    }

    @Test("climbers and cross trainer feed step rate, totals, resistance")
    func climbers() throws {
        var w = BlobWriter(machine: .crossTrainer, startMillis: 0)
        w.append(
            timeMillis: 0, uuid: 0x2ACE, kind: .notification,
            payload: CrossTrainerData {
                $0.speedKmh = 9
                $0.stepsPerMin = 120
                $0.averageStepRateStepsPerMin = 110
                $0.resistanceLevel = 8.5
                $0.powerW = 150
            }.encode())
        w.append(
            timeMillis: 1000, uuid: 0x2ACF, kind: .notification,
            payload: StepClimberData {
                $0.floors = 3
                $0.stepCount = 40
                $0.stepsPerMin = 70
            }.encode())
        w.append(
            timeMillis: 2000, uuid: 0x2AD0, kind: .notification,
            payload: StairClimberData {
                $0.floors = 4; $0.stepsPerMin = 65
            }.encode())
        let s = try Self.series(w)
        #expect(same(s.stepRateSpm, [120, 70, 65]))
        #expect(same(s.resistanceLevel, [8.5, 8.5, 8.5]))
        #expect(same(s.paceSPerKm, [400, 400, 400]))
        #expect(s.machineTotals.floors == 4 && s.machineTotals.stepCount == 40)
    }

    @Test("a recorded synthetic session reproduces its inputs second by second")
    func syntheticSession() throws {
        var w = BlobWriter(machine: .indoorBike, startMillis: 1_766_570_400_000)
        var rng = SplitMix64(seed: 7)
        var distance = 0.0
        var power: [Double] = []
        for second in 0..<600 {
            let watts = Double(Int.random(in: 100...300, using: &rng))
            power.append(watts)
            distance += 8.3
            let t = UInt32(second * 1000 + Int.random(in: 0...900, using: &rng))
            w.append(
                timeMillis: t, uuid: 0x2AD2, kind: .notification,
                payload: IndoorBikeData {
                    $0.speedKmh = 29.88
                    $0.cadenceRpm = 88
                    $0.totalDistanceM = Int(distance)
                    $0.powerW = Int(watts)
                }.encode())
        }
        let s = try Self.series(w)
        #expect(s.seconds == 600)
        #expect(same(s.powerW, power))
        #expect(s.derivedTotals.distanceM == Double(Int(distance) - 8))
        #expect(s.distanceM.reduce(0, +) == s.derivedTotals.distanceM)
    }

    @Test("a copy of an accumulator goes on apart from the original, in the same second and after a gap")
    func copiesAreIndependent() throws {
        // The channels' columns are shared by a copy until one of them writes: the original's writes must not reach
        // the copy, neither in the second they both hold (last sample wins) nor in the seconds a gap fills.
        let header = BlobHeader(machineRaw: MachineType.indoorBike.rawValue, startMillis: 0)
        func bike(_ t: UInt32, _ speed: Double, _ distance: Int) -> BlobRecord {
            BlobRecord(
                timeMillis: t, uuid: 0x2AD2, kindRaw: 0,
                payload: IndoorBikeData {
                    $0.speedKmh = speed; $0.totalDistanceM = distance
                }.encode())
        }
        var original = SessionAccumulator(header: header)
        original.add(bike(100, 20, 10))
        original.add(bike(1100, 21, 15))
        var copy = original
        original.add(bike(1600, 30, 18)) // same second 1
        original.add(bike(4100, 40, 30)) // seconds 2-3 held
        copy.add(bike(2100, 22, 20))
        let o = original.finish(end: .complete)
        let c = copy.finish(end: .complete)
        #expect(same(o.speedKmh, [20, 30, 30, 30, 40]))
        #expect(same(o.distanceM, [0, 8, 0, 0, 12]))
        #expect(same(c.speedKmh, [20, 21, 22]))
        #expect(same(c.distanceM, [0, 5, 5]))
    }
}
