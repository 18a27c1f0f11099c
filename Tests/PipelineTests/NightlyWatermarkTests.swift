import Foundation
import Store
import StoreSQLite
import Testing

@testable import Ingest
@testable import Pipeline
@testable import SyntheticData

@Suite struct NightlyWatermarkTests {
    static let config = Generator.Configuration(users: 3, days: 6, seed: 515, endDate: "2026-03-28", faultRate: 0.1)

    @Test func theFirstRunIsAFullPassAndTheNextTakesOnlyWhatIsNew() async throws {
        let h = try PipelineHarness(Self.config)
        let first = try await h.nightly()
        #expect(first.mode == .full && first.since == nil)
        let reached = try #require(first.watermark.flatMap(NightlyWatermark.init))
        #expect(try await h.store.lastJobRun(NightlyJob.jobName)?.watermark == first.watermark)
        #expect(first.usersRecomputed > 0)

        let second = try await h.nightly()
        #expect(second.mode == .incremental && second.since == first.watermark)
        #expect(second.ingest.sessions.received == 0 && second.sessionsAnalyzed == 0)
        #expect(second.usersRecomputed == 0 && second.plans.isEmpty)
        #expect(try #require(second.watermark.flatMap(NightlyWatermark.init)).dataUpTo >= reached.dataUpTo)
    }

    /// The run time may be another day (`--as-of`); the watermark, and the marks a run answers, come from the clock
    /// the store stamps its rows with (`PipelineClock.wall`, real time by default), never from the run time (the
    /// nightly once read `Date()` there directly).
    @Test func theWatermarkComesFromTheMarkClockNotFromTheRunsDay() async throws {
        let h = try PipelineHarness(Self.config)
        let runsDay = h.now
        // A day ahead: after every row this run stores, however slow the machine (the ingest stamps its marks with the
        // wall clock as it goes; a minute ahead was not enough for a loaded CI run).
        let marks = Date().epochMillis + 86_400_000
        var job = NightlyJob(store: h.store, now: { runsDay })
        job.clock.wall = { marks }
        let summary = try await job.run(inbox: h.root.appendingPathComponent("inbox"))
        #expect(summary.watermark == NightlyWatermark(dataUpTo: marks).text)
        #expect(summary.watermark != NightlyWatermark(dataUpTo: runsDay).text)
        // Every user's pending-recompute mark, written before `marks`, was answered by the run.
        #expect(try await h.store.usersPendingRecompute().isEmpty)
        #expect(summary.usersRecomputed > 0)
    }

    /// Sessions that arrive after a run (missed nights: they pile up) are all taken by the next run in one pass,
    /// which recomputes exactly the users they belong to, to the same stats as one run over everything.
    @Test func newDataSinceTheWatermarkIsCaughtUpInOneRun() async throws {
        let reference = try PipelineHarness(Self.config)
        _ = try await reference.nightly()

        let h = try PipelineHarness(Self.config)
        let fm = FileManager.default
        let sessions = h.root.appendingPathComponent("inbox/sessions")
        let aside = h.root.appendingPathComponent("aside")
        try fm.createDirectory(at: aside, withIntermediateDirectories: true)
        // A user with at least three session files (not the generator's unknown "ghost" user).
        let user = try #require(
            h.manifest.users.map(\.userID).first {
                ((try? fm.contentsOfDirectory(atPath: sessions.appendingPathComponent($0).path)) ?? []).count >= 3
            })
        let files = try fm.contentsOfDirectory(atPath: sessions.appendingPathComponent(user).path).sorted()
        // Two of its ordinary batches (the generator's broken and oversized files are numbered 9001, 9002).
        let late = Array(files.filter { !$0.hasSuffix("-9001.json") && !$0.hasSuffix("-9002.json") }.suffix(2))
        for name in late {
            try fm.moveItem(
                at: sessions.appendingPathComponent("\(user)/\(name)"), to: aside.appendingPathComponent(name))
        }
        let first = try await h.nightly()
        #expect(first.mode == .full)

