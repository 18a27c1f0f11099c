import Foundation
import GRDB
import Store
@testable import StoreSQLite
import Testing

@Suite struct SQLiteStoreTests {
    @Test func freshDatabaseIsMigratedInWALModeWithForeignKeys() async throws {
        let t = try TemporaryStore()
        #expect(try await t.store.appliedMigrations() == ["0001_initial", "0002_indexes"])
        let (mode, fk) = try await t.store.writer.read { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA foreign_keys"))
        }
        #expect(mode == "wal")
        #expect(fk == 1)
        // Reopening an existing database applies nothing twice.
        let again = try SQLiteStore(path: t.directory.appendingPathComponent("test.sqlite").path)
        #expect(try await again.appliedMigrations().count == 2)
    }

    @Test func userRoundTripKeepsTheWholeProfile() async throws {
        let t = try TemporaryStore()
        let user = Fixtures.user()
        try await t.store.upsertUser(user)
        #expect(try await t.store.user(user.id) == user)
        var changed = user
        changed.timeZone = "Asia/Tokyo"
        changed.profile.ftpW = 250
        changed.profile.goalRace = nil
        try await t.store.upsertUser(changed)
        #expect(try await t.store.user(user.id) == changed)
        #expect(try await t.store.userIDs() == [user.id])
        #expect(try await t.store.user(UserID("nobody")) == nil)
    }

