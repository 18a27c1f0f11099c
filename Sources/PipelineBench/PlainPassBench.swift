import Foundation
import GRDB
import Ingest
import Logging
import PostgresNIO
import StorePostgres
import StoreSQLite

/// The floor of the nightly benchmark (`Benchmarks/nightly.sh`): the least work that takes an inbox's session
/// uploads into a database. Reads every session batch file of the inbox (`sessions/<user>/*.json`, and each line of
/// `*.ndjson`), finds each session's `"raw":"…"` Base64 text, decodes it and writes each blob once into a plain
/// SQLite table (no index, no validation, no hashing, no ledger), in transactions of `--batch` blobs, on the same
/// GRDB `DatabasePool` set-up (WAL, 16 KiB pages) as the pipeline's store.
///
/// With `--postgres URL` the blobs go instead into a plain PostgreSQL table (`bytea`, LZ4 like the pipeline's
/// recordings, no index), in multi-row inserts of 64 blobs and transactions of `--batch` blobs, over one connection:
/// the floor of the nightly on PostgreSQL, where the server's own work (TOAST, WAL) shares the machine's cores.
///
/// `pipeline-bench plainpass INBOX DB [--batch 500]` or `pipeline-bench plainpass INBOX --postgres URL [--batch 500]`
/// prints one JSON object: files, blobs, upload bytes, blob bytes, wall and CPU seconds, peak RSS.
enum PlainPassBench {
    static func run(_ args: [String]) async throws {
        guard args.count >= 2 else {
            FileHandle.standardError.write(Data("usage: pipeline-bench plainpass INBOX DB [--batch N]\n".utf8))
            exit(64)
        }
        let inbox = URL(fileURLWithPath: args[0])
        let batch = args.firstIndex(of: "--batch").flatMap { Int(args[safe: $0 + 1] ?? "") } ?? 500
        if let i = args.firstIndex(of: "--postgres"), let url = args[safe: i + 1] {
            let configuration = try PostgresStore.Configuration(url: url)
            let client = PostgresClient(configuration: configuration.clientConfiguration)
            let logger = Logger(label: "pipeline-bench.plainpass")
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await client.run() }
                try await client.withConnection { connection in
                    _ = try await connection.query("DROP TABLE IF EXISTS plain_blobs", logger: logger)
                    _ = try await connection.query(
                        """
                        CREATE TABLE plain_blobs (id bigserial PRIMARY KEY, file text NOT NULL, idx integer NOT NULL,
                            raw bytea COMPRESSION lz4 NOT NULL)
                        """, logger: logger)
                    try await pass(inbox: inbox, batch: batch, backend: "postgres") { rows in
                        _ = try await connection.query("BEGIN", logger: logger)
                        for start in stride(from: 0, to: rows.count, by: 64) {
                            let chunk = rows[start..<min(start + 64, rows.count)]
                            var sql = "INSERT INTO plain_blobs (file, idx, raw) VALUES"
                            var bindings = PostgresBindings()
                            for (n, row) in chunk.enumerated() {
                                sql += (n == 0 ? " " : ", ") + "($\(3 * n + 1), $\(3 * n + 2), $\(3 * n + 3))"
                                bindings.append(row.0); bindings.append(row.1); try bindings.append(Data(row.2))
                            }
                            _ = try await connection.query(
                                PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger)
                        }
                        _ = try await connection.query("COMMIT", logger: logger)
                    }
                }
                group.cancelAll()
            }
            return
        }
        try? FileManager.default.removeItem(atPath: args[1])
        var config = Configuration()
        config.busyMode = .timeout(10)
        // The store's page size, so that the floor writes its pages as the store does.
        config.prepareDatabase { db in try db.execute(sql: SQLiteStore.pageSizePragma) }
        let pool = try DatabasePool(path: args[1], configuration: config)
        try await pool.write { db in
            try db.execute(
                sql:
                    "CREATE TABLE blobs (id INTEGER PRIMARY KEY, file TEXT NOT NULL, idx INTEGER NOT NULL, raw BLOB NOT NULL)"
            )
        }
        try await pass(inbox: inbox, batch: batch, backend: "sqlite") { rows in
            try await pool.write { db in
                let insert = try db.cachedStatement(sql: "INSERT INTO blobs (file, idx, raw) VALUES (?, ?, ?)")
                for (file, idx, raw) in rows { try insert.execute(arguments: [file, idx, Data(raw)]) }
            }
        }
    }

    /// Reads the inbox and hands the decoded blobs to `write` in groups of `batch`; prints the result.
    static func pass(
        inbox: URL, batch: Int, backend: String,
        write: ([(String, Int, [UInt8])]) async throws -> Void
    ) async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let cpu0 = IngestBench.cpuSeconds()
        var files = 0, blobs = 0, uploadBytes = 0, blobBytes = 0
        var pending: [(String, Int, [UInt8])] = []
        func flush() async throws {
            guard !pending.isEmpty else { return }
            let rows = pending
            pending.removeAll(keepingCapacity: true)
            try await write(rows)
        }
        let sessionsDir = inbox.appendingPathComponent("sessions")
        for user in try FileManager.default.contentsOfDirectory(atPath: sessionsDir.path).sorted() {
            let dir = sessionsDir.appendingPathComponent(user)
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted()
            where name.hasSuffix(".json") || name.hasSuffix(".ndjson") {
                let bytes = [UInt8](try Data(contentsOf: dir.appendingPathComponent(name), options: .alwaysMapped))
                files += 1
                uploadBytes += bytes.count
                var idx = 0
                for range in rawRanges(bytes) {
                    guard
                        let raw = bytes.withUnsafeBytes({ Base64.decode(UnsafeRawBufferPointer(rebasing: $0[range])) })
                    else { continue }
                    blobs += 1
                    blobBytes += raw.count
                    pending.append(("\(user)/\(name)", idx, raw))
                    idx += 1
                    if pending.count >= batch { try await flush() }
                }
            }
        }
        try await flush()
        let wall = IngestBench.seconds(clock.now - start)
        let cpu = IngestBench.cpuSeconds() - cpu0
        let result: [String: Any] = [
            "files": files, "blobs": blobs, "upload_bytes": uploadBytes, "blob_bytes": blobBytes, "batch": batch,
            "backend": backend,
            "wall_s": wall, "cpu_s": cpu, "peak_rss_kib": IngestBench.peakRSSKiB(),
        ]
        print(
            String(decoding: try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys]), as: UTF8.self))
    }

    /// The ranges of the Base64 text of every `"raw":"…"` member (the text between the quotes).
    static func rawRanges(_ bytes: [UInt8]) -> [Range<Int>] {
        let key = Array("\"raw\":\"".utf8)
        var out: [Range<Int>] = []
        var i = 0
        let n = bytes.count
        while i + key.count <= n {
            guard let found = bytes[i...].firstIndex(of: key[0]) else { break }
            if found + key.count <= n, bytes[found..<(found + key.count)].elementsEqual(key) {
                let start = found + key.count
                guard let end = bytes[start...].firstIndex(of: UInt8(ascii: "\"")) else { break }
                out.append(start..<end)
                i = end + 1
            } else {
                i = found + 1
            }
        }
        return out
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
