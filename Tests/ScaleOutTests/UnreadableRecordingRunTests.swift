import FTMSDecode
import Foundation
import Ingest
import Logging
import Store
import Synchronization
import TestKit
import Testing

@testable import Pipeline
@testable import StorePostgres
@testable import StoreSQLite

/// Issue 43: a stored recording that cannot be read back (a damaged LZ4 frame) no longer fails the nightly, a
/// worker or a recomputation. That session is stepped over, its metrics left as they are, and reported (log line,
/// `sessions_unreadable`, the session's id and the codec's reason); the user's other sessions and the other users go on.
/// Alice has three sessions (the second one damaged in place), Bob one.
@Suite struct UnreadableRecordingRunTests {
    static let alice = UserID("alice"), bob = UserID("bob")
    static let day: Int64 = 86_400_000
    static let firstStart: Int64 = 1_766_570_400_000 // 2025-12-24 10:00 UTC
    /// The runs' clock: a week after the first session.
    static let now: Int64 = firstStart + 7 * day

    static let s1 = session("0b7e6a52-5b0e-4f5e-9a43-2d7f0c6f1a01", alice, day: 0, watts: 180)
    static let s2 = session("0b7e6a52-5b0e-4f5e-9a43-2d7f0c6f1a02", alice, day: 1, watts: 200)
    static let s3 = session("0b7e6a52-5b0e-4f5e-9a43-2d7f0c6f1a03", alice, day: 2, watts: 220)
    static let s4 = session("0b7e6a52-5b0e-4f5e-9a43-2d7f0c6f1a04", bob, day: 1, watts: 160)
    static let all = [s1, s2, s3, s4]

    /// A 20-minute indoor-bike recording at a steady `watts` with a heart-rate strap (FTMS blob format).
    static func recording(start: Int64, watts: Int) -> [UInt8] {
        var w = BlobWriter(machine: .indoorBike, startMillis: start)
        for s in 0..<1200 {
            let base = UInt32(s * 1000 + 500)
            let payload = IndoorBikeData {
                $0.speedKmh = 30
                $0.cadenceRpm = 85
                $0.totalDistanceM = s * 8
                $0.powerW = watts + s % 7
                $0.elapsedTimeS = s
            }.encode()
            w.append(timeMillis: base, uuid: 0x2AD2, kind: .notification, payload: payload)
            w.append(
                timeMillis: base + 400, uuid: 0x2A37, kind: .notification,
                payload: HeartRateMeasurement(heartRateBpm: 130 + s % 11, sensorContact: .detected, rrIntervalsS: [])
                    .encode())
        }
        return w.bytes
    }

    static func session(_ id: String, _ user: UserID, day: Int64, watts: Int) -> StoredSession {
        let start = firstStart + day * Self.day
        let raw = recording(start: start, watts: watts)
        return StoredSession(
            userID: user, sessionID: SessionID(uuidString: id)!, startedAtText: RFC3339.format(millis: start),
            endedAtText: RFC3339.format(millis: start + 1_200_000), startedAt: start, endedAt: start + 1_200_000,
            durationS: 1200, totalEnergyKcal: 250, totalDistanceM: 9600, detailJSON: "{}", raw: raw,
            machine: "indoorBike", blobStatus: .complete, blobNote: nil, contentHash: sha256(raw), source: "test",
            receivedAt: start + 3_600_000)
    }

    static func sha256(_ bytes: [UInt8]) -> String { Hashing.sha256Hex(bytes) }

    /// Alice and Bob, and `sessions` stored as uploads are (without metrics).
    static func fill(_ store: CoordinatedStore, _ sessions: [StoredSession]) async throws {
        for user in [alice, bob] {
            try await store.upsertUser(User(id: user, timeZone: "Europe/Berlin", createdAt: firstStart - day))
        }
        for session in sessions {
            let conflict = QuarantineRecord(
                userID: session.userID, source: "test", sourceKey: session.sessionID.rawValue, recordID: nil,
                reasonCode: QuarantineReason(rawValue: "conflict"), message: "m", payload: [], receivedAt: 1,
                quarantinedAt: 2)
            _ = try await store.apply(
                IngestUnit(sessions: [SessionCandidate(session: session, conflictQuarantine: conflict)]))
        }
    }

