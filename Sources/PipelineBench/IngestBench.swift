import FTMSDecode
import Foundation
import Ingest
import Store
import StoreSQLite
import SyntheticData

/// Ingest throughput on SQLite: one-hour bike sessions with their raw blobs, 20 per batch file, through the
/// whole inbox path (read, parse, validate, Base64, blob check, SHA-256, one transaction per batch, ledger).
/// Baseline in the same run: reading the same files and touching every byte. Peak memory is reported for two
/// inbox sizes to show it does not grow with the inbox.
enum IngestBench {
    static func run(_ args: [String]) async throws {
        let sessions = Int(args.first ?? "") ?? 2000
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("ingest-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        // One realistic one-hour recording, reused with fresh session ids (generation is not what we measure).
        var rng = SeededRandom(seed: 1)
        let body = Physiology(ftpW: 250, restingHR: 52, maxHR: 188, massKg: 75, thresholdSpeedKmh: 14)
        let sim = BodySimulator.simulate(
            sport: .bike, shape: .intervals, seconds: 3600, body: body, pause: nil, rng: &rng)
        let start: Int64 = 1_766_570_400_000
        let blob = SessionRecorder.record(sim, startMillis: start, options: .init(), rng: &rng)
        let raw = Data(blob).base64EncodedString()

        func makeInbox(_ dir: URL, count: Int) throws -> Int {
            try FileManager.default.createDirectory(
                at: dir.appendingPathComponent("users"), withIntermediateDirectories: true)
            try Data(
                "{\"users\": [{\"user_id\": \"bench\", \"time_zone\": \"UTC\", \"profile\": {\"available_days\": []}, \"created_at_ms\": 0}]}"
                    .utf8
            )
            .write(to: dir.appendingPathComponent("users/u.json"))
            let sessionsDir = dir.appendingPathComponent("sessions/bench")
            try FileManager.default.createDirectory(at: sessionsDir, withIntermediateDirectories: true)
            var bytes = 0
            for file in 0..<(count + 19) / 20 {
                var items: [String] = []
                for i in 0..<min(20, count - file * 20) {
                    let n = file * 20 + i
                    let s = start + Int64(n) * 86_400_000
                    items.append(
                        String(format: "{\"session_id\":\"00000000-0000-4000-8000-%012d\",", n)
                            + "\"started_at\":\"\(RFC3339.format(millis: s))\",\"ended_at\":\"\(RFC3339.format(millis: s + 3_600_000))\","
                            + "\"duration\":3600,\"total_energy\":700,\"total_distance\":30000,\"detail\":{\"avg_hr\":140,\"avg_power\":200},"
                            + "\"raw\":\"\(raw)\"}")
                }
                let data = Data("{\"sessions\":[\(items.joined(separator: ","))]}".utf8)
                bytes += data.count
                // Received long after the last session, so no session is "in the future".
                try data.write(
                    to: sessionsDir.appendingPathComponent(String(format: "20990101T000000Z-%06d.json", file)))
            }
            return bytes
        }

        func plainPass(_ dir: URL) throws -> (Double, Int) {
            let clock = ContinuousClock()
            let t = clock.now
            var sum: UInt64 = 0
            var total = 0
            let files = try FileManager.default.contentsOfDirectory(
                at: dir.appendingPathComponent("sessions/bench"), includingPropertiesForKeys: nil)
            for f in files {
                let d = try Data(contentsOf: f)
                total += d.count
                d.withUnsafeBytes { for b in $0 { sum &+= UInt64(b) } }
            }
            precondition(sum > 0)
            return (seconds(clock.now - t), total)
        }

        print(
            "ingest benchmark: \(sessions) one-hour sessions, blob \(blob.count) B (\(raw.utf8.count) B Base64), 20 per batch, SQLite WAL"
        )
        print(
            "  machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(loadAverage()) at start")
        var peaks: [(Int, Int)] = []
        for count in [sessions / 4, sessions] {
            let dir = root.appendingPathComponent("inbox-\(count)")
            let bytes = try makeInbox(dir, count: count)
            let (plain, _) = try plainPass(dir)
            let store = try SQLiteStore(path: root.appendingPathComponent("db-\(count).sqlite").path)
            let before = peakRSSKiB()
            let clock = ContinuousClock()
            let t = clock.now
            let cpu0 = cpuSeconds()
            let report = try await InboxIngestor(store: store, clock: PipelineClock(now: { 4_102_444_800_000 })).ingest(
                inbox: dir)
            let elapsed = seconds(clock.now - t)
            let cpu = cpuSeconds() - cpu0
            precondition(report.sessions.stored == count && report.addsUp, "ingest lost records: \(report.sessions)")
            let mb = Double(bytes) / 1e6
            print(
                String(
                    format:
                        "  %6d sessions %8.1f MB: ingest %6.2f s = %7.0f sessions/s, %6.1f MB/s | plain read %5.2f s = %7.1f MB/s | ingest/plain %.3f",
                    count, mb, elapsed, Double(count) / elapsed, mb / elapsed, plain, mb / plain, plain / elapsed))
            print(
                String(
                    format:
                        "         CPU (user+sys) %6.2f s = %.2f ms per session, %.2f cores busy on average; load average %@ after",
                    cpu, cpu * 1000 / Double(count), cpu / elapsed, loadAverage()))
            peaks.append((count, max(before, peakRSSKiB())))
        }
        for (count, kib) in peaks { print("  peak RSS after \(count) sessions: \(kib / 1024) MiB") }
        // After the peaks: this holds ten prepared batches at once.
        try await phases(root: root, makeInbox: makeInbox)
    }

    /// Where the time goes: 10 batch files prepared (read, parse, validate, Base64, blob check, hashes) one after
    /// the other, then committed one after the other into a fresh store — wall and CPU time per session of each.
    static func phases(root: URL, makeInbox: (URL, Int) throws -> Int) async throws {
        let count = 200
        let dir = root.appendingPathComponent("inbox-phases")
        _ = try makeInbox(dir, count)
        let store = try SQLiteStore(path: root.appendingPathComponent("db-phases.sqlite").path)
        try await store.upsertUser(User(id: UserID("bench"), timeZone: "UTC", createdAt: 0))
        let processor = BatchProcessor(store: store, clock: PipelineClock(now: { 4_102_444_800_000 }))
        let files = try FileManager.default.contentsOfDirectory(
            at: dir.appendingPathComponent("sessions/bench"), includingPropertiesForKeys: nil
        )
        .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let clock = ContinuousClock()
        var t = clock.now
        var cpu0 = cpuSeconds()
        var prepared: [BatchProcessor.PreparedBatch] = []
        for file in files {
            let body = [UInt8](try Data(contentsOf: file))
            let context = BatchContext(
                userID: UserID("bench"), source: "inbox", sourceKey: file.lastPathComponent,
                receivedAt: 4_102_444_800_000)
            prepared.append(
                try await processor.prepare(body: body, context: context, ledgerKey: "inbox:\(file.lastPathComponent)"))
        }
        let prepareWall = seconds(clock.now - t), prepareCPU = cpuSeconds() - cpu0
        t = clock.now
        cpu0 = cpuSeconds()
        var stored = 0
        for batch in prepared { stored += try await processor.commit(batch).report.sessions.stored }
        let commitWall = seconds(clock.now - t), commitCPU = cpuSeconds() - cpu0
        precondition(stored == count, "phases: \(stored) of \(count) stored")
        let ms = { (s: Double) in s * 1000 / Double(count) }
        print(
            String(
                format:
                    "  phases over %d sessions, one after the other: prepare %.2f ms/session (CPU %.2f), commit %.2f ms/session (CPU %.2f)",
                count, ms(prepareWall), ms(prepareCPU), ms(commitWall), ms(commitCPU)))
    }

    /// User plus system CPU time of the whole process so far, in seconds.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(
            usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    static func loadAverage() -> String {
        var loads = [Double](repeating: 0, count: 3)
        guard getloadavg(&loads, 3) == 3 else { return "?" }
        return String(format: "%.1f/%.1f/%.1f", loads[0], loads[1], loads[2])
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    static func peakRSSKiB() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss
    }
}
