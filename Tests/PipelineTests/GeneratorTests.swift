import Foundation
import Store
import Synchronization
import Testing

@testable import SyntheticData

@Suite struct GeneratorTests {
    static func tempDir(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
    }

    static func snapshot(_ root: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let e = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])!
        for case let url as URL in e where (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true
        {
            files[String(url.path.dropFirst(root.path.count))] = try Data(contentsOf: url)
        }
        return files
    }

    @Test func sameSeedSameBytesOtherSeedOtherBytes() throws {
        let a = Self.tempDir("gen-a"), b = Self.tempDir("gen-b"), c = Self.tempDir("gen-c")
        defer { for d in [a, b, c] { try? FileManager.default.removeItem(at: d) } }
        let config = Generator.Configuration(users: 4, days: 6, seed: 99, endDate: "2026-03-10", faultRate: 0.3)
        try Generator(config).generate(into: a)
        try Generator(config).generate(into: b)
        var other = config
        other.seed = 100
        try Generator(other).generate(into: c)
        let sa = try Self.snapshot(a), sb = try Self.snapshot(b), sc = try Self.snapshot(c)
        #expect(sa.count > 5)
        #expect(sa == sb)
        #expect(sa != sc)
    }

    /// The users are generated on every core since 2026-12-02; before, one after the other. This is the SHA-256 of
    /// what the one-after-the-other generator (main 163908e, `pipeline generate --users 6 --days 12 --seed 99
    /// --end 2026-03-10 --fault-rate 0.3`) wrote: every file's path below the folder, a zero byte, its bytes and a
    /// zero byte, in the paths' order; hashed by a Python script outside this code. Any change to the order in which
    /// users draw their numbers, or to how their parts are merged, shows here.
    @Test func usersOnEveryCoreWriteWhatOneAfterTheOtherWrote() throws {
        let dir = Self.tempDir("gen-order")
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = Generator.Configuration(users: 6, days: 12, seed: 99, endDate: "2026-03-10", faultRate: 0.3)
        try Generator(config).generate(into: dir)
        let files = try Self.snapshot(dir)
        var bytes: [UInt8] = []
        for path in files.keys.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) {
            bytes += Array(path.utf8) + [0] + [UInt8](files[path]!) + [0]
        }
        #expect(files.count == 40)
        #expect(sha256Hex(bytes) == "5faa9930ef2261029083cac44f80e5a4a01b378de30e28d44ca3baf024ab37bd")
    }

    /// Progress is told once a user, with counts 1…users in some order (users finish on several threads) and the total.
    @Test func progressCountsEveryUserOnce() throws {
        let dir = Self.tempDir("gen-progress")
        defer { try? FileManager.default.removeItem(at: dir) }
        let seen = Mutex<[(Int, Int)]>([])
        let config = Generator.Configuration(users: 9, days: 3, seed: 5, endDate: "2026-03-10", faultRate: 0)
        try Generator(config).generate(into: dir) { done, total in seen.withLock { $0.append((done, total)) } }
        let calls = seen.withLock { $0 }
        #expect(calls.map(\.0).sorted() == Array(1...9))
        #expect(calls.allSatisfy { $0.1 == 9 })
    }

    @Test func manifestDescribesWhatWasWritten() throws {
        let dir = Self.tempDir("gen-m")
        defer { try? FileManager.default.removeItem(at: dir) }
        let manifest = try Generator(.init(users: 3, days: 10, seed: 5, endDate: "2026-06-30", faultRate: 0.2))
            .generate(into: dir)
        #expect(manifest.users.map(\.userID) == ["user-0001", "user-0002", "user-0003"])
        #expect(manifest.users[0].timeZone == "Europe/Berlin")
        #expect(manifest.users[1].timeZone == "America/Los_Angeles")
        #expect(manifest.unknownUsers == ["user-ghost"])
        let decoded = try JSONDecoder().decode(
            GenerationManifest.self, from: Data(contentsOf: dir.appendingPathComponent("manifest.json")))
        #expect(decoded == manifest)
        // Every batch file is at most 20 sessions, except the injected oversized one.
        let sessionsDir = dir.appendingPathComponent("sessions")
        for user in try FileManager.default.contentsOfDirectory(atPath: sessionsDir.path) {
            for name in try FileManager.default.contentsOfDirectory(
                atPath: sessionsDir.appendingPathComponent(user).path)
            {
                let data = try Data(contentsOf: sessionsDir.appendingPathComponent(user).appendingPathComponent(name))
                guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                    let sessions = object["sessions"] as? [Any]
                else { continue }
                #expect(sessions.count <= 20 || name.hasSuffix("-9002.json"))
            }
        }
    }

    @Test func simulatedHeartRateLagsEffortAndDrifts() {
        var rng = SeededRandom(seed: 1)
        let body = Physiology(ftpW: 250, restingHR: 50, maxHR: 190, massKg: 75, thresholdSpeedKmh: 14)
        let s = BodySimulator.simulate(
            sport: .bike, shape: .endurance, seconds: 3600, body: body, pause: (1800, 60), rng: &rng)
        #expect(s.paused[1800] && s.paused[1859] && !s.paused[1860])
        #expect(s.powerW[1830] == 0 && s.cadenceRpm[1830] == 0)
        // Heart rate responds with a lag: 10 s into the session it is still far below its steady level.
        let early = s.heartRate[10], steady = s.heartRate[1200..<1260].reduce(0, +) / 60
        #expect(steady - early > 15)
        // Drift: at the same power, the last steady quarter-hour runs a higher heart rate than the first.
        let firstBlock = s.heartRate[900..<1200].reduce(0, +) / 300
        let lastBlock = s.heartRate[2700..<3000].reduce(0, +) / 300
        #expect(lastBlock > firstBlock)
        // Distance and energy only grow.
        #expect(zip(s.distanceM, s.distanceM.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(zip(s.energyKcal, s.energyKcal.dropFirst()).allSatisfy { $0 <= $1 })
    }
}