    /// The session's `raw_blob` as stored.
    static func storedBytes(_ store: CoordinatedStore, _ session: StoredSession) async throws -> [UInt8] {
        if let sqlite = store as? SQLiteStore {
            return try await sqlite.writer.read { db in
                try Data.fetchOne(
                    db, sql: "SELECT raw_blob FROM sessions WHERE user_id = ? AND session_id = ?",
                    arguments: [session.userID.rawValue, session.sessionID.rawValue])
            }.map { [UInt8]($0) } ?? []
        }
        let postgres = try #require(store as? PostgresStore)
        return try await postgres.read("test") { db in
            try await db.rows(
                """
                SELECT raw_blob FROM sessions
                WHERE user_id = \(session.userID.rawValue) AND session_id = \(session.sessionID.rawValue)
                """
            ).first.flatMap { try $0.get("raw_blob", as: Data?.self) }.map { [UInt8]($0) } ?? []
        }
    }

    /// Puts `bytes` in the session's `raw_blob` in place (the uploaded size stays).
    static func overwrite(_ store: CoordinatedStore, _ session: StoredSession, _ bytes: [UInt8]) async throws {
        if let sqlite = store as? SQLiteStore {
            try await sqlite.writer.write { db in
                try db.execute(
                    sql: "UPDATE sessions SET raw_blob = ? WHERE user_id = ? AND session_id = ?",
                    arguments: [Data(bytes), session.userID.rawValue, session.sessionID.rawValue])
            }
            return
        }
        let postgres = try #require(store as? PostgresStore)
        try await postgres.write("test") { db in
            try await db.execute(
                """
                UPDATE sessions SET raw_blob = \(Data(bytes))
                WHERE user_id = \(session.userID.rawValue) AND session_id = \(session.sessionID.rawValue)
                """)
        }
    }

    /// Flips a byte in the middle of the session's stored LZ4 frame (as `StoredRecordingTests` does); returns the
    /// intact bytes, to repair it later.
    @discardableResult
    static func damage(_ store: CoordinatedStore, _ session: StoredSession) async throws -> [UInt8] {
        let intact = try await storedBytes(store, session)
        #expect(Array(intact.prefix(5)) == StoredRecording.magic + [StoredRecording.formatByteColumnsLZ4])
        var bytes = intact
        bytes[bytes.count / 2] ^= 0x5A
        try await overwrite(store, session, bytes)
        return intact
    }

    static func metrics(_ store: CoordinatedStore) async throws -> [String: SessionMetricsRecord] {
        var out: [String: SessionMetricsRecord] = [:]
        for user in [alice, bob] {
            for m in try await store.sessionMetrics(user: user) { out[m.sessionID.rawValue] = m }
        }
        return out
    }

    static func expectReportsS2(_ unreadable: [UnreadableSession]) {
        #expect(unreadable.map(\.sessionID) == [s2.sessionID.rawValue])
        #expect(unreadable.map(\.userID) == [alice.rawValue])
        #expect(unreadable.first?.reason.hasPrefix("stored recording unreadable: lz4") == true, "\(unreadable)")
    }

