import Foundation
import GRDB
import Store
import Testing

@testable import StorePostgres
@testable import StoreSQLite

/// The behaviour of every `PipelineStore`: each test runs once per backend in `Backend.available`, on a fresh database.
@Suite struct PipelineStoreTests {
    @Test(arguments: Backend.available) func freshDatabaseIsMigratedWithForeignKeysEnforced(_ backend: Backend)
        async throws
    {
        try await withTestStore(backend) { t in
            #expect(
                try await t.appliedMigrations() == [
                    "0001_initial", "0002_indexes", "0003_pending_recompute", "0004_training_load", "0005_work_leases",
                    "0006_change_notify", "0007_ledger_stamp", "0010_job_run_owner", "0011_secrets", "0012_sync_log",
                    "0014_workout_file_sources", "0015_quarantine_lz4", "0017_sync_log_statement_triggers",
                    "0018_large_columns_last", "0019_sync_log_from_inserts", "0020_compressed_recordings",
                    "0021_stored_samples", "0022_recording_columns",
                ])
            switch t.kind {
            case .sqlite(let store, let path):
                let (mode, fk) = try await store.writer.read { db in
                    (
                        try String.fetchOne(db, sql: "PRAGMA journal_mode"),
                        try Int.fetchOne(db, sql: "PRAGMA foreign_keys")
                    )
                }
                #expect(mode == "wal")
                #expect(fk == 1)
                // Reopening an existing database applies nothing twice.
                let again = try SQLiteStore(path: path)
                #expect(try await again.appliedMigrations().count == 18)
            case .postgres(let store, let configuration):
                // Every user-owned table cascades from its parent, as in SQLite; keys sort bytewise (COLLATE "C").
                let (cascades, collation) = try await store.read("test") { db in
                    (
                        try await db.scalar(
                            """
                            SELECT COUNT(*) FROM information_schema.referential_constraints
                            WHERE constraint_schema = 'public' AND delete_rule = 'CASCADE'
                            """, as: Int.self),
                        try await db.scalar(
                            """
                            SELECT collation_name FROM information_schema.columns WHERE table_name = 'users' AND column_name = 'user_id'
                            """, as: String.self)
                    )
                }
                // sessions, workouts, session_metrics, user_stats, plans, pending_recompute, workout_metrics, training_load,
                // work_leases (→ users, → work_runs), sync_log
                #expect(cascades == 11)
                #expect(collation == "C")
                // Connecting again to an existing database applies nothing twice.
                let again = try await PostgresStore.connect(
                    configuration: configuration, logger: PostgresTestDatabase.logger)
                #expect(try await again.appliedMigrations().count == 18)
                #expect(
                    try await again.read("test") {
                        try await $0.scalar("SELECT COUNT(*) FROM schema_migrations", as: Int.self)
                    } == 18)
                await again.shutdown()
            }
        }
    }

    @Test(arguments: Backend.available) func userRoundTripKeepsTheWholeProfile(_ backend: Backend) async throws {
        try await withTestStore(backend) { t in
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
    }

    @Test(arguments: Backend.available) func schemaRefusesImpossibleValues(_ backend: Backend) async throws {
        try await withTestStore(backend) { t in
            var bad = Fixtures.user()
            bad.profile.maxHR = 400
            await #expect(throws: (any Error).self) { try await t.store.upsertUser(bad) }
            try await t.store.upsertUser(Fixtures.user())
            // A session of zero seconds violates the CHECK constraint; the whole unit rolls back.
            let zero = Fixtures.session(duration: 0)
            let unit = IngestUnit(
                ledgerKey: "k", ledgerHash: "h",
                sessions: [SessionCandidate(session: zero, conflictQuarantine: Fixtures.quarantine())],
                quarantine: [Fixtures.quarantine(key: "other", reason: "x")])
            await #expect(throws: (any Error).self) { _ = try await t.store.apply(unit) }
            #expect(try await t.store.tableCounts()["quarantine"] == 0)
            #expect(try await t.store.tableCounts()["ingest_ledger"] == 0)
            // A session for a user that does not exist violates the foreign key.
            let orphan = Fixtures.session(user: UserID("ghost"))
            await #expect(throws: (any Error).self) {
                _ = try await t.store.apply(
                    IngestUnit(sessions: [SessionCandidate(session: orphan, conflictQuarantine: Fixtures.quarantine())])
                )
            }
        }
    }

    @Test(arguments: Backend.available) func sessionsAreStoredOnceDuplicatesRecognisedConflictsQuarantined(
        _ backend: Backend
    ) async throws {
        try await withTestStore(backend) { t in
            try await t.store.upsertUser(Fixtures.user())
            let s = Fixtures.session()
            let conflictRecord = Fixtures.quarantine(key: "batch2#0", reason: "conflict", payload: "{\"changed\":true}")
            let first = try await t.store.apply(
                IngestUnit(sessions: [SessionCandidate(session: s, conflictQuarantine: conflictRecord)]))
            #expect(first.sessionOutcomes == [.stored])
            let again = try await t.store.apply(
                IngestUnit(sessions: [SessionCandidate(session: s, conflictQuarantine: conflictRecord)]))
            #expect(again.sessionOutcomes == [.duplicate])
            #expect(again.quarantineAdded == 0)
            let other = Fixtures.session(energy: 999, hash: String(repeating: "b", count: 64))
            let conflict = try await t.store.apply(
                IngestUnit(sessions: [SessionCandidate(session: other, conflictQuarantine: conflictRecord)]))
            #expect(conflict.sessionOutcomes == [.conflict])
            #expect(conflict.quarantineAdded == 1)
            // The stored copy was kept, raw blob included.
            let stored = try #require(try await t.store.session(user: Fixtures.alice, id: s.sessionID))
            #expect(stored == s)
            #expect(try await t.store.sessionCount(user: Fixtures.alice) == 1)
            #expect(try await t.store.quarantineCountsByReason() == [.rejected(.conflict): 1])
            // Summaries leave the raw blob out.
            #expect(try await t.store.sessionSummaries(user: Fixtures.alice, offset: 0, limit: 10).first?.raw == nil)
        }
    }

    @Test(arguments: Backend.available) func ledgerMakesARepeatedUnitANoOp(_ backend: Backend) async throws {
        try await withTestStore(backend) { t in
            try await t.store.upsertUser(Fixtures.user())
            let unit = IngestUnit(
                ledgerKey: "inbox:a.json", ledgerHash: "h1",
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
            #expect(
                try await t.store.quarantineCountsByReason() == [
                    .rejected(.invalidDuration): 1, .rejected(.invalidEnergy): 1,
                ])
        }
    }

    @Test(arguments: Backend.available) func quarantineKeepsOneRowPerSourceReasonAndPayload(_ backend: Backend)
        async throws
    {
        try await withTestStore(backend) { t in
            let q = Fixtures.quarantine(key: "f#3", reason: "malformed_json", payload: "{nope", user: nil)
            let a = try await t.store.apply(IngestUnit(quarantine: [q, q]))
            #expect(a.quarantineAdded == 1)
            let rows = try await t.store.quarantined(reason: .rejected(.malformedJSON), offset: 0, limit: 10)
            #expect(rows.count == 1)
            #expect(rows[0].payload == Array("{nope".utf8))
            #expect(rows[0].userID == nil)
            let id = try #require(rows[0].id)
            #expect(try await t.store.quarantineRecord(id: id)?.message == "m")
            try await t.store.removeQuarantine(id: id)
            #expect(try await t.store.quarantineRecord(id: id) == nil)
        }
    }

    @Test(arguments: Backend.available) func negativeLimitsMeanNoLimitAndNegativeOffsetsZero(_ backend: Backend)
        async throws
    {
        try await withTestStore(backend) { t in
            // SQLite's reading of LIMIT -1 and OFFSET -1; callers pass what operators type.
            _ = try await t.store.apply(
                IngestUnit(quarantine: (0..<3).map { Fixtures.quarantine(key: "k\($0)", user: nil) }))
            #expect(
                try await t.store.quarantined(reason: nil, offset: -2, limit: -1).map(\.sourceKey) == [
                    "k0", "k1", "k2",
                ])
            #expect(
                try await t.store.quarantined(reason: .rejected(.conflict), offset: 1, limit: -5).map(\.sourceKey) == [
                    "k1", "k2",
                ])
            try await t.store.upsertUser(Fixtures.user())
            _ = try await t.store.apply(
                IngestUnit(sessions: [
                    SessionCandidate(session: Fixtures.session(), conflictQuarantine: Fixtures.quarantine())
                ]))
            #expect(try await t.store.sessionSummaries(user: Fixtures.alice, offset: -1, limit: -1).count == 1)
            #expect(try await t.store.sessionsWithoutMetrics(limit: -1).count == 1)
            _ = try await t.store.startJob("j", at: 1)
            #expect(try await t.store.jobRuns("j", limit: -1).count == 1)
        }
    }

    @Test(arguments: Backend.available) func workoutsAreLastWriterWinsAndTombstonesStay(_ backend: Backend) async throws
    {
        try await withTestStore(backend) { t in
            try await t.store.upsertUser(Fixtures.user())
            func apply(_ w: WorkoutRecord) async throws -> WorkoutOutcome {
                try await t.store.apply(
                    IngestUnit(workouts: [
                        WorkoutCandidate(workout: w, conflictQuarantine: Fixtures.quarantine(key: "w\(w.updatedAt)"))
                    ])
                )
                .workoutOutcomes[0]
            }
            #expect(try await apply(Fixtures.workout(version: 100)) == .inserted)
            #expect(try await apply(Fixtures.workout(version: 100)) == .duplicate)
            #expect(try await apply(Fixtures.workout(version: 200, distance: 9800)) == .updated)
            #expect(try await apply(Fixtures.workout(version: 100)) == .stale)
            #expect(try await t.store.workouts(user: Fixtures.alice, includeDeleted: false).first?.distanceM == 9800)
            // The same version hashed another way (an imported file's record against a text hash): the candidate
            // says whether it has the stored content, and its conflict row is made only on a conflict.
            func applyHashedOtherwise(same: Bool) async throws -> WorkoutOutcome {
                try await t.store.apply(IngestUnit(workouts: [Self.hashedOtherwise(same: same)])).workoutOutcomes[0]
            }
            #expect(try await applyHashedOtherwise(same: true) == .duplicate)
            #expect(try await applyHashedOtherwise(same: false) == .conflict)
            #expect(
                try await t.store.quarantined(reason: nil, offset: 0, limit: 10).map(\.sourceKey) == [
                    "hashed-otherwise"
                ])
            #expect(try await apply(Fixtures.workout(version: 200, distance: 5)) == .conflict)
            #expect(try await apply(Fixtures.workout(version: 300, deleted: true)) == .deleted)
            // A late, older copy does not resurrect the deleted record.
            #expect(try await apply(Fixtures.workout(version: 250)) == .stale)
            #expect(try await t.store.workouts(user: Fixtures.alice, includeDeleted: false).isEmpty)
            #expect(try await t.store.workouts(user: Fixtures.alice, includeDeleted: true).map(\.deleted) == [true])
        }
    }

    /// Alice's `hk-1` at version 200, hashed otherwise than `Fixtures.workout` hashes it: the same content as that
    /// record (distance 9800) when `same`. Its conflict row is made only on a conflict.
    static func hashedOtherwise(same: Bool) -> WorkoutCandidate {
        var w = Fixtures.workout(version: 200, distance: 9800)
        w.contentHash = "cols-other"
        return WorkoutCandidate(
            workout: w, sameContentAs: { same && $0 == "200-false-9800.0" },
            conflictQuarantine: {
                if same { Issue.record("a duplicate's conflict row was made") }
                return Fixtures.quarantine(key: "hashed-otherwise")
            })
    }

    /// Several records in one unit (PostgreSQL decides them together, `upsertWorkouts`): the one hashed otherwise is
    /// compared as it says.
    @Test(arguments: Backend.available) func aRecordHashedOtherwiseInAUnitOfSeveral(_ backend: Backend) async throws {
        try await withTestStore(backend) { t in
            try await t.store.upsertUser(Fixtures.user())
            func unit(_ candidates: [WorkoutCandidate]) async throws -> [WorkoutOutcome] {
                try await t.store.apply(IngestUnit(workouts: candidates)).workoutOutcomes
            }
            func plain(_ w: WorkoutRecord) -> WorkoutCandidate {
                WorkoutCandidate(workout: w, conflictQuarantine: Fixtures.quarantine(key: w.workoutID.rawValue))
            }
            let first = try await unit([
                plain(Fixtures.workout(version: 200, distance: 9800)), plain(Fixtures.workout("hk-2", version: 1)),
            ])
            #expect(first == [.inserted, .inserted])
            let second = try await unit([Self.hashedOtherwise(same: true), plain(Fixtures.workout("hk-3", version: 1))])
            #expect(second == [.duplicate, .inserted])
            let third = try await unit([Self.hashedOtherwise(same: false), plain(Fixtures.workout("hk-4", version: 1))])
            #expect(third == [.conflict, .inserted])
            #expect(
                try await t.store.quarantined(reason: nil, offset: 0, limit: 10).map(\.sourceKey) == [
                    "hashed-otherwise"
                ])
        }
    }

    @Test(arguments: Backend.available) func plansAreVersionedStatsAndMetricsRoundTrip(_ backend: Backend) async throws
    {
        try await withTestStore(backend) { t in
            try await t.store.upsertUser(Fixtures.user())
            #expect(
                try await t.store.appendPlan(
                    user: Fixtures.alice, generatedAt: 1, state: .ready, documentJSON: "{\"v\":1}") == 1)
            #expect(
                try await t.store.appendPlan(
                    user: Fixtures.alice, generatedAt: 2, state: .ready, documentJSON: "{\"v\":2}") == 2)
            #expect(try await t.store.latestPlan(user: Fixtures.alice)?.documentJSON == "{\"v\":2}")
            #expect(try await t.store.planVersions(user: Fixtures.alice).map(\.version) == [1, 2])

            let stats = UserStats(
                workoutTotalCount: 3, workoutTotalEnergy: 900.5, workoutTotalDistance: 42195,
                workoutTotalDuration: 5400,
                workoutStreak: 2, longestStreak: 5, lastWorkoutDate: LocalDate(iso: "2025-12-24")!)
            try await t.store.putUserStats(UserStatsRecord(userID: Fixtures.alice, stats: stats, computedAt: 10))
            try await t.store.recordAppStats(user: Fixtures.alice, stats: .empty, at: 11)
            let record = try #require(try await t.store.userStats(Fixtures.alice))
            #expect(record.stats == stats)
            #expect(record.appReported == .empty)
            #expect(record.appReportedAt == 11)

            _ = try await t.store.apply(
                IngestUnit(sessions: [
                    SessionCandidate(session: Fixtures.session(), conflictQuarantine: Fixtures.quarantine())
                ]))
            #expect(try await t.store.sessionsWithoutMetrics(limit: 10).count == 1)
            let m = SessionMetricsRecord(
                userID: Fixtures.alice, sessionID: Fixtures.session().sessionID,
                localDate: LocalDate(iso: "2025-12-24")!, sport: "bike",
                durationS: 1800, distanceM: 15000, energyKcal: 300, avgPowerW: 180, avgHRBpm: 140, tss: 45.5,
                metricsJSON: "{}", flags: ["no_heart_rate"], computedAt: 5)
            try await t.store.putSessionMetrics(m)
            #expect(try await t.store.sessionMetrics(user: Fixtures.alice) == [m])
            #expect(try await t.store.sessionsWithoutMetrics(limit: 10).isEmpty)
        }
    }

    @Test(arguments: Backend.available) func deletionRemovesEverythingAndAuditsOnlyAHash(_ backend: Backend)
        async throws
    {
        try await withTestStore(backend) { t in
            try await t.store.upsertUser(Fixtures.user())
            try await t.store.upsertUser(Fixtures.user(UserID("bob")))
            _ = try await t.store.apply(
                IngestUnit(
                    sessions: [
                        SessionCandidate(session: Fixtures.session(), conflictQuarantine: Fixtures.quarantine())
                    ],
                    workouts: [
                        WorkoutCandidate(
                            workout: Fixtures.workout(version: 1), conflictQuarantine: Fixtures.quarantine())
                    ],
                    quarantine: [
                        Fixtures.quarantine(key: "q1", reason: "invalid_duration"),
                        Fixtures.quarantine(key: "q2", reason: "invalid_duration", user: UserID("bob")),
                    ]))
            try await t.store.putSessionMetrics(
                SessionMetricsRecord(
                    userID: Fixtures.alice, sessionID: Fixtures.session().sessionID,
                    localDate: LocalDate(iso: "2025-12-24")!,
                    sport: "bike", durationS: 1,
                    distanceM: nil, energyKcal: nil, avgPowerW: nil, avgHRBpm: nil, tss: nil, metricsJSON: "{}",
                    flags: [], computedAt: 1))
            try await t.store.putUserStats(UserStatsRecord(userID: Fixtures.alice, stats: .empty, computedAt: 1))
            _ = try await t.store.appendPlan(user: Fixtures.alice, generatedAt: 1, state: .ready, documentJSON: "{}")
            #expect(try await t.store.footprint(user: Fixtures.alice).total == 7)
            #expect(try await t.textCellsEqual(to: "alice") > 0) // the scan below does see the id while it is there

            let hash = String(repeating: "c", count: 64)
            let audit = try await t.store.deleteUser(Fixtures.alice, userHash: hash, requestedAt: 100, completedAt: 101)
            #expect(audit.status == .completed)
            #expect(try await t.store.footprint(user: Fixtures.alice).total == 0)
            #expect(try await t.store.footprint(user: UserID("bob")).total == 2)
            // No table holds the id any more.
            let mentions = try await t.textCellsEqual(to: "alice")
            #expect(mentions == 0)
            await #expect(throws: StoreError.self) {
                _ = try await t.store.deleteUser(UserID("nobody"), userHash: hash, requestedAt: 200, completedAt: 201)
            }
            let audits = try await t.store.deletionAudits()
            #expect(audits.map(\.status) == [.completed, .failed])
            #expect(audits.allSatisfy { $0.userHash == hash })
        }
    }

    @Test(arguments: Backend.available) func applyMarksTheUsersItChangedForRecomputation(_ backend: Backend)
        async throws
    {
        try await withTestStore(backend) { t in
            try await t.store.upsertUser(Fixtures.user())
            try await t.store.upsertUser(Fixtures.user(UserID("bob")))
            #expect(try await t.store.usersPendingRecompute().isEmpty)
            // A stored session marks its user; a duplicate or a quarantined record marks nobody.
            let s = SessionCandidate(session: Fixtures.session(), conflictQuarantine: Fixtures.quarantine())
            _ = try await t.store.apply(
                IngestUnit(sessions: [s], quarantine: [Fixtures.quarantine(key: "q", reason: "x", user: UserID("bob"))])
            )
            #expect(try await t.store.usersPendingRecompute() == [Fixtures.alice])
            try await t.store.clearPendingRecompute(Fixtures.alice, markedUpTo: Date().epochMillis + 1000)
            #expect(try await t.store.usersPendingRecompute().isEmpty)
            _ = try await t.store.apply(IngestUnit(sessions: [s]))
            #expect(try await t.store.usersPendingRecompute().isEmpty)
            // A newer workout version marks; a mark newer than the clear's cut-off stays.
            _ = try await t.store.apply(
                IngestUnit(workouts: [
                    WorkoutCandidate(
                        workout: Fixtures.workout(version: 5, user: UserID("bob")),
                        conflictQuarantine: Fixtures.quarantine())
                ]))
            try await t.store.clearPendingRecompute(UserID("bob"), markedUpTo: 0)
            #expect(try await t.store.usersPendingRecompute() == [UserID("bob")])
            // Deleting the user removes the mark with everything else.
            _ = try await t.store.deleteUser(
                UserID("bob"), userHash: String(repeating: "d", count: 64), requestedAt: 1, completedAt: 2)
            #expect(try await t.store.usersPendingRecompute().isEmpty)
        }
    }

    @Test(arguments: Backend.available) func jobRunsAreRecorded(_ backend: Backend) async throws {
        try await withTestStore(backend) { t in
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

    @Test(arguments: Backend.available) func aQuarantineRowWithoutReasonIsIgnoredNotFatal(_ backend: Backend)
        async throws
    {
        try await withTestStore(backend) { t in
            // SQLite's INSERT OR IGNORE skips a row breaking the reason CHECK; every backend answers the same.
            let result = try await t.store.apply(
                IngestUnit(quarantine: [Fixtures.quarantine(reason: ""), Fixtures.quarantine(reason: "x")]))
            #expect(result.quarantineAdded == 1)
            #expect(try await t.store.quarantineCountsByReason() == [.other("x"): 1])
        }
    }

    @Test(arguments: Backend.available) func identicalUnitsAppliedAtOnceApplyOnce(_ backend: Backend) async throws {
        try await withTestStore(backend) { t in
            try await t.store.upsertUser(Fixtures.user())
            let unit = IngestUnit(
                ledgerKey: "inbox:b.json", ledgerHash: "h",
                sessions: [SessionCandidate(session: Fixtures.session(), conflictQuarantine: Fixtures.quarantine())],
                workouts: [
                    WorkoutCandidate(workout: Fixtures.workout(version: 1), conflictQuarantine: Fixtures.quarantine())
                ],
                quarantine: [Fixtures.quarantine(key: "b.json#1", reason: "invalid_duration")], reportJSON: "{\"n\":1}")
            let store = t.store
            let results = try await withThrowingTaskGroup(of: IngestUnitResult.self) { group in
                for _ in 0..<4 { group.addTask { try await store.apply(unit) } }
                return try await group.reduce(into: [IngestUnitResult]()) { $0.append($1) }
            }
            let applied = results.filter { !$0.alreadyApplied }
            #expect(applied.count == 1)
            #expect(applied.first?.sessionOutcomes == [.stored])
            #expect(applied.first?.workoutOutcomes == [.inserted])
            #expect(results.filter(\.alreadyApplied).allSatisfy { $0.previousReportJSON == "{\"n\":1}" })
            let counts = try await store.tableCounts()
            #expect(
                counts["sessions"] == 1 && counts["workouts"] == 1 && counts["quarantine"] == 1
                    && counts["ingest_ledger"] == 1)
        }
    }

    @Test(arguments: Backend.available) func theSameRecordsRacingWithoutALedgerAreStoredOnce(_ backend: Backend)
        async throws
    {
        try await withTestStore(backend) { t in
            try await t.store.upsertUser(Fixtures.user())
            let unit = IngestUnit(
                sessions: [SessionCandidate(session: Fixtures.session(), conflictQuarantine: Fixtures.quarantine())],
                workouts: [
                    WorkoutCandidate(workout: Fixtures.workout(version: 1), conflictQuarantine: Fixtures.quarantine())
                ])
            let store = t.store
            let results = try await withThrowingTaskGroup(of: IngestUnitResult.self) { group in
                for _ in 0..<6 { group.addTask { try await store.apply(unit) } }
                return try await group.reduce(into: [IngestUnitResult]()) { $0.append($1) }
            }
            #expect(
                results.flatMap(\.sessionOutcomes).sorted { $0.rawValue < $1.rawValue } == [
                    .duplicate, .duplicate, .duplicate, .duplicate, .duplicate, .stored,
                ])
            #expect(results.flatMap(\.workoutOutcomes).filter { $0 == .inserted }.count == 1)
            #expect(results.flatMap(\.workoutOutcomes).filter { $0 == .duplicate }.count == 5)
            #expect(try await store.sessionCount(user: Fixtures.alice) == 1)
        }
    }

    @Test(arguments: Backend.available) func newerWorkoutVersionsRacingEndWithTheNewest(_ backend: Backend) async throws
    {
        try await withTestStore(backend) { t in
            try await t.store.upsertUser(Fixtures.user())
            let store = t.store
            func unit(_ version: Int64) -> IngestUnit {
                IngestUnit(workouts: [
                    WorkoutCandidate(
                        workout: Fixtures.workout(version: version, distance: Double(version)),
                        conflictQuarantine: Fixtures.quarantine(key: "w\(version)"))
                ])
            }
            _ = try await store.apply(unit(1))
            let outcomes = try await withThrowingTaskGroup(of: WorkoutOutcome.self) { group in
                for version in Int64(2)...9 {
                    group.addTask { try await store.apply(unit(version)).workoutOutcomes[0] }
                }
                return try await group.reduce(into: [WorkoutOutcome]()) { $0.append($1) }
            }
            #expect(outcomes.allSatisfy { $0 == .updated || $0 == .stale })
            #expect(outcomes.contains(.updated))
            let stored = try await store.workouts(user: Fixtures.alice, includeDeleted: true)
            #expect(stored.map(\.updatedAt) == [9])
            #expect(stored.first?.distanceM == 9)
        }
    }

    @Test(arguments: Backend.available) func plansAppendedAtOnceGetDistinctVersions(_ backend: Backend) async throws {
        try await withTestStore(backend) { t in
            try await t.store.upsertUser(Fixtures.user())
            let store = t.store
            let versions = try await withThrowingTaskGroup(of: Int.self) { group in
                for i in 0..<8 {
                    group.addTask {
                        try await store.appendPlan(
                            user: Fixtures.alice, generatedAt: Int64(i), state: .ready, documentJSON: "{}")
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(versions.sorted() == Array(1...8))
            #expect(try await store.planVersions(user: Fixtures.alice).map(\.version) == Array(1...8))
        }
    }

    @Test(arguments: Backend.available) func rewritingTheSameUserLeavesTheDigestUnchanged(_ backend: Backend)
        async throws
    {
        try await withTestStore(backend) { t in
            // The digest is the rerun check: writing the same profile again (goal race JSON included) changes nothing.
            try await t.store.upsertUser(Fixtures.user())
            let digest = try await t.store.contentDigest()
            var changedAgain = 0
            for _ in 0..<20 {
                try await t.store.upsertUser(Fixtures.user())
                if try await t.store.contentDigest() != digest { changedAgain += 1 }
            }
            #expect(changedAgain == 0)
        }
    }
}
