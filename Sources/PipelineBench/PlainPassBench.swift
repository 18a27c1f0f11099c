import Foundation
import GRDB
import Ingest

/// The floor of the nightly benchmark (`Benchmarks/nightly.sh`): the least work that takes an inbox's session
/// uploads into a database. Reads every session batch file of the inbox (`sessions/<user>/*.json`, and each line of
/// `*.ndjson`), finds each session's `"raw":"…"` Base64 text, decodes it and writes each blob once into a plain
/// SQLite table (no index, no validation, no hashing, no ledger), in transactions of `--batch` blobs, on the same
/// GRDB `DatabasePool` set-up (WAL) as the pipeline's store.
///
/// `pipeline-bench plainpass INBOX DB [--batch 500]` prints one JSON object: files, blobs, upload bytes, blob bytes,
/// wall and CPU seconds, peak RSS.
enum PlainPassBench {
    static func run(_ args: [String]) async throws {
        guard args.count >= 2 else {
            FileHandle.standardError.write(Data("usage: pipeline-bench plainpass INBOX DB [--batch N]\n".utf8))
            exit(64)
        }
        let inbox = URL(fileURLWithPath: args[0])
        let batch = args.firstIndex(of: "--batch").flatMap { Int(args[safe: $0 + 1] ?? "") } ?? 500
        try? FileManager.default.removeItem(atPath: args[1])
        var config = Configuration()
        config.busyMode = .timeout(10)
        let pool = try DatabasePool(path: args[1], configuration: config)
        try await pool.write { db in
            try db.execute(sql: "CREATE TABLE blobs (id INTEGER PRIMARY KEY, file TEXT NOT NULL, idx INTEGER NOT NULL, raw BLOB NOT NULL)")
        }
        let clock = ContinuousClock()
        let start = clock.now
        let cpu0 = IngestBench.cpuSeconds()
        var files = 0, blobs = 0, uploadBytes = 0, blobBytes = 0
        var pending: [(String, Int, [UInt8])] = []
        func flush() async throws {
            guard !pending.isEmpty else { return }
            let rows = pending
            pending.removeAll(keepingCapacity: true)
            try await pool.write { db in
                let insert = try db.cachedStatement(sql: "INSERT INTO blobs (file, idx, raw) VALUES (?, ?, ?)")
                for (file, idx, raw) in rows { try insert.execute(arguments: [file, idx, Data(raw)]) }
            }
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
                    guard let raw = bytes.withUnsafeBytes({ Base64.decode(UnsafeRawBufferPointer(rebasing: $0[range])) }) else { continue }
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
            "wall_s": wall, "cpu_s": cpu, "peak_rss_kib": IngestBench.peakRSSKiB(),
        ]
        print(String(decoding: try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys]), as: UTF8.self))
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