    /// The nightly runs to completion, analyses the other three sessions and both users, reports the damaged one (log
    /// line, summary, Prometheus count), and every night again until it is repaired; what it wrote for the other
    /// sessions and for Bob is what a store without the damaged session gets; repaired, the next nightly catches up
    /// and the store's digest is that of a store that was never damaged.
    @Test(arguments: Backend.available) func theNightlyStepsOverTheDamagedSessionAndReportsIt(_ backend: Backend)
        async throws
    {
        // Reference: the same store without s2.
        var withoutS2: (metrics: [String: SessionMetricsRecord], bob: UserStatsRecord?) = ([:], nil)
        try await withDatabase(backend, connections: 1) { stores in
            try await Self.fill(stores[0], [Self.s1, Self.s3, Self.s4])
            _ = try await NightlyJob(store: stores[0], logger: quietLogger, now: { Self.now }).run(inbox: nil)
            withoutS2 = (try await Self.metrics(stores[0]), try await stores[0].userStats(Self.bob))
        }
        // Reference: the same store never damaged.
        var intactDigest = ""
        try await withDatabase(backend, connections: 1) { stores in
            try await Self.fill(stores[0], Self.all)
            let summary = try await NightlyJob(store: stores[0], logger: quietLogger, now: { Self.now }).run(
                inbox: nil)
            #expect(summary.sessionsAnalyzed == 4 && summary.sessionsUnreadable == 0)
            intactDigest = try await stores[0].contentDigest()
        }
        try await withDatabase(backend, connections: 1) { stores in
            let store = stores[0]
            try await Self.fill(store, Self.all)
            let intact = try await Self.damage(store, Self.s2)
            let capture = LogCapture()
            let logger = capture.logger()
            let summary = try await NightlyJob(store: store, logger: logger, now: { Self.now }).run(inbox: nil)
            #expect(summary.status == .succeeded)
            #expect(summary.sessionsAnalyzed == 3)
            #expect(summary.sessionsUnreadable == 1)
            Self.expectReportsS2(summary.unreadableSessions)
            #expect(summary.usersRecomputed == 2)
            // The log line names user, session and the codec's reason.
            let lines = capture.all.filter { $0.message.contains("stored recording unreadable") }
            #expect(lines.count == 1)
            #expect(lines.first?.level == .error)
            #expect(lines.first?.metadata["user_id"] == Self.alice.rawValue)
            #expect(lines.first?.metadata["session_id"] == Self.s2.sessionID.rawValue)
            #expect(lines.first?.metadata["reason"]?.contains("lz4") == true)
            // The recorded run and its Prometheus counts.
            let run = try #require(try await store.lastJobRun(NightlyJob.jobName))
            #expect(run.status == .succeeded)
            let counts = JobMetricsFile.counts(fromJSON: Data(try NightlyJob.json(summary).utf8))
            #expect(counts["sessions_unreadable"] == 1)
            #expect(try NightlyJob.json(summary).contains(Self.s2.sessionID.rawValue))
            // The other sessions analysed, s2 left without metrics; the rest as without s2.
            let metrics = try await Self.metrics(store)
            #expect(Set(metrics.keys) == Set([Self.s1, Self.s3, Self.s4].map(\.sessionID.rawValue)))
            #expect(metrics == withoutS2.metrics)
            #expect(try await store.userStats(Self.bob) == withoutS2.bob)
            #expect(try await store.userStats(Self.alice) != nil)

            // The next night meets it again, and says so again.
            let again = try await NightlyJob(store: store, logger: quietLogger, now: { Self.now }).run(inbox: nil)
            #expect(again.status == .succeeded && again.sessionsAnalyzed == 0)
            Self.expectReportsS2(again.unreadableSessions)

            // Repaired, the next nightly analyses it and the store is as if it had never been damaged.
            try await Self.overwrite(store, Self.s2, intact)
            let repaired = try await NightlyJob(store: store, logger: quietLogger, now: { Self.now }).run(inbox: nil)
            #expect(repaired.sessionsAnalyzed == 1 && repaired.sessionsUnreadable == 0)
            #expect(try await store.contentDigest() == intactDigest)
        }
    }

    /// More damaged sessions than the analysis reads at once (64) do not hold up the others.
    @Test func manyDamagedSessionsDoNotCrowdOutTheRest() async throws {
        try await withDatabase(.sqlite, connections: 1) { stores in
            let store = stores[0]
            let raw = Self.s1.raw!
            var sessions: [StoredSession] = []
            for i in 0..<70 {
                var s = Self.s1
                s.sessionID = SessionID(uuidString: String(format: "0b7e6a52-5b0e-4f5e-9a43-2d7f0c6f%04x", i))!
                s.receivedAt = Self.s1.receivedAt + Int64(i)
                sessions.append(s)
            }
            try await Self.fill(store, sessions + [Self.s4])
            #expect(raw.count > 0)
            for s in sessions { try await Self.damage(store, s) }
            var silent = Logger(label: "test")
            silent.logLevel = .critical
            let summary = try await NightlyJob(store: store, logger: silent, now: { Self.now }).run(inbox: nil)
            #expect(summary.sessionsUnreadable == 70)
            #expect(Set(summary.unreadableSessions.map(\.sessionID)).count == 70)
            #expect(summary.sessionsAnalyzed == 1)
            #expect(try await store.sessionMetrics(user: Self.bob).count == 1)
        }
    }

