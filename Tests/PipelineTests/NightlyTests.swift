import Foundation
import Ingest
import Store
import StoreSQLite
import Testing

@testable import Pipeline
@testable import SyntheticData

/// An independent computation of the apps' stats from what the generator says it generated:
/// Foundation's Calendar for local dates (not the pipeline's date arithmetic), plain loops for totals.
enum ReferenceStats {
    static func localDay(_ millis: Int64, _ zone: String) -> DateComponents {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(identifier: zone)!
        return cal.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(millis) / 1000))
    }

    static func key(_ c: DateComponents) -> String { String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!) }

    static func stats(_ user: ManifestUser, now: Int64) -> UserStats {
        var starts: [(Int64, String)] = []
        var count = 0
        var energy = 0.0, distance = 0.0, duration = 0.0
        for s in user.sessions where s.startedAtMillis <= now {
            count += 1; energy += s.totalEnergyKcal; distance += s.totalDistanceM; duration += s.durationS
            starts.append((s.startedAtMillis, user.timeZone))
        }
        for w in user.workouts where !w.deleted && w.startMillis <= now {
            count += 1; energy += w.energyKcal; distance += w.distanceM; duration += w.durationS
            starts.append((w.startMillis, w.timeZone ?? user.timeZone))
        }
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(identifier: "UTC")!
        func date(_ k: String) -> Date { ISO8601DateFormatter().date(from: k + "T12:00:00Z")! }
        let days = Set(starts.map { key(localDay($0.0, $0.1)) })
        let sorted = days.sorted()
        var longest = 0, run = 0
        var previous: Date?
        for k in sorted {
            let d = date(k)
            if let p = previous, cal.date(byAdding: .day, value: 1, to: p) == d { run += 1 } else { run = 1 }
            longest = max(longest, run)
            previous = d
        }
        let today = max(key(localDay(now, user.timeZone)), sorted.last ?? "")
        var cursor = days.contains(today) ? date(today) : cal.date(byAdding: .day, value: -1, to: date(today))!
        var current = 0
        while days.contains(key(cal.dateComponents([.year, .month, .day], from: cursor))) {
            current += 1
            cursor = cal.date(byAdding: .day, value: -1, to: cursor)!
        }
        return UserStats(
            workoutTotalCount: count, workoutTotalEnergy: energy, workoutTotalDistance: distance,
            workoutTotalDuration: duration, workoutStreak: current, longestStreak: longest,
            lastWorkoutDate: sorted.last.map { LocalDate(iso: $0)! }
        )
    }
}

final class PipelineHarness {
    let root: URL
    let store: SQLiteStore
    let manifest: GenerationManifest
    let now: Int64
    init(_ config: Generator.Configuration) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("nightly-\(UUID().uuidString)")
        manifest = try Generator(config).generate(into: root.appendingPathComponent("inbox"))
        store = try SQLiteStore(path: root.appendingPathComponent("db.sqlite").path)
        // "Now" is the day after the data set ends, at 12:00 UTC (04:00 in Los Angeles): deterministic streaks.
        now = RFC3339.parseMillis(config.endDate + "T00:00:00Z")! + 36 * 3_600_000
    }
    deinit { try? FileManager.default.removeItem(at: root) }

    func nightly() async throws -> NightlySummary {
        let now = self.now
        return try await NightlyJob(store: store, now: { now }).run(inbox: root.appendingPathComponent("inbox"))
    }
}

@Suite(.serialized) struct NightlyTests {
    @Test func countsAddUpFaultsLandInQuarantineAndStatsMatchAnIndependentComputation() async throws {
        // The window ends 2026-11-04: it covers the end of summer time in Europe (25 Oct) and in the US (1 Nov);
        // user-0001 (Berlin) trains every one of the last 8 days and user-0002 (Los Angeles) rides at 23:35 each night.
        let h = try PipelineHarness(.init(users: 6, days: 14, seed: 2024, endDate: "2026-11-04", faultRate: 0.25))
        let summary = try await h.nightly()
        #expect(summary.ingest.addsUp)
        #expect(summary.status == .succeeded)

        // Every injected fault that must be quarantined is, with its specific reason.
        var expected: [QuarantineReason: Int] = [:]
        for f in h.manifest.faults where f.expected.hasPrefix("quarantine:") {
            expected[QuarantineReason(rawValue: String(f.expected.dropFirst(11))), default: 0] += 1
        }
        #expect(try await h.store.quarantineCountsByReason() == expected)
        #expect(!expected.isEmpty)
        let duplicates = h.manifest.faults.filter { $0.expected == "duplicate" }.count
        #expect(summary.ingest.sessions.duplicates == duplicates)
        #expect(summary.ingest.workouts.stale == h.manifest.faults.filter { $0.expected == "stale" }.count)
        #expect(
            summary.ingest.truncatedBlobs == h.manifest.faults.filter { $0.expected == "stored:truncated_blob" }.count)

        // Every valid session is stored exactly once and analysed.
        let validSessions = h.manifest.users.reduce(0) { $0 + $1.sessions.count }
        #expect(summary.ingest.sessions.stored == validSessions)
        #expect(summary.sessionsAnalyzed == validSessions)

