/// Building blocks of the session assembler: a 1 Hz channel of instantaneous samples and a
/// 1 Hz channel of increments of a cumulative counter.

/// An instantaneous channel: the last sample of each second; seconds without a sample hold
/// the previous one when the run of empty seconds is at most `maxGap` long, else NaN.
///
/// The current second's sample is kept aside (`pending`) and written to the column only when a
/// later second starts, so of a 4 Hz device's samples three in four cost a compare and a store.
struct InstantChannel: Sendable {
    /// Seconds `0 ..< pendingSecond`.
    var values = SecondColumn()
    /// Second of the last sample, -1 before the first.
    var pendingSecond = -1
    var pending = Double.nan
    /// Capacity to reserve when the first sample arrives (the expected grid length).
    var reserve = 0

    var appeared: Bool { pendingSecond >= 0 }

    /// Expected grid length: reserved now if the channel has samples, else at its first.
    mutating func reserveGrid(_ seconds: Int) {
        reserve = seconds
        if appeared { values.reserveCapacity(seconds) }
    }

    @inline(__always)
    mutating func add(second: Int, _ value: Double, maxGap: Int) {
        // Same second (or, defensively, an earlier one from a merged record): last wins.
        if second > pendingSecond {
            // The next second of a running channel (most seconds) in line; the rest out of line.
            if second == pendingSecond &+ 1, pendingSecond >= 0 {
                values.append(pending)
                pendingSecond = second
            } else {
                advance(to: second, maxGap: maxGap)
            }
        }
        pending = value
    }

    /// Writes the pending second and the empty seconds before `second`.
    @inline(never)
    mutating func advance(to second: Int, maxGap: Int) {
        if pendingSecond < 0 {
            values.reserveCapacity(max(reserve, second + 1))
            values.append(repeating: .nan, count: second)
        } else {
            values.append(pending)
            let missing = second - pendingSecond - 1
            if missing > 0 {
                values.append(repeating: missing <= maxGap ? pending : .nan, count: missing)
            }
        }
        pendingSecond = second
    }

    /// The finished channel, `seconds` long (empty if no sample ever came); leaves the
    /// channel empty.
    mutating func take(seconds: Int, maxGap: Int) -> [Double] {
        guard appeared else { return [] }
        if seconds > pendingSecond {
            advance(to: seconds, maxGap: maxGap) // writes the pending second and the tail
        }
        return values.take(count: seconds)
    }
}

/// A channel's seconds: an array, with the latest seconds staged in the channel itself and moved to the array
/// 64 at a time (a second costs a store, not an array append's uniqueness and capacity checks).
struct SecondColumn: Sendable {
    static let stageSize = 64
    private var stored: [Double] = []
    private var staged = InlineArray<64, Double>(repeating: 0)
    private var stagedCount = 0

    @inline(__always)
    mutating func append(_ value: Double) {
        staged[stagedCount] = value
        stagedCount &+= 1
        if stagedCount == Self.stageSize { flush() }
    }

    mutating func append(repeating value: Double, count: Int) {
        flush()
        stored.append(contentsOf: repeatElement(value, count: count))
    }

    mutating func reserveCapacity(_ count: Int) { stored.reserveCapacity(count) }

    /// The first `count` seconds as an array (the column's own storage, no copy); leaves the column empty.
    mutating func take(count: Int) -> [Double] {
        flush()
        var out: [Double] = []
        swap(&out, &stored)
        if out.count > count { out.removeLast(out.count - count) }
        return out
    }

    @inline(never)
    private mutating func flush() {
        guard stagedCount > 0 else { return }
        let count = stagedCount
        staged.span.withUnsafeBufferPointer { stored.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<count])) }
        stagedCount = 0
    }
}

