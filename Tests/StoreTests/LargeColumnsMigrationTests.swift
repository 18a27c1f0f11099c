import Foundation
import GRDB
import Store
import Testing

@testable import StoreSQLite

/// Migration 0018 on a SQLite store that already holds data: the recordings and workout samples move to the end of
/// their rows, and nothing else changes — every value of every row, the metrics that cascade from the rebuilt tables,
/// the indexes, the sync-log triggers and the foreign keys.
@Suite struct LargeColumnsMigrationTests {
    static let before = "0017_sync_log_statement_triggers"

    /// Every row of `table`, each column by name, in key order.
    static func rows(_ db: Database, _ table: String, orderBy: String) throws -> [[String: DatabaseValue]] {
        try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY \(orderBy)").map { row in
            Dictionary(uniqueKeysWithValues: row.columnNames.map { ($0, row[$0] as DatabaseValue) })
        }
    }

    static func snapshot(_ db: Database) throws -> [String: [[String: DatabaseValue]]] {
        [
            "sessions": try rows(db, "sessions", orderBy: "user_id, session_id"),
            "session_metrics": try rows(db, "session_metrics", orderBy: "user_id, session_id"),
            "workouts": try rows(db, "workouts", orderBy: "user_id, workout_id"),
            "workout_metrics": try rows(db, "workout_metrics", orderBy: "user_id, workout_id"),
            "sync_log": try rows(db, "sync_log", orderBy: "position"),
        ]
    }

    /// The indexes and triggers of the two rebuilt tables, as SQL.
    static func schemaObjects(_ db: Database) throws -> [String] {
        try String.fetchAll(
            db,
            sql: """
                SELECT type || ' ' || name || ': ' || sql FROM sqlite_master
                WHERE tbl_name IN ('sessions', 'workouts') AND type IN ('index', 'trigger') AND sql IS NOT NULL
                ORDER BY type, name
                """)
    }

    static func columns(_ db: Database, _ table: String) throws -> [String] {
        try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { $0["name"] }
    }

    @Test func recordingsAndSamplesMoveLastAndEveryValueStays() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path
        var config = Configuration()
        config.foreignKeysEnabled = true
        let pool = try DatabasePool(path: path, configuration: config)
        try SQLiteStore.migrator().migrate(pool, upTo: Self.before)

        // A recording of 100 KB (dozens of overflow pages) and 300 KB of samples, values that are not all alike.
        var state: UInt64 = 7
        let recording = Data(
            (0..<100_000).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return UInt8(truncatingIfNeeded: state >> 56)
            })
        let samples =
            "[" + (0..<10_000).map { "{\"t\":\($0),\"power_w\":\(150 + $0 % 97)}" }.joined(separator: ",") + "]"
        try pool.write { db in
            try db.execute(sql: "INSERT INTO users (user_id, time_zone, created_at_ms) VALUES ('alice', 'UTC', 1)")
            for (id, blob, machine, status) in [
                ("s1", recording as Data?, "indoorBike" as String?, "complete"), ("s2", nil, nil, "none"),
            ] {
                try db.execute(
                    sql: """
                        INSERT INTO sessions (user_id, session_id, started_at_text, ended_at_text, started_at_ms, ended_at_ms,
                            duration_s, total_energy_kcal, total_distance_m, detail_json, raw_blob, machine, blob_status,
                            blob_note, content_sha256, source, received_at_ms)
                        VALUES ('alice', ?, '2026-11-01T10:00:00Z', '2026-11-01T11:00:00Z', 1000, 3601000, 3600, 500.5,
                            30000, '{"avg_hr":140}', ?, ?, ?, ?, ?, 'app', 5000)
                        """,
                    arguments: [
                        id, blob, machine, status, id == "s1" ? nil : "no recording", String(repeating: "c", count: 64),
                    ])
            }
            try db.execute(
                sql: """
                    INSERT INTO session_metrics (user_id, session_id, local_date, sport, duration_s, metrics_json, computed_at_ms)
                    VALUES ('alice', 's1', '2026-11-01', 'bike', 3600, '{"np_w":210}', 6000)
                    """)
            for (id, json) in [("w1", samples as String?), ("w2", nil)] {
                try db.execute(
                    sql: """
                        INSERT INTO workouts (user_id, workout_id, source, activity_type, start_ms, end_ms, duration_s,
                            distance_m, energy_kcal, time_zone, samples_json, updated_at_ms, deleted, content_sha256)
                        VALUES ('alice', ?, 'garmin_fit', 'running', 10000000, 13600000, 3600, 10000, 700, 'Europe/Berlin',
                            ?, 7, ?, 'hash')
                        """, arguments: [id, json, id == "w2" ? 1 : 0])
            }
            try db.execute(
                sql: """
                    INSERT INTO workout_metrics (user_id, workout_id, workout_updated_at_ms, local_date, activity_type, basis,
                        duration_s, metrics_json, computed_at_ms)
                    VALUES ('alice', 'w1', 7, '2026-11-01', 'running', 'samples', 3600, '{}', 8000)
                    """)
        }
        let (dataBefore, objectsBefore) = try pool.read { db in (try Self.snapshot(db), try Self.schemaObjects(db)) }
        #expect(dataBefore["session_metrics"]?.count == 1 && dataBefore["workout_metrics"]?.count == 1)
        #expect(dataBefore["sync_log"]?.isEmpty == false)

        try SQLiteStore.migrator().migrate(pool, upTo: Migration0018LargeColumnsLast.identifier)

        let (dataAfter, objectsAfter, sessionColumns, workoutColumns, violations) = try pool.read { db in
            (
                try Self.snapshot(db), try Self.schemaObjects(db), try Self.columns(db, "sessions"),
                try Self.columns(db, "workouts"), try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").count
            )
        }
        for table in dataBefore.keys.sorted() {
            // Compared as a whole, reported by table and row count (the rows themselves are 400 KB of text).
            let same = dataAfter[table] == dataBefore[table]
            #expect(
                same, "\(table): \(dataBefore[table]?.count ?? 0) rows before, \(dataAfter[table]?.count ?? 0) after")
        }
        #expect(objectsAfter == objectsBefore)
        #expect(sessionColumns.last == "raw_blob" && sessionColumns.count == 17)
        #expect(workoutColumns.last == "samples_json" && workoutColumns.count == 17)
        #expect(violations == 0)
        // The rebuilt tables' triggers and cascades work: a new session is logged; deleting the user removes all.
        let (positions, logged, left) = try pool.write { db in
            let before = try Int.fetchOne(db, sql: "SELECT position FROM sync_state")
            try db.execute(
                sql: """
                    INSERT INTO sessions (user_id, session_id, started_at_text, ended_at_text, started_at_ms, ended_at_ms,
                        duration_s, total_energy_kcal, total_distance_m, detail_json, blob_status, content_sha256, source,
                        received_at_ms)
                    VALUES ('alice', 's3', 'a', 'b', 1, 2, 1, 0, 0, '{}', 'none', ?, 'app', 3)
                    """, arguments: [String(repeating: "d", count: 64)])
            let after = try Int.fetchOne(db, sql: "SELECT position FROM sync_state")
            let logged = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sync_log WHERE item_id = 's3'")
            try db.execute(sql: "DELETE FROM users")
            var left = 0
            for table in ["sessions", "session_metrics", "workouts", "workout_metrics"] {
                left += try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0
            }
            return ((before, after), logged, left)
        }
        #expect(positions.1 == positions.0.map { $0 + 1 })
        #expect(logged == 1)
        #expect(left == 0)
        // 0019 then drops the insert triggers of sessions and workouts (the store's insert functions log instead).
        try SQLiteStore.migrator().migrate(pool)
        let objectsLatest = try pool.read { db in try Self.schemaObjects(db) }
        #expect(
            objectsLatest
                == objectsBefore.filter {
                    !$0.hasPrefix("trigger sessions_sync_insert:") && !$0.hasPrefix("trigger workouts_sync_insert:")
                })
        try pool.close()
        // Opening the migrated file as a store applies nothing again.
        let completed = try DatabaseQueue(path: path).read { try SQLiteStore.migrator().hasCompletedMigrations($0) }
        #expect(completed)
    }
}
