import Foundation
import Store
import StoreSQLite
import SyntheticData
import Testing

@testable import Ingest

@Suite struct InboxTests {
    func write(_ text: String, _ relative: String, in root: URL) throws {
        let url = root.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    @Test func lineReaderBoundsMemoryAndReportsOverlongLines() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lines-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let long = String(repeating: "x", count: 5000)
        try write("a\n\(long)\nbc\nlast", "f.ndjson", in: dir)
        let lines = Array(try LineReader(url: dir.appendingPathComponent("f.ndjson"), maxLineBytes: 100, chunkSize: 64))
        #expect(lines.count == 4)
        #expect(lines[0] == .line(number: 1, bytes: Array("a".utf8)))
        guard case .tooLong(let n, let prefix, let length) = lines[1] else { Issue.record("expected tooLong"); return }
        #expect(n == 2)
        #expect(length == 5000)
        #expect(prefix.count <= 4096 && !prefix.isEmpty)
        #expect(lines[2] == .line(number: 3, bytes: Array("bc".utf8)))
        #expect(lines[3] == .line(number: 4, bytes: Array("last".utf8)))
    }

    /// The inbox's listing (`InboxIngestor.listFiles`): users, each user's session files, workouts, then workout
    /// files; within a folder in name order (Swift's string order, written out here by hand); JSON and NDJSON only
    /// outside `files/` (an upper-case extension is not one of them), where every visible regular file counts; a
    /// file where a user's folder is expected, a hidden file and a folder inside a user's `files/` are left out.
    @Test func theListingIsInNameOrderWithKindsAndExtensions() throws {
        let inbox = FileManager.default.temporaryDirectory.appendingPathComponent("listing-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: inbox) }
        for relative in [
            "users/b.json", "users/a.json", "users/notes.txt", "users/c.JSON",
            "sessions/u2/20261101T000000Z-b.json", "sessions/u2/20261101T000000Z-a.ndjson",
            "sessions/u1/z.json", "sessions/u1/a b.json", "sessions/u1/\u{E4}.json", "sessions/u1/readme.md",
            "sessions/notadir.json", "workouts/w.ndjson", "workouts/v.json", "files/u1/ride.fit", "files/u1/.hidden",
            "files/u1/sub/inner.fit",
        ] {
            try write("{}", relative, in: inbox)
        }
        let listed = try InboxIngestor.listFiles(inbox)
        let expected: [(String, InboxIngestor.FileKind, Bool)] = [
            ("users/a.json", .users, false), ("users/b.json", .users, false),
            ("sessions/u1/a b.json", .sessions(UserID("u1")), false),
            ("sessions/u1/z.json", .sessions(UserID("u1")), false),
            ("sessions/u1/\u{E4}.json", .sessions(UserID("u1")), false),
            ("sessions/u2/20261101T000000Z-a.ndjson", .sessions(UserID("u2")), true),
            ("sessions/u2/20261101T000000Z-b.json", .sessions(UserID("u2")), false),
            ("workouts/v.json", .workouts, false), ("workouts/w.ndjson", .workouts, true),
            ("files/u1/ride.fit", .files(UserID("u1")), false),
        ]
        #expect(listed.map(\.relative) == expected.map(\.0))
        #expect(listed.map(\.kind) == expected.map(\.1))
        #expect(listed.map(\.ndjson) == expected.map(\.2))
        #expect(listed.map { $0.url.path } == expected.map { inbox.appendingPathComponent($0.0).path })
    }

    @Test func inboxWithUsersSessionsWorkoutsAndHostileFiles() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("inbox-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let inbox = root.appendingPathComponent("inbox")
        try write(
            "{\"users\": [{\"user_id\": \"u1\", \"time_zone\": \"Asia/Tokyo\", \"profile\": {\"available_days\": [\"mon\"]}, \"created_at_ms\": 0},"
                + "{\"user_id\": \"u2\", \"time_zone\": \"Mars/Olympus\", \"profile\": {\"available_days\": []}, \"created_at_ms\": 0}]}",
            "users/users.json", in: inbox)
        try write(batch([sessionJSON()]), "sessions/u1/20251224T120000Z-1.json", in: inbox)
        try write(
            batch([sessionJSON(id: "0d9a7c1e-0000-4000-8000-000000000001")]) + "\n" + "{broken\n",
            "sessions/u1/20251224T120000Z-2.ndjson", in: inbox)
        // A hostile file: larger than the limit; refused without being read.
        try write(String(repeating: " ", count: 3000) + batch([]), "sessions/u1/20251224T120000Z-3.json", in: inbox)
        let workout = { (version: String, distance: Int) in
            "{\"id\": \"hk-1\", \"user_id\": \"u1\", \"source\": \"apple_health\", \"activity_type\": \"running\", "
                + "\"start\": \"2025-12-24T08:00:00Z\", \"end\": \"2025-12-24T09:00:00Z\", \"duration_s\": 3600, "
                + "\"distance_m\": \(distance), \"updated_at\": \"\(version)\"}"
        }
        let tombstone =
            "{\"id\": \"hk-1\", \"user_id\": \"u1\", \"source\": \"apple_health\", \"deleted\": true, \"updated_at\": \"2025-12-24T12:00:00Z\"}"
        try write(
            [
                workout("2025-12-24T10:00:00Z", 10000), workout("2025-12-24T11:00:00Z", 9900),
                workout("2025-12-24T10:00:00Z", 10000),
                tombstone, workout("2025-12-24T11:30:00Z", 9950), "{\"id\": 5}", "not json",
            ].joined(separator: "\n"),
            "workouts/20251224T130000Z-w.ndjson", in: inbox)

        let store = try SQLiteStore(path: root.appendingPathComponent("db.sqlite").path)
        var limits = IngestLimits()
        limits.maxBatchBytes = 2048
        let ingestor = InboxIngestor(store: store, limits: limits, clock: PipelineClock(now: { 1_766_577_600_000 }))
        let report = try await ingestor.ingest(inbox: inbox)
        #expect(report.addsUp)
        #expect(report.users.stored == 1)
        #expect(report.users.quarantinedByReason == [.rejected(.invalidUser): 1])
        #expect(report.batches.received == 4)
        #expect(report.batches.quarantinedByReason == [.rejected(.malformedJSON): 1, .rejected(.payloadTooLarge): 1])
        #expect(report.sessions.stored == 2)
        #expect(report.workouts.received == 7)
        #expect(report.workouts.stored == 3) // v1, v2, tombstone
        #expect(report.workouts.stale == 2) // the late v1 copy and the copy older than the tombstone
        #expect(report.workouts.quarantined == 2)
        #expect(try await store.workouts(user: UserID("u1"), includeDeleted: false).isEmpty)
        let refused = try await store.quarantined(reason: .rejected(.payloadTooLarge), offset: 0, limit: 1)
        #expect(refused.first?.payload.count == 3000 + batch([]).utf8.count) // small enough here to keep whole

        // The same inbox again: every file recognised, nothing changes.
        let digest = try await store.contentDigest()
        let again = try await ingestor.ingest(inbox: inbox)
        #expect(again.addsUp)
        #expect(again.sessions.received == 0)
        #expect(again.batches.duplicates == again.batches.received)
        #expect(try await store.contentDigest() == digest)
    }
}

struct InjectedCrash: Error {}

@Suite struct CrashRecoveryTests {
    /// A run that dies between files, at every possible point, then a rerun: the store ends exactly as after one
    /// clean run — nothing lost, nothing counted twice.
    @Test func aRunKilledBetweenRecordsFinishesOnRerunWithTheCleanResult() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("crash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let inbox = root.appendingPathComponent("inbox")
        func write(_ text: String, _ relative: String) throws {
            let url = inbox.appendingPathComponent(relative)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        try write(
            "{\"users\": [{\"user_id\": \"u1\", \"time_zone\": \"UTC\", \"profile\": {\"available_days\": []}, \"created_at_ms\": 0}]}",
            "users/u.json")
        for i in 0..<6 {
            let id = String(format: "6f1c2a9e-3b7d-4c1e-9f0a-%012d", i)
            try write(
                batch([sessionJSON(id: id), sessionJSON(id: id, duration: 0)]),
                "sessions/u1/20251224T12000\(i)Z-\(i).json")
        }
        for w in 0..<2 {
            try write(
                (0..<3).map { n in
                    "{\"id\": \"hk-\(w)-\(n)\", \"user_id\": \"u1\", \"source\": \"apple_health\", \"activity_type\": \"running\", "
                        + "\"start\": \"2025-12-2\(n)T08:00:00Z\", \"end\": \"2025-12-2\(n)T09:00:00Z\", \"duration_s\": 3600, "
                        + "\"updated_at\": \"2025-12-24T10:00:00Z\"}"
                }.joined(separator: "\n"), "workouts/\(w).ndjson")
        }
        let now: @Sendable () -> Int64 = { 1_766_577_600_000 }
        let clean = try SQLiteStore(path: root.appendingPathComponent("clean.sqlite").path)
        var cleanIngestor = InboxIngestor(store: clean, clock: PipelineClock(now: now))
        cleanIngestor.recordsPerUnit = 2
        let cleanReport = try await cleanIngestor.ingest(inbox: inbox)
        #expect(cleanReport.sessions.stored == 6)
        #expect(cleanReport.workouts.stored == 6)
        let expected = try await clean.contentDigest()

        // Files are 1 user file, 6 session files and 2 workout record files; with the record files beside the session
        // files (`recordFilesBesideSessions`) the crash before a record file comes at any point of the session files.
        for beside in [false, true] {
            for crashAt in 1...9 {
                let store = try SQLiteStore(
                    path: root.appendingPathComponent("crash-\(crashAt)-\(beside).sqlite").path)
                var ingestor = InboxIngestor(store: store, clock: PipelineClock(now: now))
                ingestor.recordsPerUnit = 2
                ingestor.recordFilesBesideSessions = beside
                let counter = Counter()
                ingestor.faultHook = { _ in if counter.next() == crashAt { throw InjectedCrash() } }
                await #expect(throws: InjectedCrash.self) { _ = try await ingestor.ingest(inbox: inbox) }
                ingestor.faultHook = nil
                let rerun = try await ingestor.ingest(inbox: inbox)
                #expect(rerun.addsUp)
                #expect(try await store.contentDigest() == expected, "crash before file \(crashAt), beside \(beside)")
            }
        }
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int { lock.lock(); defer { lock.unlock() }; value += 1; return value }
}

@Suite struct PrepareAheadTests {
    /// However many batch files are prepared ahead, the store and the report end the same: commits stay in file
    /// order (a session repeated in a later file is the duplicate, a changed copy the conflict).
    @Test func resultDoesNotDependOnHowFarAheadFilesArePrepared() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("ahead-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let inbox = root.appendingPathComponent("inbox")
        func write(_ text: String, _ relative: String) throws {
            let url = inbox.appendingPathComponent(relative)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        try write(
            "{\"users\": [{\"user_id\": \"u1\", \"time_zone\": \"UTC\", \"profile\": {\"available_days\": []}, \"created_at_ms\": 0},"
                + "{\"user_id\": \"u2\", \"time_zone\": \"UTC\", \"profile\": {\"available_days\": []}, \"created_at_ms\": 0}]}",
            "users/u.json")
        let raw = Data(specExampleBlob).base64EncodedString()
        let id = { (n: Int) in String(format: "6f1c2a9e-3b7d-4c1e-9f0a-%012d", n) }
        try write(
            batch([sessionJSON(id: id(1), raw: raw), sessionJSON(id: id(2))]), "sessions/u1/20251224T120001Z-a.json")
        try write(
            batch([sessionJSON(id: id(1), raw: raw), sessionJSON(id: id(3), duration: 0)]),
            "sessions/u1/20251224T120002Z-b.json")
        try write(
            batch([sessionJSON(id: id(2), energy: 260)]) + "\n{oops\n" + batch([sessionJSON(id: id(4))]),
            "sessions/u1/20251224T120003Z-c.ndjson")
        try write("{\"sessions\": [", "sessions/u1/20251224T120004Z-d.json")
        try write(batch([sessionJSON(id: id(5), raw: raw)]), "sessions/u1/20251224T120005Z-e.json")
        try write(batch([sessionJSON(id: id(1))]), "sessions/u2/20251224T120006Z-f.json")
        try write(batch([sessionJSON(id: id(1), energy: 1)]), "sessions/u2/20251224T120007Z-g.json")
        func workout(_ id: String, user: String = "u1", updated: String = "10:00:00", duration: Int = 3600) -> String {
            "{\"id\": \"\(id)\", \"user_id\": \"\(user)\", \"source\": \"apple_health\", \"activity_type\": \"running\", "
                + "\"start\": \"2025-12-24T08:00:00Z\", \"end\": \"2025-12-24T09:00:00Z\", \"duration_s\": \(duration), "
                + "\"updated_at\": \"2025-12-24T\(updated)Z\"}"
        }
        // Two workout record files after the session files: stored, updated, repeated, changed at the same version
        // (a conflict), stale, an unknown user and a broken line, across units and files.
        try write(
            [
                workout("hk-1"), workout("hk-2", user: "u2"), workout("hk-1"), "{nope", workout("hk-3", user: "u9"),
                workout("hk-2", user: "u2", updated: "11:00:00", duration: 3000),
            ].joined(separator: "\n"), "workouts/w1.ndjson")
        try write(
            [workout("hk-1", duration: 1200), workout("hk-2", user: "u2"), workout("hk-4")].joined(separator: "\n"),
            "workouts/w2.ndjson")

        var results: [(IngestReport, String)] = []
        // Read-ahead, and groups of one file committed up to three at a time, side by side when they have no user in
        // common (`parallelCommits`), with the workout record files after the session files or beside them
        // (`recordFilesBesideSessions`), in units of 500 records or of one: the same outcomes as one file after the
        // other.
        for (n, (ahead, groupFiles, inFlight, parallel, beside, unit)) in [
            (0, 32, 1, false, false, 500), (1, 32, 1, false, false, 500), (2, 32, 1, false, false, 500),
            (5, 32, 1, false, false, 500), (5, 1, 3, false, false, 500), (5, 1, 3, true, false, 500),
            (2, 2, 2, true, false, 500), (5, 32, 2, false, true, 500), (0, 1, 1, false, true, 1),
            (5, 1, 3, false, true, 2),
            // Side by side with groups ended at the change of user (`endsGroup`): u1's files a–d, e, then u2's f and g.
            (5, 4, 4, true, false, 500), (1, 32, 4, true, false, 500), (3, 8, 2, true, true, 1),
        ].enumerated() {
            let store = try SQLiteStore(path: root.appendingPathComponent("db-\(n).sqlite").path)
            var ingestor = InboxIngestor(store: store, clock: PipelineClock(now: { 1_766_577_600_000 }))
            ingestor.prepareAhead = ahead
            ingestor.groupFiles = groupFiles
            ingestor.groupsInFlight = inFlight
            ingestor.parallelCommits = parallel
            ingestor.recordFilesBesideSessions = beside
            ingestor.recordsPerUnit = unit
            let report = try await ingestor.ingest(inbox: inbox)
            #expect(report.addsUp)
            results.append((report, try await store.contentDigest()))
            // Run again: every file recognised, nothing changes.
            let again = try await ingestor.ingest(inbox: inbox)
            #expect(again.addsUp)
            #expect(again.sessions.received == 0 && again.workouts.stored == 0)
            #expect(try await store.contentDigest() == results.last!.1)
        }
        let (first, digest) = results[0]
        #expect(first.sessions.stored == 5) // ids 1, 2, 4, 5 for u1; id 1 for u2
        #expect(first.sessions.duplicates == 1) // id 1 again in b
        #expect(first.sessions.quarantinedByReason == [.rejected(.conflict): 2, .rejected(.invalidDuration): 1])
        #expect(first.batches.quarantinedByReason == [.rejected(.malformedJSON): 2])
        #expect(first.workouts.received == 9)
        #expect(first.workouts.stored == 4) // hk-1, hk-2, hk-2 at 11:00, hk-4
        #expect(first.workouts.duplicates == 1) // hk-1 again in w1
        #expect(first.workouts.stale == 1) // hk-2 at 10:00 in w2
        #expect(
            first.workouts.quarantinedByReason == [
                .rejected(.conflict): 1, .rejected(.malformedJSON): 1, .rejected(.unknownUser): 1,
            ])
        for (report, d) in results.dropFirst() {
            #expect(d == digest)
            #expect(report.sessions == first.sessions)
            #expect(report.batches == first.batches)
            #expect(report.workouts == first.workouts)
            #expect(report.touchedUsers == first.touchedUsers)
        }
    }

    /// Groups that commit side by side end at a change of user once they hold a quarter of either limit, and never
    /// otherwise before a limit.
    @Test func groupsEndAtAChangeOfUserOnceAQuarterFull() {
        let (u1, u2) = (UserID("u1"), UserID("u2"))
        func ends(_ last: UserID?, files: Int, sessions: Int, next: UserID) -> Bool {
            InboxIngestor.endsGroup(
                lastUser: last, files: files, sessions: sessions, nextUser: next, groupFiles: 32, groupSessions: 64)
        }
        #expect(!ends(nil, files: 0, sessions: 0, next: u1)) // an empty group takes any file
        #expect(!ends(u1, files: 31, sessions: 63, next: u1)) // the same user: only the limits end it
        #expect(!ends(u1, files: 7, sessions: 15, next: u2)) // under a quarter of both limits
        #expect(ends(u1, files: 8, sessions: 1, next: u2)) // a quarter of the files
        #expect(ends(u1, files: 1, sessions: 16, next: u2)) // a quarter of the sessions
    }

    @Test func readFileReadsWholeFiles() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("read-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var rng = SeededRandom(seed: 5)
        for size in [0, 1, 4095, 65_536, 1_000_003] {
            let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let url = dir.appendingPathComponent("f\(size)")
            try Data(bytes).write(to: url)
            #expect(try InboxIngestor.readFile(url) == bytes)
        }
        #expect(throws: (any Error).self) { try InboxIngestor.readFile(dir.appendingPathComponent("missing")) }
    }
}
