import FTMSDecode
import TestKit
import Testing

@testable import SessionAssembly

let nan = Double.nan

@Suite("Session assembler (issue 3, session time series)")
struct SessionAssemblerTests {
    /// A bike session with a strap, a short hole (held) and a long hole (NaN).
    static func bikeBlob() -> BlobWriter {
        var w = BlobWriter(machine: .indoorBike, startMillis: 1_766_570_400_000)
        func bike(_ t: UInt32, speed: Double, power: Int, distance: Int, energy: Int) {
            let v = IndoorBikeData {
                $0.speedKmh = speed
                $0.cadenceRpm = 90
                $0.totalDistanceM = distance
                $0.powerW = power
                $0.energy = ExpendedEnergy(totalKcal: energy, perHourKcal: 500, perMinuteKcal: 8)
            }
            w.append(timeMillis: t, uuid: 0x2AD2, kind: .notification, payload: v.encode())
        }
        w.append(
            timeMillis: 200, uuid: 0x2A37, kind: .notification,
            payload: HeartRateMeasurement(heartRateBpm: 120).encode())
        bike(500, speed: 25, power: 200, distance: 100, energy: 10)
        w.append(
            timeMillis: 1200, uuid: 0x2A37, kind: .notification,
            payload: HeartRateMeasurement(heartRateBpm: 121).encode())
        bike(1500, speed: 26, power: 210, distance: 107, energy: 11)
        bike(2400, speed: 27, power: 220, distance: 114, energy: 11)
        bike(2900, speed: 28, power: 230, distance: 121, energy: 12) // same second: last wins, increments add
        bike(4100, speed: 29, power: 240, distance: 135, energy: 12) // second 3 empty: held
        bike(9500, speed: 30, power: 250, distance: 167, energy: 14) // seconds 5–8 empty (4 > 3): NaN
        return w
    }

    @Test("instantaneous channels: last sample per second, short holes held, long holes NaN")
    func bikeSeries() throws {
        let series = try SessionAssembler.assemble(BlobReader.read(Self.bikeBlob().bytes))
        #expect(series.machine == .indoorBike)
        #expect(series.startMillis == 1_766_570_400_000)
        #expect(series.seconds == 10)
        #expect(series.recordCount == 8)
        #expect(same(series.powerW, [200, 210, 230, 230, 240, nan, nan, nan, nan, 250]))
        #expect(same(series.speedKmh, [25, 26, 28, 28, 29, nan, nan, nan, nan, 30]))
        #expect(same(series.cadenceRpm, [90, 90, 90, 90, 90, nan, nan, nan, nan, 90]))
        // Strap preferred; its last sample is in second 1 and 8 empty seconds follow: NaN.
        #expect(same(series.heartRateBpm, [120, 121, nan, nan, nan, nan, nan, nan, nan, nan]))
        // Increments: baseline 100 m at second 0; 7; 7+7; held 0; 14; NaN gap; 32.
        #expect(same(series.distanceM, [0, 7, 14, 0, 14, nan, nan, nan, nan, 32]))
        #expect(same(series.energyKcal, [0, 1, 1, 0, 0, nan, nan, nan, nan, 2]))
        #expect(series.derivedTotals.distanceM == 67)
        #expect(series.derivedTotals.energyKcal == 4)
        #expect(series.machineTotals.totalDistanceM == 167)
        #expect(series.machineTotals.totalEnergyKcal == 14)
        #expect(series.strokes.isEmpty && series.strokeRateSpm.isEmpty && series.paceSPer500m.isEmpty)
        #expect(series.paused == [Bool](repeating: false, count: 10))
        #expect(series.decodeErrors == 0 && series.end == .complete)
    }

    @Test("whole blob, zero-copy bytes and record-by-record give the same series")
    func wholeVersusIncremental() throws {
        let bytes = Self.bikeBlob().bytes
        let blob = try BlobReader.read(bytes)
        let whole = SessionAssembler.assemble(blob)
        #expect(try SessionAssembler.assemble(bytes: bytes) == whole)
        var accumulator = SessionAccumulator(header: blob.header)
        for record in blob.records { accumulator.add(record) }
        #expect(accumulator.finish(end: .complete) == whole)
    }
}
