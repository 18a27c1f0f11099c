import FTMSDecode

/// Building blocks of the session assembler: a 1 Hz channel of instantaneous samples and a
/// 1 Hz channel of increments of a cumulative counter.

/// What both kinds of channel are: a column of seconds written up to `last`, grown to the grid.
protocol SecondChannel: Sendable {
    var column: SecondColumn { get set }
    /// Second of the last sample or reading (`SecondColumn.noSecond` before the first).
    var last: Int { get }
    /// Capacity to reserve when the first sample or reading arrives (the expected grid length).
    var reserve: Int { get set }
    /// What the seconds of a run of at most `maxGap` empty seconds after the first sample hold.
    var shortGapValue: Double { get }
}

extension SecondChannel {
    var appeared: Bool { last >= 0 }

    /// Room for a grid of `seconds` seconds: now if the channel has samples, else at its first.
    mutating func reserveGrid(_ seconds: Int) {
        reserve = max(reserve, seconds)
        if appeared { column.reserve(seconds, keeping: last + 1) }
    }

    /// A column of its own, if this channel shares it with a copy.
    mutating func makeUnique() { column.makeUnique(keeping: last + 1) }

    /// Makes room for `second` and writes the empty seconds before it: `shortGapValue` for a run of at most `maxGap`,
    /// else NaN (NaN too before the first sample).
    @inline(never)
    mutating func advance(to second: Int, maxGap: Int) {
        column.reserve(max(reserve, second + 1), keeping: max(0, last + 1))
        if last < 0 {
            column.fill(0..<second, with: .nan)
        } else {
            let missing = second - last - 1
            column.fill(last + 1..<second, with: missing <= maxGap ? shortGapValue : .nan)
        }
    }
}

/// An instantaneous channel: the last sample of each second; seconds without a sample hold
/// the previous one when the run of empty seconds is at most `maxGap` long, else NaN.
///
/// A sample is stored at its second in the channel's column; the seconds before it are written when it arrives (the
/// run of empty seconds since the previous sample, held or NaN), so the next second of a running channel costs a
/// compare and a store. The column has room for every second it is given: the accumulator grows every channel to
/// the grid before it hands out a second past it (`SessionAccumulator.dataSecond`).
struct InstantChannel: SecondChannel {
    var column = SecondColumn()
    /// Second of the last sample (`SecondColumn.noSecond` before the first). Seconds `0 ... last` of the column are
    /// written.
    var last = SecondColumn.noSecond
    /// Capacity to reserve when the first sample arrives (the expected grid length).
    var reserve = 0

    @inline(__always)
    mutating func add(second: Int, _ value: Double, maxGap: Int) {
        if second == last &+ 1 {
            // The next second of a running channel (most samples).
            column[second] = value
            last = second
        } else if second <= last {
            // Same second (or, defensively, an earlier one from a merged record): last wins.
            column[last] = value
        } else {
            advance(to: second, maxGap: maxGap)
            column[second] = value
            last = second
        }
    }

    /// A short gap holds the last sample.
    var shortGapValue: Double { column[last] }

    /// The finished channel, `seconds` long (empty if no sample ever came): the seconds after the last sample are
    /// held when they are at most `maxGap`, else NaN.
    func take(seconds: Int, maxGap: Int) -> [Double] {
        guard appeared else { return [] }
        return column.array(count: seconds, written: last + 1, tail: tail(seconds: seconds, maxGap: maxGap))
    }

    /// The value of the seconds after the last sample, in a grid of `seconds` seconds.
    private func tail(seconds: Int, maxGap: Int) -> Double { seconds - last - 1 <= maxGap ? column[last] : .nan }

    /// `take`, in place in one of the `lent` buffers if the channel was written there and it fits `seconds`
    /// (`SecondColumn.finish`): the buffer's index, whose array, `seconds` long, is the channel. Nil otherwise.
    func finishInPlace(_ lent: [UnsafeMutableBufferPointer<Double>], seconds: Int, maxGap: Int) -> Int? {
        guard appeared else { return nil }
        return column.finish(
            in: lent, written: last + 1, seconds: seconds, tail: tail(seconds: seconds, maxGap: maxGap))
    }

    /// `merge`, in the lent buffer of `preferred` when both channels finish in place (see `finishInPlace`): the
    /// buffer's index. Nil otherwise.
    static func mergeInPlace(
        _ preferred: InstantChannel, over fallback: InstantChannel, _ lent: [UnsafeMutableBufferPointer<Double>],
        seconds: Int, maxGap: Int
    ) -> Int? {
        guard preferred.appeared, fallback.appeared else {
            return (preferred.appeared ? preferred : fallback).finishInPlace(lent, seconds: seconds, maxGap: maxGap)
        }
        guard let k = preferred.finishInPlace(lent, seconds: seconds, maxGap: maxGap),
            fallback.finishInPlace(lent, seconds: seconds, maxGap: maxGap) != nil
        else { return nil }
        let (p, f) = (preferred.column, fallback.column)
        for i in 0..<seconds where p[i].isNaN { p[i] = f[i] }
        return k
    }