        for name in late {
            try fm.moveItem(
                at: aside.appendingPathComponent(name), to: sessions.appendingPathComponent("\(user)/\(name)"))
        }
        let second = try await h.nightly()
        #expect(second.mode == .incremental)
        #expect(second.ingest.batches.stored + second.ingest.batches.quarantined > 0)
        #expect(second.usersRecomputed == 1)
        for id in try await reference.store.userIDs() {
            #expect(try await h.store.userStats(id)?.stats == reference.store.userStats(id)?.stats, "\(id)")
        }
        #expect(try await h.store.usersPendingRecompute().isEmpty)
    }

    @Test func onlyASuccessfulRunMovesTheWatermark() async throws {
        let h = try PipelineHarness(Self.config)
        let first = try await h.nightly()
        let runID = try await h.store.startJob(NightlyJob.jobName, at: h.now)
        try await h.store.finishJob(id: runID, status: .interrupted, at: h.now, countsJSON: "{}", watermark: nil)
        _ = try await h.store.startJob(NightlyJob.jobName, at: h.now) // a run killed with SIGKILL stays `running`
        #expect(try await NightlyWatermark.last(in: h.store)?.text == first.watermark)
        #expect(try await h.nightly().since == first.watermark)
    }

    /// The first session file of the first user in the harness's inbox: its bytes, its batch context as the inbox
    /// gives it, and its ledger key.
    static func firstInboxFile(_ h: PipelineHarness) async throws -> ([UInt8], BatchContext, String) {
        let user = try #require(h.manifest.users.first?.userID)
        let dir = h.root.appendingPathComponent("inbox/sessions/\(user)")
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted().first)
        let body = [UInt8](try Data(contentsOf: dir.appendingPathComponent(name)))
        let context = BatchContext(
            userID: UserID(user), source: "inbox", sourceKey: "sessions/\(user)/\(name)", receivedAt: 0)
        let key = try await IdentifierHasher.resolve(store: h.store).inboxLedgerKey("sessions/\(user)/\(name)")
        return (body, context, key)
    }

    /// `body` under `key` is recognised as applied before validation, and answered as already processed.
    static func expectAlreadyProcessed(
        _ processor: BatchProcessor, _ body: [UInt8], _ context: BatchContext, _ key: String
    ) async throws {
        let known = try await processor.prepare(body: body, context: context, ledgerKey: key)
        #expect(known.alreadyApplied && known.report.sessions.received == 0)
        if case .alreadyProcessed = try await processor.commit(known) {
        } else {
            Issue.record("not answered as already processed")
        }
    }

    /// What the ledger already holds (same key, same bytes) is recognised before validation; other bytes under the
    /// same key are not.
    @Test func anInboxFileAlreadyInTheLedgerIsNotValidatedAgain() async throws {
        let h = try PipelineHarness(Self.config)
        _ = try await h.nightly()
        let (body, context, key) = try await Self.firstInboxFile(h)
        let processor = BatchProcessor(store: h.store)
        try await Self.expectAlreadyProcessed(processor, body, context, key)
        let changed = try await processor.prepare(body: body + [0x0A], context: context, ledgerKey: key)
        #expect(!changed.alreadyApplied)
    }

    /// The ledger records a file's fingerprint (XXH3-128); an entry an earlier version recorded holds the SHA-256 of
    /// the same bytes and is recognised too, so that an upgrade does not process the inbox again.
    @Test func aLedgerEntryHoldingTheOldSHA256IsRecognised() async throws {
        let h = try PipelineHarness(Self.config)
        _ = try await h.nightly()
        let (body, context, key) = try await Self.firstInboxFile(h)
        let ledger = try #require(h.store.ingestLedger)
        let recorded = try await ledger.ledgerHash(key)
        #expect(recorded == Hashing.ledgerFingerprint(body))
        #expect(recorded?.count == "xxh3-128:".count + 32)

        // What an earlier version wrote for this file: its SHA-256 (the store replaces an entry's hash when the unit
        // under its key carries another).
        let oldEntry = sha256Hex(body)
        #expect(try await h.store.apply(IngestUnit(ledgerKey: key, ledgerHash: oldEntry)).alreadyApplied == false)
        #expect(try await ledger.ledgerHash(key) == oldEntry)
        let processor = BatchProcessor(store: h.store)
        try await Self.expectAlreadyProcessed(processor, body, context, key)
        #expect(try await ledger.ledgerHash(key) == oldEntry)
        // Other bytes under that key are processed, and the entry then holds their fingerprint.
        let changedBody = body + [0x0A]
        let changed = try await processor.prepare(body: changedBody, context: context, ledgerKey: key)
        #expect(!changed.alreadyApplied)
        _ = try await processor.commit(changed)
        #expect(try await ledger.ledgerHash(key) == Hashing.ledgerFingerprint(changedBody))
    }
}