        for user in h.manifest.users {
            let id = UserID(user.userID)
            #expect(try await h.store.sessionCount(user: id) == user.sessions.count)
            let stored = try #require(try await h.store.userStats(id)).stats
            let reference = ReferenceStats.stats(user, now: h.now)
            #expect(stored.workoutTotalCount == reference.workoutTotalCount, "\(user.userID)")
            #expect(abs(stored.workoutTotalEnergy - reference.workoutTotalEnergy) < 1e-6, "\(user.userID)")
            #expect(abs(stored.workoutTotalDistance - reference.workoutTotalDistance) < 1e-6, "\(user.userID)")
            #expect(abs(stored.workoutTotalDuration - reference.workoutTotalDuration) < 1e-6, "\(user.userID)")
            #expect(stored.workoutStreak == reference.workoutStreak, "\(user.userID)")
            #expect(stored.longestStreak == reference.longestStreak, "\(user.userID)")
            #expect(stored.lastWorkoutDate == reference.lastWorkoutDate, "\(user.userID)")
        }
        // The scenario users: a streak over the DST change and rides that straddle midnight, each counted once.
        let berlin = try #require(try await h.store.userStats(UserID("user-0001"))).stats
        let la = try #require(try await h.store.userStats(UserID("user-0002"))).stats
        #expect(berlin.workoutStreak >= 8)
        #expect(la.workoutStreak >= 8)
        #expect(la.lastWorkoutDate == LocalDate(iso: "2026-11-04"))
    }

    @Test func aSecondRunOverTheSameInboxChangesNothing() async throws {
        let h = try PipelineHarness(.init(users: 3, days: 7, seed: 11, endDate: "2026-05-20", faultRate: 0.2))
        let first = try await h.nightly()
        let digest = try await h.store.contentDigest()
        let counts = try await h.store.tableCounts()
        let second = try await h.nightly()
        #expect(second.ingest.addsUp)
        #expect(second.ingest.sessions.received == 0)
        #expect(second.ingest.batches.duplicates == first.ingest.batches.received)
        #expect(second.sessionsAnalyzed == 0)
        #expect(try await h.store.contentDigest() == digest)
        var after = try await h.store.tableCounts()
        after["job_runs"] = counts["job_runs"]
        #expect(after == counts)
    }

    @Test func truncatedBlobsAreAnalysedFromTheirCompleteRecords() async throws {
        let h = try PipelineHarness(.init(users: 2, days: 4, seed: 77, endDate: "2026-01-15", faultRate: 0))
        _ = try await h.nightly()
        let user = h.manifest.users[1]
        let session = try #require(user.sessions.first)
        let stored = try #require(
            try await h.store.session(user: UserID(user.userID), id: SessionID(uuidString: session.sessionID)!))
        // Cut the recording in half and analyse: still a result, flagged, with fewer seconds than the whole.
        var cut = stored
        cut.raw = Array(stored.raw!.prefix(stored.raw!.count / 2 + 3))
        cut.blobStatus = .truncated
        let u = try #require(try await h.store.user(UserID(user.userID)))
        let whole = SessionAnalyzer().analyze(stored, user: u, now: 0)
        let half = SessionAnalyzer().analyze(cut, user: u, now: 0)
        #expect(half.flags.contains("truncated_blob"))
        #expect(!whole.flags.contains("truncated_blob"))
        #expect(whole.avgPowerW != nil)
        #expect(half.avgPowerW != nil)
        #expect((half.distanceM ?? 0) < (whole.distanceM ?? 0))
    }
}

final class TaskBox: @unchecked Sendable {
    var task: Task<NightlySummary, any Error>?
}

@Suite(.serialized) struct NightlyInterruptionTests {
    /// A run stopped after storing and analysing the new data but before recomputing stats: the next run (with
    /// nothing new to ingest) still recomputes every touched user, and the store ends as after one clean run.
    @Test func aRunStoppedBeforeTheStatsStepIsFinishedByTheNext() async throws {
        let config = Generator.Configuration(users: 3, days: 6, seed: 404, endDate: "2026-03-28", faultRate: 0.2)
        let clean = try PipelineHarness(config)
        _ = try await clean.nightly()
        let expected = try await clean.store.contentDigest()

        let h = try PipelineHarness(config)
        let now = h.now
        let box = TaskBox()
        let job = NightlyJob(
            store: h.store, now: { now },
            progress: { phase, _, _ in
                if phase == .analyse { box.task?.cancel() }
            }, concurrency: 1)
        let inbox = h.root.appendingPathComponent("inbox")
        box.task = Task { try await job.run(inbox: inbox) }
        await #expect(throws: CancellationError.self) { _ = try await box.task!.value }
        #expect(try await h.store.lastJobRun(NightlyJob.jobName)?.status == .interrupted)
        #expect(try await !h.store.usersPendingRecompute().isEmpty)

        let rerun = try await h.nightly()
        #expect(rerun.ingest.sessions.received == 0)
        #expect(try await h.store.usersPendingRecompute().isEmpty)
        #expect(try await h.store.contentDigest() == expected)
    }
}