    @Test func schemaRefusesImpossibleValues() async throws {
        let t = try TemporaryStore()
        var bad = Fixtures.user()
        bad.profile.maxHR = 400
        await #expect(throws: (any Error).self) { try await t.store.upsertUser(bad) }
        try await t.store.upsertUser(Fixtures.user())
        // A session of zero seconds violates the CHECK constraint; the whole unit rolls back.
        let zero = Fixtures.session(duration: 0)
        let unit = IngestUnit(ledgerKey: "k", ledgerHash: "h", sessions: [SessionCandidate(session: zero, conflictQuarantine: Fixtures.quarantine())],
                              quarantine: [Fixtures.quarantine(key: "other", reason: "x")])
        await #expect(throws: (any Error).self) { _ = try await t.store.apply(unit) }
        #expect(try await t.store.tableCounts()["quarantine"] == 0)
        #expect(try await t.store.tableCounts()["ingest_ledger"] == 0)
        // A session for a user that does not exist violates the foreign key.
        let orphan = Fixtures.session(user: UserID("ghost"))
        await #expect(throws: (any Error).self) {
            _ = try await t.store.apply(IngestUnit(sessions: [SessionCandidate(session: orphan, conflictQuarantine: Fixtures.quarantine())]))
        }
    }

    @Test func sessionsAreStoredOnceDuplicatesRecognisedConflictsQuarantined() async throws {
        let t = try TemporaryStore()
        try await t.store.upsertUser(Fixtures.user())
        let s = Fixtures.session()
        let conflictRecord = Fixtures.quarantine(key: "batch2#0", reason: "conflict", payload: "{\"changed\":true}")
        let first = try await t.store.apply(IngestUnit(sessions: [SessionCandidate(session: s, conflictQuarantine: conflictRecord)]))
        #expect(first.sessionOutcomes == [.stored])
        let again = try await t.store.apply(IngestUnit(sessions: [SessionCandidate(session: s, conflictQuarantine: conflictRecord)]))
        #expect(again.sessionOutcomes == [.duplicate])
        #expect(again.quarantineAdded == 0)
        let other = Fixtures.session(energy: 999, hash: String(repeating: "b", count: 64))
        let conflict = try await t.store.apply(IngestUnit(sessions: [SessionCandidate(session: other, conflictQuarantine: conflictRecord)]))
        #expect(conflict.sessionOutcomes == [.conflict])
        #expect(conflict.quarantineAdded == 1)
        // The stored copy was kept, raw blob included.
        let stored = try #require(try await t.store.session(user: Fixtures.alice, id: s.sessionID))
        #expect(stored == s)
        #expect(try await t.store.sessionCount(user: Fixtures.alice) == 1)
        #expect(try await t.store.quarantineCountsByReason() == ["conflict": 1])
        // Summaries leave the raw blob out.
        #expect(try await t.store.sessionSummaries(user: Fixtures.alice, offset: 0, limit: 10).first?.raw == nil)
    }

    @Test func ledgerMakesARepeatedUnitANoOp() async throws {
        let t = try TemporaryStore()
        try await t.store.upsertUser(Fixtures.user())
        let unit = IngestUnit(ledgerKey: "inbox:a.json", ledgerHash: "h1",
                              sessions: [SessionCandidate(session: Fixtures.session(), conflictQuarantine: Fixtures.quarantine())],
                              quarantine: [Fixtures.quarantine(key: "a.json#1", reason: "invalid_duration")], reportJSON: "{\"x\":1}")
        let first = try await t.store.apply(unit)
        #expect(!first.alreadyApplied)
        let digest = try await t.store.contentDigest()
        let second = try await t.store.apply(unit)
        #expect(second.alreadyApplied)
        #expect(second.previousReportJSON == "{\"x\":1}")
        #expect(try await t.store.contentDigest() == digest)
        // The same key with other content is applied (a file that changed).
        var changed = unit
        changed.ledgerHash = "h2"
        changed.sessions = []
        changed.quarantine = [Fixtures.quarantine(key: "a.json#2", reason: "invalid_energy")]
        #expect(try await t.store.apply(changed).alreadyApplied == false)
        #expect(try await t.store.quarantineCountsByReason() == ["invalid_duration": 1, "invalid_energy": 1])
    }

    @Test func quarantineKeepsOneRowPerSourceReasonAndPayload() async throws {
        let t = try TemporaryStore()
        let q = Fixtures.quarantine(key: "f#3", reason: "malformed_json", payload: "{nope", user: nil)
        let a = try await t.store.apply(IngestUnit(quarantine: [q, q]))
        #expect(a.quarantineAdded == 1)
        let rows = try await t.store.quarantined(reason: "malformed_json", offset: 0, limit: 10)
        #expect(rows.count == 1)
        #expect(rows[0].payload == Array("{nope".utf8))
        #expect(rows[0].userID == nil)
        let id = try #require(rows[0].id)
        #expect(try await t.store.quarantineRecord(id: id)?.message == "m")
        try await t.store.removeQuarantine(id: id)
        #expect(try await t.store.quarantineRecord(id: id) == nil)
    }

    @Test func workoutsAreLastWriterWinsAndTombstonesStay() async throws {
        let t = try TemporaryStore()
        try await t.store.upsertUser(Fixtures.user())
        func apply(_ w: WorkoutRecord) async throws -> WorkoutOutcome {
            try await t.store.apply(IngestUnit(workouts: [WorkoutCandidate(workout: w, conflictQuarantine: Fixtures.quarantine(key: "w\(w.updatedAt)"))]))
                .workoutOutcomes[0]
        }
        #expect(try await apply(Fixtures.workout(version: 100)) == .inserted)
        #expect(try await apply(Fixtures.workout(version: 100)) == .duplicate)
        #expect(try await apply(Fixtures.workout(version: 200, distance: 9800)) == .updated)
        #expect(try await apply(Fixtures.workout(version: 100)) == .stale)
        #expect(try await t.store.workouts(user: Fixtures.alice, includeDeleted: false).first?.distanceM == 9800)
        #expect(try await apply(Fixtures.workout(version: 200, distance: 5)) == .conflict)
        #expect(try await apply(Fixtures.workout(version: 300, deleted: true)) == .deleted)
        // A late, older copy does not resurrect the deleted record.
        #expect(try await apply(Fixtures.workout(version: 250)) == .stale)
        #expect(try await t.store.workouts(user: Fixtures.alice, includeDeleted: false).isEmpty)
        #expect(try await t.store.workouts(user: Fixtures.alice, includeDeleted: true).map(\.deleted) == [true])
    }

    @Test func plansAreVersionedStatsAndMetricsRoundTrip() async throws {
        let t = try TemporaryStore()
        try await t.store.upsertUser(Fixtures.user())
        #expect(try await t.store.appendPlan(user: Fixtures.alice, generatedAt: 1, state: .ready, documentJSON: "{\"v\":1}") == 1)
        #expect(try await t.store.appendPlan(user: Fixtures.alice, generatedAt: 2, state: .ready, documentJSON: "{\"v\":2}") == 2)
        #expect(try await t.store.latestPlan(user: Fixtures.alice)?.documentJSON == "{\"v\":2}")
        #expect(try await t.store.planVersions(user: Fixtures.alice).map(\.version) == [1, 2])

        let stats = UserStats(workoutTotalCount: 3, workoutTotalEnergy: 900.5, workoutTotalDistance: 42195, workoutTotalDuration: 5400,
                              workoutStreak: 2, longestStreak: 5, lastWorkoutDate: "2025-12-24")
        try await t.store.putUserStats(UserStatsRecord(userID: Fixtures.alice, stats: stats, computedAt: 10))
        try await t.store.recordAppStats(user: Fixtures.alice, stats: .empty, at: 11)
        let record = try #require(try await t.store.userStats(Fixtures.alice))
        #expect(record.stats == stats)
        #expect(record.appReported == .empty)
        #expect(record.appReportedAt == 11)

        _ = try await t.store.apply(IngestUnit(sessions: [SessionCandidate(session: Fixtures.session(), conflictQuarantine: Fixtures.quarantine())]))
        #expect(try await t.store.sessionsWithoutMetrics(limit: 10).count == 1)
        let m = SessionMetricsRecord(userID: Fixtures.alice, sessionID: Fixtures.session().sessionID, localDate: "2025-12-24", sport: "bike",
                                     durationS: 1800, distanceM: 15000, energyKcal: 300, avgPowerW: 180, avgHRBpm: 140, tss: 45.5,
                                     metricsJSON: "{}", flags: ["no_heart_rate"], computedAt: 5)
        try await t.store.putSessionMetrics(m)
        #expect(try await t.store.sessionMetrics(user: Fixtures.alice) == [m])
        #expect(try await t.store.sessionsWithoutMetrics(limit: 10).isEmpty)
    }

    @Test func deletionRemovesEverythingAndAuditsOnlyAHash() async throws {
        let t = try TemporaryStore()
        try await t.store.upsertUser(Fixtures.user())
        try await t.store.upsertUser(Fixtures.user(UserID("bob")))
        _ = try await t.store.apply(IngestUnit(
            sessions: [SessionCandidate(session: Fixtures.session(), conflictQuarantine: Fixtures.quarantine())],
            workouts: [WorkoutCandidate(workout: Fixtures.workout(version: 1), conflictQuarantine: Fixtures.quarantine())],
            quarantine: [Fixtures.quarantine(key: "q1", reason: "invalid_duration"),
                         Fixtures.quarantine(key: "q2", reason: "invalid_duration", user: UserID("bob"))]))
        try await t.store.putSessionMetrics(SessionMetricsRecord(
            userID: Fixtures.alice, sessionID: Fixtures.session().sessionID, localDate: "2025-12-24", sport: "bike", durationS: 1,
            distanceM: nil, energyKcal: nil, avgPowerW: nil, avgHRBpm: nil, tss: nil, metricsJSON: "{}", flags: [], computedAt: 1))
        try await t.store.putUserStats(UserStatsRecord(userID: Fixtures.alice, stats: .empty, computedAt: 1))
        _ = try await t.store.appendPlan(user: Fixtures.alice, generatedAt: 1, state: .ready, documentJSON: "{}")
        #expect(try await t.store.footprint(user: Fixtures.alice).total == 7)

        let hash = String(repeating: "c", count: 64)
        let audit = try await t.store.deleteUser(Fixtures.alice, userHash: hash, requestedAt: 100, completedAt: 101)
        #expect(audit.status == .completed)
        #expect(try await t.store.footprint(user: Fixtures.alice).total == 0)
        #expect(try await t.store.footprint(user: UserID("bob")).total == 2)
        // No table holds the id any more.
        let mentions = try await t.store.writer.read { db -> Int in
            var n = 0
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'grdb_migrations'") {
                for column in try db.columns(in: table) where column.type.uppercased() == "TEXT" {
                    n += try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table) WHERE \(column.name) = 'alice'") ?? 0
                }
            }
            return n
        }
        #expect(mentions == 0)
        await #expect(throws: StoreError.self) {
            _ = try await t.store.deleteUser(UserID("nobody"), userHash: hash, requestedAt: 200, completedAt: 201)
        }
        let audits = try await t.store.deletionAudits()
        #expect(audits.map(\.status) == [.completed, .failed])
        #expect(audits.allSatisfy { $0.userHash == hash })
    }

    @Test func jobRunsAreRecorded() async throws {
        let t = try TemporaryStore()
        let id = try await t.store.startJob("nightly", at: 1000)
        #expect(try await t.store.lastJobRun("nightly")?.status == .running)
        try await t.store.finishJob(id: id, status: .succeeded, at: 2000, countsJSON: "{\"n\":1}", watermark: "w")
        let run = try #require(try await t.store.lastJobRun("nightly"))
        #expect(run.status == .succeeded)
        #expect(run.endedAt == 2000)
        #expect(run.watermark == "w")
        #expect(try await t.store.lastJobRun("other") == nil)
    }
}