    /// A shared-run worker steps over it the same way, and the run finishes.
    @Test(arguments: Backend.available) func aWorkerStepsOverTheDamagedSession(_ backend: Backend) async throws {
        try await withDatabase(backend, connections: 1) { stores in
            let store = stores[0]
            try await Self.fill(store, Self.all)
            try await Self.damage(store, Self.s2)
            let summary = try await SharedRunTests.worker(store, "w1", now: { Self.now }).run(inbox: nil)
            #expect(summary.status == .succeeded && summary.runFinished)
            #expect(summary.sessionsAnalyzed == 3 && summary.sessionsUnreadable == 1)
            Self.expectReportsS2(summary.unreadableSessions)
            let metrics = try await Self.metrics(store)
            #expect(Set(metrics.keys) == Set([Self.s1, Self.s3, Self.s4].map(\.sessionID.rawValue)))
        }
    }

    /// `pipeline recompute` (from scratch) and the API's recompute (sessions without metrics) step over it: its
    /// earlier metrics stay as they were, not blanked; the user's other sessions are measured again.
    @Test(arguments: Backend.available) func aRecomputationStepsOverTheDamagedSessionKeepingItsMetrics(
        _ backend: Backend
    ) async throws {
        try await withDatabase(backend, connections: 1) { stores in
            let store = stores[0]
            try await Self.fill(store, Self.all)
            _ = try await NightlyJob(store: store, logger: quietLogger, now: { Self.now }).run(inbox: nil)
            let before = try await Self.metrics(store)
            #expect(before.count == 4)
            try await Self.damage(store, Self.s2)
            let later = Self.now + 3_600_000
            let recomputation = UserPipeline(store: store, now: { later }, logger: quietLogger)
            let outcome = try #require(
                try await store.withUserLock(Self.alice, wait: true) {
                    try await recomputation.run(Self.alice, force: true, marked: true, reanalyse: true)
                } ?? nil)
            #expect(outcome.sessionsAnalysed == 2 && outcome.sessionsUnreadable == 1)
            Self.expectReportsS2(outcome.unreadableSessions)
            let after = try await Self.metrics(store)
            #expect(after[Self.s2.sessionID.rawValue] == before[Self.s2.sessionID.rawValue])
            #expect(after[Self.s1.sessionID.rawValue]?.computedAt == later)
            #expect(after[Self.s3.sessionID.rawValue]?.computedAt == later)
            #expect(after[Self.s4.sessionID.rawValue] == before[Self.s4.sessionID.rawValue])
            let json = String(decoding: try JSONEncoder().encode(outcome), as: UTF8.self)
            #expect(json.contains("\"sessions_unreadable\":1"))

            // The API's way: only sessions without metrics; s2 has none once they are dropped, and stays so.
            try await store.deleteSessionMetricsForTest(Self.s2)
            let api = try #require(
                try await recomputation.run(Self.alice, force: true, marked: false, refreshPlan: false))
            #expect(api.sessionsAnalysed == 0 && api.sessionsUnreadable == 1 && api.statsRecomputed)
            #expect(try await Self.metrics(store)[Self.s2.sessionID.rawValue] == nil)
        }
    }
}

extension PipelineStore {
    /// Drops one session's metrics (as a session uploaded after the last analysis has none).
    fileprivate func deleteSessionMetricsForTest(_ session: StoredSession) async throws {
        if let sqlite = self as? SQLiteStore {
            try await sqlite.writer.write { db in
                try db.execute(
                    sql: "DELETE FROM session_metrics WHERE user_id = ? AND session_id = ?",
                    arguments: [session.userID.rawValue, session.sessionID.rawValue])
            }
        } else if let postgres = self as? PostgresStore {
            try await postgres.write("test") { db in
                try await db.execute(
                    """
                    DELETE FROM session_metrics
                    WHERE user_id = \(session.userID.rawValue) AND session_id = \(session.sessionID.rawValue)
                    """)
            }
        }
    }
}
