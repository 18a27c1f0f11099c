import Foundation

/// The two clocks every job and service reads, as one value: injected (tests, `pipeline nightly --as-of`) instead of
/// each reading `Date()` where it stands.
///
/// - `now`, the run time: the instant the work computes "today" from — each user's local day for stats, training load
///   and plans, the dates of the rows it writes, its job run's times. `--as-of` moves it to another day.
/// - `wall`, the wall time: real time, as the store stamps what it stores — the pending-recompute marks a run answers,
///   a nightly's watermark. It never follows `--as-of`: a mark written a second ago by the real clock must read as
///   written before the run started, whatever day the run computes for.
///
/// `.system` is both on the system clock; the only `Date()` a job reads is in here.
public struct PipelineClock: Sendable {
    /// Run time, epoch milliseconds.
    public var now: @Sendable () -> EpochMillis
    /// Wall time, epoch milliseconds.
    public var wall: @Sendable () -> EpochMillis

    /// A clock whose run time is `now` and whose wall time is `wall` (default: the system's).
    public init(
        now: @escaping @Sendable () -> EpochMillis,
        wall: @escaping @Sendable () -> EpochMillis = PipelineClock.systemMillis
    ) {
        self.now = now; self.wall = wall
    }

    /// The system clock's epoch milliseconds.
    public static let systemMillis: @Sendable () -> EpochMillis = { Date().epochMillis }

    /// Run time and wall time both on the system clock.
    public static let system = PipelineClock(now: systemMillis, wall: systemMillis)

    /// Run time that starts at `start` and runs at the system clock's rate (`pipeline nightly --as-of`); wall time the
    /// system's.
    public static func asOf(_ start: EpochMillis) -> PipelineClock {
        let offset = start - systemMillis()
        return PipelineClock(now: { systemMillis() + offset })
    }

    /// Run time and wall time both standing at `millis` (tests).
    public static func fixed(_ millis: EpochMillis) -> PipelineClock {
        PipelineClock(now: { millis }, wall: { millis })
    }

    /// The run time as a `Date`.
    public var date: Date { Date(epochMillis: now()) }
}
