/// Building blocks of the session assembler: a 1 Hz channel of instantaneous samples and a
/// 1 Hz channel of increments of a cumulative counter.

/// An instantaneous channel: the last sample of each second; seconds without a sample hold
/// the previous one when the run of empty seconds is at most `maxGap` long, else NaN.
struct InstantChannel: Sendable {
    var values: [Double] = []
    /// Second of the last sample, -1 before the first.
    var lastSecond = -1
    var lastValue = Double.nan

    var appeared: Bool { lastSecond >= 0 }

    mutating func add(second: Int, _ value: Double, maxGap: Int) {
        if second <= lastSecond {
            // Same second (or, defensively, an earlier one from a merged record): last wins.
            values[lastSecond] = value
        } else {
            let missing = second - values.count
            if missing > 0 {
                let fill = (lastSecond >= 0 && missing <= maxGap) ? lastValue : Double.nan
                values.append(contentsOf: repeatElement(fill, count: missing))
            }
            values.append(value)
            lastSecond = second
        }
        lastValue = value
    }

    func finished(seconds: Int, maxGap: Int) -> [Double] {
        guard appeared else { return [] }
        var out = values
        let missing = seconds - out.count
        if missing > 0 {
            out.append(contentsOf: repeatElement(missing <= maxGap ? lastValue : Double.nan, count: missing))
        } else if missing < 0 {
            out.removeLast(-missing)
        }
        return out
    }
}

/// A cumulative counter (total distance, total energy, stroke count, wheel or crank
/// revolutions) turned into per-second increments.
///
/// Each reading adds `(new - previous) mod 2^bits` to its second when that is plausible for
/// the time elapsed (`maxPerSecond` × seconds + `slack`): a smaller new value within that
/// bound is a **rollover**; one beyond it is a **reset** (the machine restarted counting, so
/// the new value itself is the increment, when plausible); an implausible jump forward
/// re-bases without counting. The first reading is the baseline (increment 0), so a
/// machine that was already at 120 m when recording started contributes only what happened
/// during the recording. Seconds between readings are 0 when the run of empty seconds is at
/// most `maxGap` long (the next reading carries the distance), else NaN.
struct CounterChannel: Sendable {
    let modulus: UInt64
    let maxPerSecond: Double
    let slack: Double

    var increments: [Double] = []
    var lastSecond = -1
    var previous: UInt64?
    var previousMillis: UInt32 = 0
    var total: Double = 0
    var resets = 0
    var rollovers = 0

    init(bits: Int, maxPerSecond: Double, slack: Double) {
        modulus = 1 << UInt64(bits)
        self.maxPerSecond = maxPerSecond
        self.slack = slack
    }

    var appeared: Bool { lastSecond >= 0 }

    mutating func add(raw: UInt64, timeMillis: UInt32, second: Int, maxGap: Int) {
        var delta = 0.0
        if let previous {
            let elapsed = timeMillis >= previousMillis ? Double(timeMillis - previousMillis) / 1000 : 0
            let limit = maxPerSecond * max(elapsed, 1) + slack
            if raw >= previous {
                let forward = Double(raw - previous)
                if forward <= limit { delta = forward } else { resets += 1 }
            } else {
                let wrapped = Double(raw &+ modulus &- previous)
                if wrapped <= limit {
                    delta = wrapped
                    rollovers += 1
                } else {
                    resets += 1
                    delta = Double(raw) <= limit ? Double(raw) : 0
                }
            }
        }
        previous = raw
        previousMillis = timeMillis
        total += delta
        if second <= lastSecond {
            increments[lastSecond] += delta
        } else {
            let missing = second - increments.count
            if missing > 0 {
                let fill = (lastSecond >= 0 && missing <= maxGap) ? 0.0 : Double.nan
                increments.append(contentsOf: repeatElement(fill, count: missing))
            }
            increments.append(delta)
            lastSecond = second
        }
    }

    func finished(seconds: Int, maxGap: Int) -> [Double] {
        guard appeared else { return [] }
        var out = increments
        let missing = seconds - out.count
        if missing > 0 {
            out.append(contentsOf: repeatElement(missing <= maxGap ? 0.0 : Double.nan, count: missing))
        } else if missing < 0 {
            out.removeLast(-missing)
        }
        return out
    }
}

/// Cadence from cumulative crank revolutions and the last crank event time (uint16 each,
/// event time in 1/1024 s; both roll over): rpm = Δrevolutions × 60 × 1024 / Δticks.
struct CrankCadence: Sendable {
    var previousRevolutions: UInt16?
    var previousTicks: UInt16 = 0
    /// Record time at which the event time last changed.
    var lastEventMillis: UInt32 = 0

    /// Coasting: no new crank event for this long means 0 rpm.
    static let coastMillis: UInt32 = 3000

    /// The cadence for this reading, or nil when there is nothing new to say.
    mutating func add(revolutions: UInt16, ticks: UInt16, timeMillis: UInt32) -> Double? {
        defer { previousRevolutions = revolutions }
        guard let previous = previousRevolutions else {
            previousTicks = ticks
            lastEventMillis = timeMillis
            return nil
        }
        let revs = revolutions &- previous
        let dt = ticks &- previousTicks
        if dt == 0 {
            if revs == 0, timeMillis >= lastEventMillis, timeMillis - lastEventMillis >= Self.coastMillis { return 0 }
            return nil
        }
        previousTicks = ticks
        lastEventMillis = timeMillis
        let rpm = Double(revs) * 61440 / Double(dt)
        return rpm <= 300 ? rpm : nil
    }
}

/// "Data not available" values of the fields the series use (all ones for unsigned
/// fields, 0x7FFF for signed ones), in the units the typed decoders return.
enum NotAvailable {
    static let u8: Int = 0xFF
    static let u16: Int = 0xFFFF
    static let u24: Int = 0xFF_FFFF
    static let s16: Int = 0x7FFF
    static let speedKmh = Double(UInt16.max) / 100
    static let cadenceRpm = Double(UInt16.max) / 2
    static let strokeRateSpm = Double(UInt8.max) / 2
    static let paceKmPerMin = Double(UInt8.max) / 10
    static let signedTenths = Double(Int16.max) / 10
}
