import Foundation
import Store
import StoreSQLite
import Testing

/// `pipeline plan` in a terminal for a refused runner (issue 17: a refusal is never a dead end): the refusal, then the
/// base plan that comes with it, week by week — not only "no plan: CODE".
@Suite struct PlanCommandTests {
    @Test func aRefusalPrintsItsBasePlan() async throws {
        let binary = try PipelineBinary.locate()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("plan-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("db.sqlite").path

        // About 10.5 km a week (three 3.5 km runs a week for four weeks) and a marathon 17 weeks away: INSUFFICIENT_BASE.
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let day: Int64 = 86_400_000
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        let race = formatter.string(from: Date(timeIntervalSince1970: Double(now + 17 * 7 * day) / 1000))
        let user = User(
            id: UserID("runner"), timeZone: "UTC",
            profile: TrainingProfile(
                sex: .female, maxHR: 185, restingHR: 55,
                goalRace: GoalRace(date: LocalDate(iso: race)!, goalTimeS: nil),
                availableDays: [.tue, .thu, .sat, .sun], maxRunDays: 4, longRunDay: .sun,
                experience: .novice),
            createdAt: 0)
        var workouts: [WorkoutCandidate] = []
        for k in 0..<12 {
            let start = now - Int64(2 + k * 2 + k / 3 * 1) * day
            let w = WorkoutRecord(
                userID: user.id, workoutID: WorkoutID("hk-\(k)"), source: .appleHealth, activityType: "running",
                startAt: start, endAt: start + 1_500_000, durationS: 1500, distanceM: 3500,
                energyKcal: 250, avgHR: 150, maxHR: 165, elevationGainM: 5, timeZone: "UTC",
                samplesJSON: nil, updatedAt: start, deleted: false, contentHash: "h\(k)")
            workouts.append(
                WorkoutCandidate(
                    workout: w,
                    conflictQuarantine: QuarantineRecord(
                        userID: user.id, source: "t", sourceKey: "k\(k)", recordID: nil,
                        reasonCode: .rejected(.conflict),
                        message: "", payload: [],
                        receivedAt: 0, quarantinedAt: 0)))
        }
        let store = try SQLiteStore(path: db)
        _ = try await store.apply(IngestUnit(users: [user], workouts: workouts))

        func run(_ arguments: [String]) async throws -> (ChildExit, String) {
            let out = dir.appendingPathComponent("out-\(UUID().uuidString).txt"),
                err = dir.appendingPathComponent("err-\(UUID().uuidString).txt")
            let child = try ChildProcess(
                binary, arguments, environment: ["PIPELINE_LOG_LEVEL": "error"], stdout: out, stderr: err)
            let exit = await child.wait()
            return (exit, (try? String(contentsOf: out, encoding: .utf8)) ?? "")
        }
        let ok = ChildExit(status: 0, bySignal: false)

        let (exit, text) = try await run(["plan", "--db", db, "--user", "runner", "--refresh"])
        #expect(exit == ok, "\(text)")
        #expect(text.contains("no plan: INSUFFICIENT_BASE: "), "\(text)")
        #expect(text.contains("base-building plan instead: "))
        #expect(text.contains("Base week 1 of "))
        let weeks = text.components(separatedBy: "Base week ").count - 1
        #expect(weeks >= 4, "every week of the base plan: \(weeks)")
        #expect(text.contains("Long "), "the base plan's long runs are shown")

        // One week of it, by index.
        let (exit2, week2) = try await run(["plan", "--db", db, "--user", "runner", "--week", "2"])
        #expect(exit2 == ok)
        #expect(week2.contains("Base week 2 of ") && !week2.contains("Base week 1 of "), "\(week2)")
        // A week it does not have is a usage error.
        #expect(
            try await run(["plan", "--db", db, "--user", "runner", "--week", "99"]).0
                == ChildExit(status: 64, bySignal: false))
        // The JSON document carries it as base_plan next to the error.
        let (exit3, json) = try await run(["plan", "--db", db, "--user", "runner", "--json"])
        #expect(exit3 == ok && json.contains("\"base_plan\"") && json.contains("\"INSUFFICIENT_BASE\""))
    }
}
