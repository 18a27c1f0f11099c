import Foundation
import GRDB
import PropertyBased
import Store
import Testing

@testable import StoreSQLite

/// One write of a generated sequence. `kind` picks the write; the other fields are read as that write needs them.
struct SyncStep: CustomStringConvertible, Sendable {
    var kind: Int // 0 sessions, 1 metrics, 2 workout, 3 stats, 4 plan
    var user: Int // 0 alice, 1 bob
    var id: Int // 1...3
    var variant: Int // 0...2: content hash, figures, version or stats count
    var flag: Bool // sessions: with metrics; metrics: two records in one call; workout: deleted
    var second: Bool // sessions: a second session in the same unit

    var description: String {
        let who = user == 0 ? "alice" : "bob"
        switch kind {
        case 0:
            return "sessions(\(who), \(id)\(second ? "+\(id % 3 + 1)" : ""), hash \(variant)\(flag ? ", metrics" : ""))"
        case 1: return "metrics(\(who), \(id), figures \(variant)\(flag ? ", batch" : ""))"
        case 2: return "workout(\(who), hk-\(id), v\(variant + 1)\(flag ? ", deleted" : ""))"
        case 3: return "stats(\(who), \(variant))"
        default: return "plan(\(who))"
        }
    }

    static var generator: Generator<SyncStep, AnySequence<Any>> {
        zip(
            Gen.int(in: 0...4), Gen.int(in: 0...1), Gen.int(in: 1...3), Gen.int(in: 0...2), Gen.bool, Gen.bool
        )
        .map { kind, user, id, variant, flag, second in
            SyncStep(kind: kind, user: user, id: id, variant: variant, flag: flag, second: second)
        }
        .eraseToAny()
    }
}

/// The change log as migration 0012 defines it, kept by hand: one counter moved on by every change, and each item's
/// row at its last change. A change is a session stored (not a duplicate or a conflict), metrics stored or replaced by
/// other figures, a workout record stored or replaced by a newer version, stats stored or changed, a plan appended.
struct SyncLogModel {
    var position = 0
    var log: [String: Int] = [:] // "user|kind|item" → position
    var sessions: [String: String] = [:] // "user|id" → content hash
    var metrics: [String: String] = [:] // "user|id" → metrics_json
    var workouts: [String: Int] = [:] // "user|id" → version
    var stats: [String: String] = [:]
    var plans: [String: Int] = [:]

    mutating func change(_ user: String, _ kind: String, _ item: String) {
        position += 1
        log["\(user)|\(kind)|\(item)"] = position
    }
}

/// SQLite logs stored sessions, their metrics and workout records from its insert functions (migration 0019), the
/// updates and the other kinds from triggers, all on one counter. Generated sequences of writes of every kind, their
/// duplicates, conflicts and stale versions, end with exactly the log the definition gives.
@Suite(.shrinking) struct SyncLogModelTests {
    static var count: Int { ProcessInfo.processInfo.environment["SYNC_LOG_PROPERTY_COUNT"].flatMap(Int.init) ?? 60 }
    static let users = [Fixtures.alice, UserID("bob")]

    static func sessionID(_ n: Int) -> String { String(format: "00000000-0000-4000-8000-%012d", n) }

    static func metrics(_ user: UserID, _ id: Int, figures: Int) -> SessionMetricsRecord {
        SessionMetricsRecord(
            userID: user, sessionID: SessionID(rawValue: sessionID(id)), localDate: LocalDate(iso: "2025-12-24")!,
            sport: "bike",
            durationS: 1800, distanceM: 15000, energyKcal: 300, avgPowerW: 180, avgHRBpm: 140,
            tss: Double(40 + figures), metricsJSON: "{\"tss\":\(40 + figures)}", flags: [], computedAt: 5)
    }

    static func stats(_ count: Int) -> UserStats {
        UserStats(
            workoutTotalCount: count, workoutTotalEnergy: 0, workoutTotalDistance: 0, workoutTotalDuration: 0,
            workoutStreak: 0, longestStreak: 0, lastWorkoutDate: nil)
    }