/// A cumulative counter (total distance, total energy, stroke count, wheel or crank
/// revolutions) turned into per-second increments.
///
/// Each reading adds `(new - previous) mod 2^bits` to its second when that is plausible for
/// the time elapsed (`maxPerSecond` × seconds, at least one second, + `slack`): a smaller new
/// value within that bound is a **rollover**; one beyond it is a **reset** (the machine
/// restarted counting, so the new value itself is the increment, when plausible); an
/// implausible jump forward re-bases without counting. The first reading is the baseline
/// (increment 0), so a machine that was already at 120 m when recording started contributes
/// only what happened during the recording. Seconds between readings are 0 when the run of
/// empty seconds is at most `maxGap` long (the next reading carries the distance), else NaN.
/// Integer arithmetic only on the per-reading path.
struct CounterChannel: Sendable {
    let modulus: UInt64
    let maxPerSecond: UInt64
    let slack: UInt64

    /// Seconds `0 ..< pendingSecond`.
    var increments = SecondColumn()
    var pendingSecond = -1
    var pendingIncrement: UInt64 = 0
    var hasPrevious = false
    var previous: UInt64 = 0
    var previousMillis: UInt32 = 0
    var total: UInt64 = 0
    var resets = 0
    var rollovers = 0
    var reserve = 0

    init(bits: Int, maxPerSecond: UInt64, slack: UInt64) {
        modulus = 1 << UInt64(bits)
        self.maxPerSecond = maxPerSecond
        self.slack = slack
    }

    var appeared: Bool { pendingSecond >= 0 }

    /// Expected grid length: reserved now if the channel has readings, else at its first.
    mutating func reserveGrid(_ seconds: Int) {
        reserve = seconds
        if appeared { increments.reserveCapacity(seconds) }
    }

    @inline(__always)
    mutating func add(raw: UInt64, timeMillis: UInt32, second: Int, maxGap: Int) {
        var delta: UInt64 = 0
        if hasPrevious {
            // limit = maxPerSecond × max(elapsed s, 1) + slack, compared in milli-units.
            let elapsed = UInt64(timeMillis >= previousMillis ? max(timeMillis - previousMillis, 1000) : 1000)
            // Wrapping operators: raw, elapsed < 2^32 and maxPerSecond, slack < 2^10, so nothing can overflow.
            // Selects rather than branches (noisy counters would mispredict them):
            //   forward step (raw >= previous): plausible → the step; else a reset, 0;
            //   backward step: plausible after wrapping → a rollover; else a reset, the new value if plausible, else 0.
            let limitMilli = maxPerSecond &* elapsed &+ slack &* 1000
            let forward = raw >= previous
            let step = forward ? raw &- previous : raw &+ modulus &- previous
            let plausible = step &* 1000 <= limitMilli
            let restart = forward ? 0 : (raw &* 1000 <= limitMilli ? raw : 0)
            delta = plausible ? step : restart
            resets &+= plausible ? 0 : 1
            rollovers &+= (plausible && !forward) ? 1 : 0
        }
        hasPrevious = true
        previous = raw
        previousMillis = timeMillis
        total &+= delta
        if second <= pendingSecond {
            pendingIncrement &+= delta
            return
        }
        // The next second of a running channel (most seconds) in line; the rest out of line.
        if second == pendingSecond &+ 1, pendingSecond >= 0 {
            increments.append(Double(pendingIncrement))
            pendingSecond = second
        } else {
            advance(to: second, maxGap: maxGap)
        }
        pendingIncrement = delta
    }

    @inline(never)
    mutating func advance(to second: Int, maxGap: Int) {
        if pendingSecond < 0 {
            increments.reserveCapacity(max(reserve, second + 1))
            increments.append(repeating: .nan, count: second)
        } else {
            increments.append(Double(pendingIncrement))
            let missing = second - pendingSecond - 1
            if missing > 0 {
                increments.append(repeating: missing <= maxGap ? 0 : .nan, count: missing)
            }
        }
        pendingSecond = second
    }

    mutating func take(seconds: Int, maxGap: Int) -> [Double] {
        guard appeared else { return [] }
        if seconds > pendingSecond { advance(to: seconds, maxGap: maxGap) }
        return increments.take(count: seconds)
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
