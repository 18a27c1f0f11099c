import Foundation
import Store
import TestKit
import Testing

@testable import StorePostgres

/// What only the PostgreSQL store has: its URL configuration, its behaviour without a server, migrations racing from
/// two processes, and the digest agreeing with SQLite's on the same contents.
@Suite struct PostgresStoreTests {
    @Test func urlGivesEveryPartAndTheDescriptionHidesThePassword() throws {
        let c = try PostgresStore.Configuration(
            url: "postgres://pipe%40line:s3cr%2Ft@db.example:6543/workouts?sslmode=require&pool_max=4",
            environment: [:])
        #expect(c.username == "pipe@line")
        #expect(c.password == "s3cr/t")
        #expect(c.host == "db.example")
        #expect(c.port == 6543)
        #expect(c.database == "workouts")
        #expect(c.tls == .require)
        #expect(c.maximumConnections == 4)
        #expect(!c.description.contains("s3cr"))
        #expect(c.with(database: "other").database == "other")
    }

    @Test func passwordComesFromPGPASSWORDWhenTheURLHasNone() throws {
        let c = try PostgresStore.Configuration(
            url: "postgresql://worker@127.0.0.1/pipeline", environment: ["PGPASSWORD": "from-env"])
        #expect(c.password == "from-env")
        #expect(c.port == 5432)
        #expect(c.tls == .disable)
        let inURL = try PostgresStore.Configuration(
            url: "postgres://worker:in-url@127.0.0.1/pipeline", environment: ["PGPASSWORD": "from-env"])
        #expect(inURL.password == "in-url")
        #expect(
            try PostgresStore.Configuration(url: "postgres://worker@127.0.0.1/pipeline", environment: [:]).password
                == nil)
    }

    @Test(arguments: [
        "mysql://u@h/db", "postgres://h/db", "postgres://u@h", "postgres://u@h/", "postgres://u@h/db?sslmode=maybe",
        "postgres://u@h/db?pool_max=0", "postgres://u@h/db?color=red", "not a url", "/var/db.sqlite",
    ])
    func badURLsAreRefusedWithAConfigurationError(_ url: String) {
        #expect {
            _ = try PostgresStore.Configuration(url: url, environment: [:])
        } throws: { ($0 as? StoreError)?.code == .invalidConfiguration }
    }

    @Test func connectingToNoServerFailsWithinTheTimeout() async throws {
        // Port 1 on the loopback: nothing listens there.
        var configuration = try PostgresStore.Configuration(url: "postgres://nobody@127.0.0.1:1/none", environment: [:])
        configuration.connectTimeout = .seconds(2)
        let clock = ContinuousClock()
        let started = clock.now
        await #expect {
            _ = try await PostgresStore.connect(configuration: configuration, logger: PostgresTestDatabase.logger)
        } throws: { ($0 as? StoreError)?.code == .io }
        // A bound against hanging, not a speed test: a loaded machine (the parallel test runner's other suites on two
        // cores, builds beside it) took 15–20 s, once 64.8 s at load 4.5; a hang is for ever.
        #expect(clock.now - started < .seconds(180))
        // With the pool alone (no probe), the store still gives up after the timeout instead of waiting for ever.
        let store = PostgresStore(configuration: configuration, logger: PostgresTestDatabase.logger)
        store.start()
        await #expect {
            try await store.migrate()
        } throws: { ($0 as? StoreError)?.detail.contains("no answer") == true }
        await store.shutdown()
    }

    @Test(.enabled(if: TestPostgres.included, "PIPELINE_TEST_POSTGRES_URL is not set"))
    func aMissingDatabaseIsReportedAsSuchNotAsATimeout() async throws {
        let configuration = try PostgresTestDatabase.adminConfiguration().with(
            database: "no_such_database_\(UUID().uuidString.prefix(8))")
        await #expect {
            _ = try await PostgresStore.connect(configuration: configuration, logger: PostgresTestDatabase.logger)
        } throws: { error in
            guard let error = error as? StoreError else { return false }
            return error.code == .io && error.detail.contains("3D000") && !error.detail.contains("no answer")
        }
    }

    @Test(.enabled(if: TestPostgres.included, "PIPELINE_TEST_POSTGRES_URL is not set"))
    func twoProcessesMigratingAtOnceApplyEachMigrationOnce() async throws {
        try await PostgresTestDatabase.with { configuration in
            let logger = PostgresTestDatabase.logger
            let stores = try await withThrowingTaskGroup(of: PostgresStore.self) { group in
                for _ in 0..<3 {
                    group.addTask { try await PostgresStore.connect(configuration: configuration, logger: logger) }
                }
                return try await group.reduce(into: [PostgresStore]()) { $0.append($1) }
            }
            for store in stores {
                #expect(
                    try await store.appliedMigrations() == [
                        "0001_initial", "0002_indexes", "0003_pending_recompute", "0004_training_load",
                        "0005_work_leases", "0006_change_notify", "0007_ledger_stamp", "0010_job_run_owner",
                        "0011_secrets", "0012_sync_log", "0014_workout_file_sources", "0015_quarantine_lz4",
                        "0017_sync_log_statement_triggers", "0018_large_columns_last", "0019_sync_log_from_inserts",
                        "0020_compressed_recordings", "0021_stored_samples", "0022_recording_columns",
                    ])
            }
            try await stores[0].upsertUser(Fixtures.user())
            #expect(try await stores[1].userIDs() == [Fixtures.alice])
            for store in stores { await store.shutdown() }
        }
    }

    @Test(.enabled(if: TestPostgres.included, "PIPELINE_TEST_POSTGRES_URL is not set"))
    func theSameContentsGiveTheSameDigestOnBothBackends() async throws {
        try await withTestStore(.sqlite) { sqlite in
            try await withTestStore(.postgres) { postgres in
                for t in [sqlite, postgres] { try await Self.populate(t.store) }
                let (a, b) = (try await sqlite.store.contentDigest(), try await postgres.store.contentDigest())
                #expect(a == b)
                #expect(try await sqlite.store.tableCounts() == (try await postgres.store.tableCounts()))
                // And a change on one side shows.
                try await postgres.store.recordAppStats(user: UserID("bob"), stats: .empty, at: 5)
                #expect(try await postgres.store.contentDigest() != a)
            }
        }
    }

    /// Rows in every domain table: nulls, reals, blobs, a tombstone, quarantine, a deletion audit.
    static func populate(_ store: any PipelineStore) async throws {
        var bob = Fixtures.user(UserID("bob"), zone: "Asia/Tokyo")
        bob.profile = TrainingProfile()
        try await store.upsertUser(Fixtures.user())
        try await store.upsertUser(bob)
        try await store.upsertUser(Fixtures.user(UserID("carol")))
        var noBlob = Fixtures.session(
            "5f0c3a4e-1b2d-4c3e-8f9a-0a1b2c3d4e5f", user: UserID("bob"), duration: 1234.5, raw: nil)
        noBlob.blobNote = "no recording"
        _ = try await store.apply(
            IngestUnit(
                ledgerKey: "inbox:x.json", ledgerHash: "h",
                sessions: [
                    SessionCandidate(session: Fixtures.session(), conflictQuarantine: Fixtures.quarantine()),
                    SessionCandidate(session: noBlob, conflictQuarantine: Fixtures.quarantine()),
                ],
                workouts: [
                    WorkoutCandidate(workout: Fixtures.workout(version: 1), conflictQuarantine: Fixtures.quarantine()),
                    WorkoutCandidate(
                        workout: Fixtures.workout("g-2", version: 7, deleted: true, distance: 0.1),
                        conflictQuarantine: Fixtures.quarantine()),
                ],
                quarantine: [
                    Fixtures.quarantine(key: "x.json#3", reason: "malformed_json", payload: "{\"é\":\"\\n\"", user: nil)
                ],
                reportJSON: "{}"))
        try await store.putSessionMetrics(
            SessionMetricsRecord(
                userID: Fixtures.alice, sessionID: Fixtures.session().sessionID,
                localDate: LocalDate(iso: "2025-12-24")!, sport: "bike",
                durationS: 1800,
                distanceM: 15000.25, energyKcal: nil, avgPowerW: 181.3, avgHRBpm: 140, tss: 1e-7,
                metricsJSON: "{\"np\":190}",
                flags: ["distance", "no_heart_rate"], computedAt: 9))
        try await store.putUserStats(UserStatsRecord(userID: Fixtures.alice, stats: .empty, computedAt: 1))
        _ = try await store.appendPlan(
            user: Fixtures.alice, generatedAt: 3, state: .ready, documentJSON: "{\"weeks\":[]}")
        _ = try await store.deleteUser(
            UserID("carol"), userHash: String(repeating: "d", count: 64), requestedAt: 10, completedAt: 11)
        let job = try await store.startJob("nightly", at: 1)
        try await store.finishJob(id: job, status: .succeeded, at: 2, countsJSON: "{}", watermark: nil)
    }

    /// The session insert's chunks: every row once, in order; at most 1,000 rows and at most `maxStatementBytes` of
    /// recordings per chunk, except a single row longer than that, which goes alone; no empty chunk. Over random sizes
    /// from empty recordings to several times the bound.
    @Test func sessionInsertChunksPartitionTheRowsWithinTheBounds() {
        let cap = PostgresStore.maxStatementBytes
        var generator = SystemRandomNumberGenerator()
        let shapes: [[Int]] = [
            [], [0], [cap], [cap + 1], [cap, 1], [1, cap], Array(repeating: 0, count: 2_500),
            Array(repeating: cap / 2, count: 5), Array(repeating: cap / 2 + 1, count: 5),
        ]
        let random = (0..<200).map { _ in
            (0..<Int.random(in: 0...1_500, using: &generator)).map { _ in
                [0, 1, 150_000, cap - 1, cap, cap * 3].randomElement(using: &generator)! / (Bool.random() ? 1 : 7)
            }
        }
        for sizes in shapes + random {
            let rows = Array(0..<sizes.count).map { $0 * 3 } // row numbers that are not their positions
            let chunks = PostgresStore.insertChunks(rows, bytes: { sizes[$0 / 3] })
            #expect(chunks.flatMap { $0 } == rows)
            for chunk in chunks {
                #expect(!chunk.isEmpty && chunk.count <= 1_000)
                let bytes = chunk.reduce(0) { $0 + sizes[$1 / 3] }
                #expect(bytes <= cap || chunk.count == 1, "\(chunk.count) rows, \(bytes) bytes")
            }
            // Maximal: a chunk ends only where the next row would break a bound.
            for (a, b) in zip(chunks, chunks.dropFirst()) {
                let bytes = a.reduce(0) { $0 + sizes[$1 / 3] } + sizes[b.first! / 3]
                #expect(a.count == 1_000 || bytes > cap)
            }
        }
    }

    /// A multi-row `VALUES` list: rows joined by commas, binds numbered from $1 row after row.
    @Test func valuesRowsNumberTheBindsRowAfterRow() {
        #expect(sqlValuesRow(0, columns: 1) == " ($1)")
        let three = (0..<3).map { sqlValuesRow($0, columns: 3) }.joined()
        #expect(three == " ($1, $2, $3), ($4, $5, $6), ($7, $8, $9)")
    }
}