    /// Runs `step` on the store and on the model.
    static func run(_ step: SyncStep, _ store: SQLiteStore, _ model: inout SyncLogModel) async throws {
        let user = users[step.user]
        let u = user.rawValue
        switch step.kind {
        case 0:
            let ids = step.second ? [step.id, step.id % 3 + 1] : [step.id]
            let hash = String(repeating: ["a", "b", "c"][step.variant], count: 64)
            let sessions = ids.map { Fixtures.session(sessionID($0), user: user, hash: hash) }
            var unit = IngestUnit(
                sessions: sessions.map {
                    SessionCandidate(session: $0, conflictQuarantine: Fixtures.quarantine(key: $0.sessionID.rawValue))
                })
            if step.flag { unit.sessionMetrics = ids.map { metrics(user, $0, figures: step.variant) } }
            _ = try await store.apply(unit)
            for id in ids where model.sessions["\(u)|\(id)"] == nil {
                model.sessions["\(u)|\(id)"] = hash
                model.change(u, "session", sessionID(id))
                if step.flag {
                    model.metrics["\(u)|\(id)"] = metrics(user, id, figures: step.variant).metricsJSON
                    model.change(u, "session", sessionID(id))
                }
            }
        case 1:
            // Metrics only for stored sessions (a foreign key); with `flag`, every stored session of the user in one call.
            let ids = (step.flag ? [1, 2, 3] : [step.id]).filter { model.sessions["\(u)|\($0)"] != nil }
            guard !ids.isEmpty else { return }
            let records = ids.map { metrics(user, $0, figures: step.variant) }
            if step.flag {
                try await store.putSessionMetrics(records)
            } else {
                try await store.putSessionMetrics(records[0])
            }
            for (id, record) in zip(ids, records) {
                let key = "\(u)|\(id)"
                if model.metrics[key] != record.metricsJSON {
                    model.metrics[key] = record.metricsJSON
                    model.change(u, "session", record.sessionID.rawValue)
                }
            }
        case 2:
            let workout = Fixtures.workout(
                "hk-\(step.id)", version: Int64(step.variant + 1), deleted: step.flag, user: user)
            _ = try await store.apply(
                IngestUnit(workouts: [
                    WorkoutCandidate(workout: workout, conflictQuarantine: Fixtures.quarantine(key: "w"))
                ]))
            let key = "\(u)|\(step.id)"
            if (model.workouts[key] ?? 0) < step.variant + 1 {
                model.workouts[key] = step.variant + 1
                model.change(u, "workout", "hk-\(step.id)")
            }
        case 3:
            try await store.putUserStats(UserStatsRecord(userID: user, stats: stats(step.variant), computedAt: 10))
            if model.stats[u] != "\(step.variant)" {
                model.stats[u] = "\(step.variant)"
                model.change(u, "stats", "")
            }
        default:
            let version = try await store.appendPlan(user: user, generatedAt: 20, state: .ready, documentJSON: "{}")
            model.plans[u, default: 0] += 1
            #expect(version == model.plans[u])
            model.change(u, "plan", "\(version)")
        }
    }

    @Test func theLogIsTheDefinitionsAfterAnySequenceOfWrites() async {
        await propertyCheck(count: Self.count, input: SyncStep.generator.array(of: 0...24)) { steps in
            do {
                try await withTestStore(.sqlite) { t in
                    guard case .sqlite(let store, _) = t.kind else { return }
                    for user in Self.users { try await store.upsertUser(Fixtures.user(user)) }
                    var model = SyncLogModel()
                    for step in steps { try await Self.run(step, store, &model) }
                    let (log, position) = try store.writer.read { db -> ([Row], Int?) in
                        (
                            try Row.fetchAll(db, sql: "SELECT user_id, kind, item_id, position FROM sync_log"),
                            try Int.fetchOne(db, sql: "SELECT position FROM sync_state WHERE id = 1")
                        )
                    }
                    var stored: [String: Int] = [:]
                    for row in log {
                        stored["\(row["user_id"] as String)|\(row["kind"] as String)|\(row["item_id"] as String)"] =
                            row["position"]
                    }
                    #expect(stored == model.log)
                    #expect(position == model.position)
                }
            } catch {
                Issue.record("a write failed: \(error)")
            }
        }
    }
}

/// Since 0019 the log of inserted sessions and workout records rests on the store's code, not on the schema: a binary
/// older than the store it opens would insert without logging. Such a store is refused, and left as it was.
@Suite struct NewerStoreTests {
    @Test func aStoreMigratedByANewerPipelineIsRefused() async throws {
        try await withTestStore(.sqlite) { t in
            guard case .sqlite(let store, let path) = t.kind else { return }
            try await store.upsertUser(Fixtures.user())
            _ = try await store.apply(
                IngestUnit(sessions: [
                    SessionCandidate(
                        session: Fixtures.session(SyncLogModelTests.sessionID(1)),
                        conflictQuarantine: Fixtures.quarantine())
                ]))
            // The store as it is opens again.
            _ = try SQLiteStore(path: path)
            try await store.writer.write { db in
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('0099_from_the_future')")
            }
            let before = try await store.changeLog(user: Fixtures.alice, after: nil, limit: 10)
            #expect(before.count == 1)
            do {
                _ = try SQLiteStore(path: path)
                Issue.record("a store with an unknown migration was opened")
            } catch let error as StoreError {
                #expect(error.code == .migration)
                #expect(error.detail.contains("0099_from_the_future"))
                #expect(error.detail.contains("knows up to \(SQLiteStore.migrations.last!.0)"))
            }
            #expect(try await store.changeLog(user: Fixtures.alice, after: nil, limit: 10) == before)
            #expect(try await store.appliedMigrations().contains("0099_from_the_future"))
        }
    }
}