    /// A dedicated sensor's channel where it has a value, the machine's in the other seconds: `preferred.take` with
    /// its NaN seconds replaced by `fallback.take`'s, built in one pass from both columns.
    static func merge(_ preferred: InstantChannel, over fallback: InstantChannel, seconds: Int, maxGap: Int)
        -> [Double]
    {
        guard preferred.appeared else { return fallback.take(seconds: seconds, maxGap: maxGap) }
        guard fallback.appeared else { return preferred.take(seconds: seconds, maxGap: maxGap) }
        let (p, f) = (preferred.column, fallback.column)
        let (pWritten, fWritten) = (min(preferred.last + 1, seconds), min(fallback.last + 1, seconds))
        let pTail = preferred.tail(seconds: seconds, maxGap: maxGap)
        let fTail = fallback.tail(seconds: seconds, maxGap: maxGap)
        return [Double](unsafeUninitializedCapacity: seconds) { out, initialized in
            // Three runs: both columns; one column and the other's tail; both tails.
            let both = min(pWritten, fWritten)
            for i in 0..<both { out[i] = p[i].isNaN ? f[i] : p[i] }
            if pWritten > both {
                for i in both..<pWritten { out[i] = p[i].isNaN ? fTail : p[i] }
            } else {
                for i in both..<fWritten { out[i] = pTail.isNaN ? f[i] : pTail }
            }
            let tail = pTail.isNaN ? fTail : pTail
            for i in max(pWritten, fWritten)..<seconds { out[i] = tail }
            initialized = seconds
        }
    }
}

/// A channel's seconds, written in place: the second's index into a buffer owned by a `ColumnStorage`, whose address
/// and capacity the column keeps beside it, so that writing a second costs no reference counting, uniqueness or
/// bounds check (the accumulator keeps every column larger than any second it hands out: `gridCapacity`). Copies of
/// a column share the buffer until `makeUnique` (the accumulator calls it before a record from outside, to keep its
/// value semantics). `@unchecked Sendable`: a buffer is written only through a column that holds the only reference
/// to its storage.
struct SecondColumn: @unchecked Sendable {
    /// A channel's last second before its first sample: far enough below 0 that the second after it is negative too.
    static let noSecond = Int.min / 2

    private var storage: ColumnStorage?
    private var base: UnsafeMutablePointer<Double>?
    private(set) var capacity = 0

    /// Second `index`, which must be below `capacity`.
    @inline(__always)
    subscript(index: Int) -> Double {
        get { base.unsafelyUnwrapped[index] }
        nonmutating set { base.unsafelyUnwrapped[index] = newValue }
    }

    /// Writes go to `buffer` from now on, which the column does not own: the storage of an array that
    /// `SessionAssembler.assemble(bytes:)` is building, valid while its scan runs. Only for a new column.
    mutating func lend(_ buffer: UnsafeMutableBufferPointer<Double>) {
        precondition(base == nil, "a column is lent a buffer before its first second")
        base = buffer.baseAddress
        capacity = buffer.count
    }

    /// A channel finished where it was written, if that is one of the `lent` buffers (a lent column moves to storage of
    /// its own when it grows past it) and the buffer can be the array of a grid of `seconds` seconds: it has room for
    /// them, and not more than half as much again (+ 128), so that the array does not keep much more memory than it
    /// needs when a recording's first minute projected it far too long. The seconds from `written` on get `tail`, and
    /// the buffer's index is returned. Nil otherwise.
    func finish(in lent: [UnsafeMutableBufferPointer<Double>], written: Int, seconds: Int, tail: Double) -> Int? {
        guard let base, capacity >= seconds, capacity <= seconds + seconds / 2 + 128,
            let k = lent.firstIndex(where: { $0.baseAddress == base })
        else { return nil }
        fill(min(written, seconds)..<seconds, with: tail)
        return k
    }

    /// Room for `count` seconds, keeping the first `keeping`. Exactly `count`: the channels ask for the grid's capacity,
    /// which the accumulator grows geometrically up to `maxSeconds`, so a column grows a few times at most and never
    /// past the longest grid (a 24-hour column is at most 691 KB).
    mutating func reserve(_ count: Int, keeping: Int) {
        guard count > capacity else { return }
        replaceStorage(capacity: count, keeping: keeping)
    }

    /// A buffer of its own, if this column shares its buffer with a copy (keeping the first `keeping` seconds, if
    /// positive).
    mutating func makeUnique(keeping: Int) {
        if storage != nil, !isKnownUniquelyReferenced(&storage) { replaceStorage(capacity: capacity, keeping: keeping) }
    }

    private mutating func replaceStorage(capacity newCapacity: Int, keeping: Int) {
        let new = ColumnStorage(capacity: newCapacity)
        if let base, keeping > 0 { new.base.update(from: base, count: keeping) }
        storage = new
        base = new.base
        capacity = newCapacity
    }

    func fill(_ range: Range<Int>, with value: Double) {
        guard !range.isEmpty else { return }
        (base.unsafelyUnwrapped + range.lowerBound).update(repeating: value, count: range.count)
    }

