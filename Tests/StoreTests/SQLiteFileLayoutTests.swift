import Foundation
import GRDB
import Store
import Testing

@testable import StoreSQLite

/// How the SQLite store lays its files out for the recordings it mostly holds: 16 KiB pages in a new file (an
/// existing file keeps its own), and the write-ahead log copied into the file by a checkpoint beside the writer.
@Suite struct SQLiteFileLayoutTests {
    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Sessions of `user` with recordings of `bytes` random octets each, as one batch unit.
    static func unit(_ user: UserID, sessions: Int, bytes: Int) -> IngestUnit {
        var generator = SystemRandomNumberGenerator()
        let candidates = (0..<sessions).map { _ in
            SessionCandidate(
                session: Fixtures.session(
                    UUID().uuidString.lowercased(), user: user,
                    raw: (0..<bytes).map { _ in UInt8.random(in: 0...255, using: &generator) }),
                conflictQuarantine: Fixtures.quarantine())
        }
        return IngestUnit(sessions: candidates)
    }

    @Test func aNewStoreUses16KiBPagesAndAnExistingFileKeepsItsOwn() async throws {
        try await withTestStore(.sqlite) { t in
            guard case .sqlite(let store, _) = t.kind else { return }
            let pageSize = try await store.writer.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") }
            #expect(pageSize == 16384)
        }
        // A store created before (SQLite's default 4 KiB pages) opens, migrates and works with its own page size.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("layout-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("old.sqlite").path
        do {
            let queue = try DatabaseQueue(path: path)
            try await queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA page_size = 4096")
                try db.execute(sql: "CREATE TABLE earlier (x INTEGER)")
            }
        }
        let store = try SQLiteStore(path: path)
        try await store.upsertUser(Fixtures.user())
        _ = try await store.apply([Self.unit(Fixtures.alice, sessions: 3, bytes: 50_000)])
        let count = try await store.sessionCount(user: Fixtures.alice)
        #expect(count == 3)
        let pageSize = try await store.writer.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") }
        #expect(pageSize == 4096)
    }

    /// A transaction storing recordings keeps its statement journals (SQLite's copies of the pages each insert
    /// changes, for the sync-log triggers) in memory: no temporary file is opened, with people's data in it, under
    /// `/var/tmp` (`tempStorePragma`). Such a file stays open, unlinked, until the transaction ends.
    @Test func statementJournalsStayInMemory() async throws {
        try await withTestStore(.sqlite) { t in
            guard case .sqlite(let store, _) = t.kind else { return }
            try await store.upsertUser(Fixtures.user())
            let units = (0..<3).map { _ in Self.unit(Fixtures.alice, sessions: 4, bytes: 200_000) }
            let temporary = try await store.writer.write { db in
                for unit in units { _ = try SQLiteStore.applyUnit(unit, db) }
                let fm = FileManager.default
                return try fm.contentsOfDirectory(atPath: "/proc/self/fd").compactMap {
                    try? fm.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")
                }.filter { $0.contains("etilqs") }
            }
            #expect(temporary.isEmpty, "\(temporary)")
            #expect(try await store.sessionCount(user: Fixtures.alice) == 12)
            for connection in ["writer", "reader"] {
                let mode =
                    connection == "writer"
                    ? try await store.writer.write { db in try Int.fetchOne(db, sql: "PRAGMA temp_store") }
                    : try await store.writer.read { db in try Int.fetchOne(db, sql: "PRAGMA temp_store") }
                #expect(mode == 2, "\(connection)") // 2: MEMORY
            }
        }
    }

    /// Batches of recordings far below the writer's own automatic checkpoint (`backstopPages`, 64 MiB) reach the
    /// database file while the store is open: the background checkpoint copied them. (Without it they would stay in
    /// the log until the writer's backstop or the last connection's close.)
    @Test func largeWritesReachTheDatabaseFileThroughTheBackgroundCheckpoint() async throws {
        try await withTestStore(.sqlite) { t in
            guard case .sqlite(let store, let path) = t.kind else { return }
            let backstop = try await store.writer.write { db in try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") }
            #expect(backstop == WALCheckpointer.backstopPages)
            try await store.upsertUser(Fixtures.user())
            let before = Self.fileSize(path)
            // Both ways in: a nightly's group of batches, and one batch (an upload from the apps).
            for round in 0..<4 {
                let unit = Self.unit(Fixtures.alice, sessions: 10, bytes: 100_000)
                let results = round % 2 == 0 ? try await store.apply([unit]) : [try await store.apply(unit)]
                #expect(results.map(\.sessionOutcomes) == [Array(repeating: .stored, count: 10)])
            }
            // 4 MB of recordings, committed; the checkpoint runs after each commit, so wait for the last one.
            var grown = Self.fileSize(path) - before
            for _ in 0..<500 where grown < 4_000_000 {
                try await Task.sleep(for: .milliseconds(20))
                grown = Self.fileSize(path) - before
            }
            #expect(grown >= 4_000_000, "the database file grew by \(grown) bytes only")
            let count = try await store.sessionCount(user: Fixtures.alice)
            #expect(count == 40)
        }
    }

    /// A deletion right after large writes — a background checkpoint under way — still empties the log: the deleted
    /// person's recordings leave no byte in the files (`DeletionInTheFileTests` for the quiet case).
    @Test func aDeletionDuringABackgroundCheckpointStillEmptiesTheLog() async throws {
        try await withTestStore(.sqlite) { t in
            guard case .sqlite(let store, let path) = t.kind else { return }
            for round in 0..<5 {
                let user = UserID("runner-\(round)")
                try await store.upsertUser(Fixtures.user(user))
                let unit = Self.unit(user, sessions: 8, bytes: 100_000)
                let marker = Data(unit.sessions[0].session.raw!.prefix(64))
                _ = try await store.apply([unit])
                _ = try await store.deleteUser(
                    user, userHash: String(repeating: "\(round)", count: 64), requestedAt: 1, completedAt: 2)
                #expect(DeletionInTheFileTests.fileBytes(path).range(of: marker) == nil, "round \(round)")
            }
        }
    }
}
