import Foundation
import Ingest
import Pipeline
import Store
import StoreSQLite
import SyntheticData
import Testing
import WorkoutMetrics

/// The nightly's one pass (issue 13): sessions measured while their upload bytes are in memory, metrics stored with
/// them; the inbox quick check; the training-load state kept on a series' last day only.
@Suite(.serialized) struct OnePassTests {
    static let config = Generator.Configuration(users: 4, days: 10, seed: 1313, endDate: "2026-03-28", faultRate: 0.2)

    /// The old order — store everything, then read each session back and analyse it — gives the same rows as one pass.
    @Test func measuringDuringIngestEqualsAnalysingAfterwards() async throws {
        let onePass = try PipelineHarness(Self.config)
        let summary = try await onePass.nightly()
        #expect(summary.ingest.addsUp)
        #expect(summary.ingest.sessionsMeasured == summary.ingest.sessions.stored)
        #expect(summary.sessionsAnalyzed == summary.ingest.sessions.stored)
        #expect(try await onePass.store.sessionsWithoutMetrics(limit: 1).isEmpty)

        let twoPass = try PipelineHarness(Self.config)
        let now = twoPass.now
        // Ingest without measuring (as the API path does), then the nightly with nothing left in the inbox to read.
        let report = try await InboxIngestor(store: twoPass.store, clock: PipelineClock(now: { now })).ingest(
            inbox: twoPass.root.appendingPathComponent("inbox"))
        #expect(report.sessionsMeasured == 0)
        #expect(try await twoPass.store.sessionsWithoutMetrics(limit: 100_000).count == report.sessions.stored)
        let after = try await NightlyJob(store: twoPass.store, now: { now }).run(inbox: nil)
        #expect(after.sessionsAnalyzed == report.sessions.stored)
        #expect(after.sessionFlags == summary.sessionFlags)
        #expect(try await twoPass.store.contentDigest() == onePass.store.contentDigest())
        #expect(summary.phases?.phases.keys.sorted() == ["analyse", "ingest", "load", "plans", "stats"])
    }

    /// A file applied before is skipped on its stamp without being read: garbage of the same size with the same
    /// modification time put in its place changes nothing; a file whose content changed (new time) is read again.
    @Test func theQuickCheckSkipsUnchangedFilesAndReadsChangedOnes() async throws {
        let h = try PipelineHarness(Self.config)
        _ = try await h.nightly()
        let digest = try await h.store.contentDigest()
        let sessions = h.root.appendingPathComponent("inbox/sessions")
        let fm = FileManager.default
        let user = try #require(try fm.contentsOfDirectory(atPath: sessions.path).sorted().first)
        let files = try fm.contentsOfDirectory(atPath: sessions.appendingPathComponent(user).path).filter {
            $0.hasSuffix(".json")
        }.sorted()
        let first = sessions.appendingPathComponent(user).appendingPathComponent(try #require(files.first))
        let size = try #require(try fm.attributesOfItem(atPath: first.path)[.size] as? NSNumber).intValue
        var info = stat()
        #expect(stat(first.path, &info) == 0)
        // Same size, same time, other bytes (a run that read it would quarantine it as malformed JSON).
        try Data(repeating: UInt8(ascii: "x"), count: size).write(to: first)
        var times = [info.st_atim, info.st_mtim]
        #expect(utimensat(AT_FDCWD, first.path, &times, 0) == 0)
        let skipped = try await h.nightly()
        #expect(skipped.ingest.batches.quarantined == 0)
        #expect(skipped.ingest.batches.duplicates == skipped.ingest.batches.received)
        #expect(try await h.store.contentDigest() == digest)
        // Touched: another time, so it is read, and its garbage is quarantined as a whole.
        var later = info.st_mtim
        later.tv_sec += 10
        times = [later, later]
        #expect(utimensat(AT_FDCWD, first.path, &times, 0) == 0)
        let reread = try await h.nightly()
        #expect(reread.ingest.batches.quarantined == 1)
        #expect(reread.ingest.batches.quarantinedByReason == [.rejected(.malformedJSON): 1])
    }

    /// Only a series' last stored day carries the recursion's state; a backfill before the end is recomputed from the
    /// loads (no state there to resume from) and ends equal to a series computed from scratch.
    @Test func onlyTheLastDayCarriesTheStateAndBackfillsStillEqualAFreshSeries() async throws {
        let h = try PipelineHarness(Self.config)
        _ = try await h.nightly()
        for user in try await h.store.userIDs() {
            let days = try await h.store.trainingLoad(user: user, from: nil, to: nil)
            guard let last = days.last else { continue }
            #expect(!last.stateJSON.isEmpty)
            #expect(days.dropLast().allSatisfy { $0.stateJSON.isEmpty })
        }
        // A session backfilled into the middle of a user's series: the series is rewritten from that day on.
        let user = try #require(try await h.store.userIDs().first)
        let before = try await h.store.trainingLoad(user: user, from: nil, to: nil)
        let middle = try #require(before.dropFirst(before.count / 2).first)
        var metrics = try #require(try await h.store.sessionMetrics(user: user).first)
        metrics.sessionID = SessionID(uuidString: "0b7e6a52-5b0e-4f5e-9a43-2d7f0c6f1a99")!
        metrics.localDate = middle.date
        metrics.tss = 77.25
        var session = try #require(try await h.store.sessionSummaries(user: user, offset: 0, limit: 1).first)
        session.sessionID = metrics.sessionID
        session.contentHash = String(repeating: "d", count: 64)
        var unit = IngestUnit(sessions: [
            SessionCandidate(
                session: session,
                conflictQuarantine: QuarantineRecord(
                    userID: user, source: "test", sourceKey: "t", recordID: nil, reasonCode: .rejected(.conflict),
                    message: "m",
                    payload: [],
                    receivedAt: 0, quarantinedAt: 0))
        ])
        unit.sessionMetrics = [metrics]
        _ = try await h.store.apply(unit)
        let record = try #require(try await h.store.user(user))
        let today = LoadService.today(for: record, at: h.now)
        let result = try await LoadService(store: h.store).update(user, today: today, computedAt: 1)
        #expect(result.from == middle.date)
        #expect(!result.fromScratch)
        let updated = try await h.store.trainingLoad(user: user, from: nil, to: nil)
        #expect(updated.dropLast().allSatisfy { $0.stateJSON.isEmpty })
        // The same as computed from nothing.
        let loads = try await LoadService(store: h.store).dailyLoads(user).loads
        let fresh = TrainingLoad.series(dailyLoads: loads, from: loads.keys.min()!, to: today)
        #expect(updated.map(\.date) == fresh.map(\.date))
        #expect(updated.map(\.ctl) == fresh.map(\.ctl))
        #expect(updated.map(\.atl) == fresh.map(\.atl))
        #expect(updated.map(\.acwrEwma) == fresh.map(\.acwrEwma))
        #expect(
            updated.first { $0.date == middle.date }?.dailyLoad
                == (before.first { $0.date == middle.date }?.dailyLoad ?? 0) + 77.25)
    }
}
