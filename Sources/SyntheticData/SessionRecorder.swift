import FTMSDecode
import Foundation

/// Records a simulated session the way the app does: every BLE value it reads, receives or writes, as a raw blob
/// (`docs/raw-ble-blob.md`).
public enum SessionRecorder {
    public struct Options: Sendable {
        public var heartRateStrap = true
        public var manufacturer = "SolidFocus"
        public var model = "SF-Bike-200"
        /// Whether the indoor bike sends its resistance level in each Indoor Bike Data record.
        public var resistance = true
        /// Whether the strap sends an RR interval in each Heart Rate Measurement.
        public var rrIntervals = true
        public init() {}
    }

    static func ascii(_ s: String) -> [UInt8] { Array(s.utf8) }

    public static func record(
        _ session: SimulatedSession, startMillis: Int64, options: Options, rng: inout SeededRandom
    ) -> [UInt8] {
        let machine: MachineType =
            switch session.sport {
            case .bike: .indoorBike
            case .rower: .rower
            case .treadmill: .treadmill
            }
        var w = BlobWriter(machine: machine, startMillis: startMillis)
        // Connection: Device Information and Fitness Machine Feature reads, then taking control and starting.
        w.append(timeMillis: 120, uuid: 0x2A29, kind: .readResponse, payload: ascii(options.manufacturer))
        w.append(timeMillis: 160, uuid: 0x2A24, kind: .readResponse, payload: ascii(options.model))
        w.append(timeMillis: 200, uuid: 0x2A26, kind: .readResponse, payload: ascii("2.4.1"))
        let features: UInt32 =
            switch session.sport {
            // cadence, distance, resistance, energy, elapsed, power
            case .bike: (1 << 1) | (1 << 2) | (1 << 7) | (1 << 9) | (1 << 12) | (1 << 14)
            // distance, pace, energy, elapsed, power
            case .rower: (1 << 2) | (1 << 5) | (1 << 9) | (1 << 12) | (1 << 14)
            case .treadmill: (1 << 2) | (1 << 3) | (1 << 9) | (1 << 12) // distance, inclination, energy, elapsed
            }
        let targets: UInt32 = session.sport == .treadmill ? 0b11 : 0b1100 // speed+incline / resistance+power
        w.append(timeMillis: 240, uuid: 0x2ACC, kind: .readResponse, payload: le32(features) + le32(targets))
        w.append(timeMillis: 300, uuid: 0x2AD9, kind: .write, payload: [0x00]) // Request Control
        w.append(timeMillis: 340, uuid: 0x2AD9, kind: .indication, payload: [0x80, 0x00, 0x01])
        w.append(timeMillis: 380, uuid: 0x2AD9, kind: .write, payload: [0x07]) // Start or Resume
        w.append(timeMillis: 420, uuid: 0x2AD9, kind: .indication, payload: [0x80, 0x07, 0x01])
        w.append(
            timeMillis: 460, uuid: 0x2ADA, kind: .notification,
            payload: FitnessMachineStatus.startedOrResumedByUser.encode())

        var wasPaused = false
        for s in 0..<session.seconds {
            let base = UInt32(s * 1000 + 500)
            if session.paused[s] != wasPaused {
                if session.paused[s] {
                    // Stop or Pause: pause
                    w.append(timeMillis: base, uuid: 0x2AD9, kind: .write, payload: [0x08, 0x02])
                    w.append(timeMillis: base + 30, uuid: 0x2AD9, kind: .indication, payload: [0x80, 0x08, 0x01])
                    w.append(
                        timeMillis: base + 40, uuid: 0x2ADA, kind: .notification,
                        payload: FitnessMachineStatus.stoppedOrPausedByUser(controlInformation: 2).encode())
                } else {
                    w.append(timeMillis: base, uuid: 0x2AD9, kind: .write, payload: [0x07])
                    w.append(timeMillis: base + 30, uuid: 0x2AD9, kind: .indication, payload: [0x80, 0x07, 0x01])
                    w.append(
                        timeMillis: base + 40, uuid: 0x2ADA, kind: .notification,
                        payload: FitnessMachineStatus.startedOrResumedByUser.encode())
                }
                wasPaused = session.paused[s]
            }
            let t = base + 100 + UInt32(rng.int(0, 80))
            let kcal = Int(session.energyKcal[s])
            let perHour = s > 0 ? Int(((session.energyKcal[s] - session.energyKcal[s - 1]) * 3600).rounded()) : 0
            let energy = ExpendedEnergy(
                totalKcal: kcal, perHourKcal: max(0, perHour), perMinuteKcal: max(0, min(255, perHour / 60)))
            if !session.paused[s] {
                let uuid: UInt16
                let payload: [UInt8]
                switch session.sport {
                case .bike:
                    uuid = IndoorBikeData.uuid
                    payload = IndoorBikeData {
                        $0.speedKmh = (session.speedKmh[s] * 100).rounded() / 100
                        $0.cadenceRpm = session.cadenceRpm[s]
                        $0.totalDistanceM = Int(session.distanceM[s])
                        if options.resistance { $0.resistanceLevel = 8 }
                        $0.powerW = Int(session.powerW[s])
                        $0.energy = energy
                        $0.elapsedTimeS = s
                    }.encode()
                case .rower:
                    let pace =
                        session.powerW[s] > 0 ? Int((500 * pow(2.80 / session.powerW[s], 1.0 / 3.0)).rounded()) : 0
                    uuid = RowerData.uuid
                    payload = RowerData {
                        $0.strokeRateSpm = session.strokeRateSpm[s]
                        $0.strokeCount = Int(session.strokes[s])
                        $0.totalDistanceM = Int(session.distanceM[s])
                        $0.paceSPer500m = pace
                        $0.powerW = Int(session.powerW[s])
                        $0.energy = energy
                        $0.elapsedTimeS = s
                    }.encode()
                case .treadmill:
                    uuid = TreadmillData.uuid
                    payload = TreadmillData {
                        $0.speedKmh = session.speedKmh[s]
                        $0.totalDistanceM = Int(session.distanceM[s])
                        $0.inclinationPct = session.inclinePct[s]
                        $0.rampAngleDeg = 0
                        $0.energy = energy
                        $0.elapsedTimeS = s
                    }.encode()
                }
                w.append(timeMillis: t, uuid: uuid, kind: .notification, payload: payload)
            }
            if options.heartRateStrap {
                let bpm = Int(session.heartRate[s])
                let rr = bpm > 0 && options.rrIntervals ? [60.0 / Double(bpm)] : []
                w.append(
                    timeMillis: base + 400, uuid: 0x2A37, kind: .notification,
                    payload: HeartRateMeasurement(heartRateBpm: bpm, sensorContact: .detected, rrIntervalsS: rr)
                        .encode())
            }
        }
        let end = UInt32(session.seconds * 1000 + 200)
        w.append(timeMillis: end, uuid: 0x2AD9, kind: .write, payload: [0x08, 0x01]) // Stop
        w.append(timeMillis: end + 30, uuid: 0x2AD9, kind: .indication, payload: [0x80, 0x08, 0x01])
        w.append(
            timeMillis: end + 40, uuid: 0x2ADA, kind: .notification,
            payload: FitnessMachineStatus.stoppedOrPausedByUser(controlInformation: 1).encode())
        return w.bytes
    }

    static func le32(_ v: UInt32) -> [UInt8] {
        [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)]
    }
}
