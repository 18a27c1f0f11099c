import Foundation
import Ingest
import Store

/// How far the nightly run got: every session stored before `dataUpTo` (the run's start) has been analysed, and every
/// user whose data changed before it has had their stats recomputed (and, for a new runner or goal race, a plan
/// generated).
/// Recorded in `job_runs.watermark` of each successful run as an RFC 3339 instant (`2026-11-23T02:30:04.120Z`).
///
/// What "new since the watermark" means per phase — each is durable in the store, so nothing depends on the run
/// that wrote the watermark having finished cleanly:
/// - ingest: inbox files the ledger does not hold yet (a file already applied is recognised by its ledger key and
///   hash and changes nothing);
/// - analyse: sessions without metrics;
/// - stats and plans: users marked in `pending_recompute` (the mark is written in the same transaction as their
///   data and cleared only after their stats and plan are done, and only if not newer than the run's start).
///
/// Catch-up policy: a missed night needs nothing special — the next run takes everything new since the last
/// successful run's watermark in one pass, however many nights were missed. Without any earlier successful run
/// (the first run, or after `running`/`failed`/`interrupted` runs only) the run is a full pass: every user without
/// stats is recomputed and every runner's plan refreshed.
public struct NightlyWatermark: Sendable, Equatable {
    public var dataUpTo: EpochMillis

    public init(dataUpTo: EpochMillis) { self.dataUpTo = dataUpTo }

    public init?(_ text: String) {
        guard let ms = RFC3339.parseMillis(text) else { return nil }
        dataUpTo = ms
    }

    public var text: String { RFC3339.format(millis: dataUpTo) }

    /// Runs looked at when searching for the last successful one; beyond that the next run is a full pass.
    static let searchDepth = 100

    /// The watermark of the most recent successful nightly run, nil when there is none to continue from.
    public static func last(in store: any PipelineStore, job: String = NightlyJob.jobName) async throws
        -> NightlyWatermark?
    {
        for run in try await store.jobRuns(job, limit: searchDepth) where run.status == .succeeded {
            return run.watermark.flatMap(NightlyWatermark.init)
        }
        return nil
    }
}