    /// The first `min(written, count)` seconds, then `tail` up to `count`, as an array.
    func array(count: Int, written: Int, tail: Double) -> [Double] {
        let kept = min(written, count)
        return [Double](unsafeUninitializedCapacity: count) { out, initialized in
            guard let address = out.baseAddress else { return }
            if let base { address.initialize(from: base, count: kept) }
            (address + kept).initialize(repeating: tail, count: count - kept)
            initialized = count
        }
    }
}

/// The buffer of a `SecondColumn`, freed with it.
final class ColumnStorage: @unchecked Sendable {
    let base: UnsafeMutablePointer<Double>
    init(capacity: Int) { base = .allocate(capacity: capacity) }
    deinit { base.deallocate() }
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
struct CounterChannel: SecondChannel {
    let modulus: UInt64
    let maxPerSecond: UInt64
    let slack: UInt64

    /// The per-second increments: seconds `0 ... last` written (room for every second given, as in `InstantChannel`);
    /// the last second's increment also kept as an integer.
    var column = SecondColumn()
    var last = SecondColumn.noSecond
    var lastIncrement: UInt64 = 0
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

    @inline(__always)
    mutating func add(raw: UInt64, timeMillis: UInt32, second: Int, maxGap: Int) {
        // Most readings: a step forward of at most `slack`, plausible whatever the time elapsed (the limit is at least
        // `slack`), so no arithmetic on the time is needed. (A step back wraps to more than `slack`: one compare.)
        let delta =
            hasPrevious && raw &- previous <= slack ? raw &- previous : increment(raw: raw, timeMillis: timeMillis)
        hasPrevious = true
        previous = raw
        previousMillis = timeMillis
        total &+= delta
        // Increments are below 2^32 a reading, so a second's sum converts to `Double` exactly through `Int`.
        if second <= last {
            // Same second (or an earlier one from a merged record): the increments add up.
            lastIncrement &+= delta
            column[last] = Double(Int(truncatingIfNeeded: lastIncrement))
            return
        }
        if second != last &+ 1 { advance(to: second, maxGap: maxGap) }
        lastIncrement = delta
        column[second] = Double(Int(truncatingIfNeeded: delta))
        last = second
    }

    /// The increment of any reading (the first, a step back, a step forward beyond `slack`), counting rollovers and
    /// resets. Branch-free selects (noisy counters would mispredict branches).
    @inline(__always)
    mutating func increment(raw: UInt64, timeMillis: UInt32) -> UInt64 {
        guard hasPrevious else { return 0 }
        // limit = maxPerSecond × max(elapsed s, 1) + slack, compared in milli-units.
        let elapsed = UInt64(timeMillis >= previousMillis ? max(timeMillis - previousMillis, 1000) : 1000)
        // Wrapping operators: raw, elapsed < 2^32 and maxPerSecond, slack < 2^10, so nothing can overflow.
        //   forward step (raw >= previous): plausible → the step; else a reset, 0;
        //   backward step: plausible after wrapping → a rollover; else a reset, the new value if plausible, else 0.
        let limitMilli = maxPerSecond &* elapsed &+ slack &* 1000
        // In integers and masks, so that the compiler emits no branch (a noisy counter's direction is a coin toss).
        let back: UInt64 = raw < previous ? 1 : 0
        let step = (raw &- previous) & (modulus &- 1) // mod 2^bits: a step back wraps around (raw, previous < 2^bits)
        let plausible: UInt64 = step &* 1000 <= limitMilli ? 1 : 0
        let restartPlausible: UInt64 = raw &* 1000 <= limitMilli ? 1 : 0
        resets &+= Int(truncatingIfNeeded: 1 &- plausible)
        rollovers &+= Int(truncatingIfNeeded: plausible & back)
        let keep = 0 &- plausible // all ones when the step is plausible
        let restart = raw & (0 &- (back & restartPlausible)) // after a reset, the new value if plausible
        return (step & keep) | (restart & ~keep)
    }

    /// A short gap is seconds without increments (the next reading carries them).
    var shortGapValue: Double { 0 }

    /// The finished channel, `seconds` long (empty if no reading ever came): the seconds after the last reading are 0
    /// when they are at most `maxGap`, else NaN.
    func take(seconds: Int, maxGap: Int) -> [Double] {
        guard appeared else { return [] }
        return column.array(count: seconds, written: last + 1, tail: tail(seconds: seconds, maxGap: maxGap))
    }

    private func tail(seconds: Int, maxGap: Int) -> Double { seconds - last - 1 <= maxGap ? 0 : .nan }

    /// `take` in place, as `InstantChannel.finishInPlace`.
    func finishInPlace(_ lent: [UnsafeMutableBufferPointer<Double>], seconds: Int, maxGap: Int) -> Int? {
        guard appeared else { return nil }
        return column.finish(
            in: lent, written: last + 1, seconds: seconds, tail: tail(seconds: seconds, maxGap: maxGap))
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
