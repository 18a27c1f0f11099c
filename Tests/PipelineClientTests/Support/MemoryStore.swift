import OpenAPIRuntime
import PipelineClient
import PipelineSync
import Synchronization

/// An app's mirror in memory: items by id, the saved cursor, and counts of what the synchroniser did to it. It can be
/// told to throw on the n-th application from then on (1-based), once, to play a crash in the middle of a page.
final class MemoryStore: SyncStore, Sendable {
    struct Failure: Error {}

    struct Mirror: Sendable, Equatable {
        var sessions: [String: SyncedSession] = [:]
        var workouts: [String: Components.Schemas.WorkoutRecord] = [:]
        var stats: Components.Schemas.StatsView?
        var planVersions: [Int] = []
    }

    private struct State {
        var mirror = Mirror()
        var cursor: String?
        var saved: [String] = []
        var applications: [String: Int] = [:]
        var appliedCount = 0
        var failOnApply: Int?
        var rejections = 0
    }
    private let state = Mutex(State())

    var snapshot: Mirror { state.withLock { $0.mirror } }
    var savedCursors: [String] { state.withLock { $0.saved } }
    var applications: [String: Int] { state.withLock { $0.applications } }
    var rejections: Int { state.withLock { $0.rejections } }
    var failOnApply: Int? {
        get { state.withLock { $0.failOnApply } }
        set {
            state.withLock { s in
                s.failOnApply = newValue.map { s.appliedCount + $0 }
            }
        }
    }

    func cursor() async throws -> String? { state.withLock { $0.cursor } }

    func apply(_ change: SyncChange) async throws {
        try state.withLock { s in
            s.appliedCount += 1
            if s.appliedCount == s.failOnApply {
                s.failOnApply = nil
                throw Failure()
            }
            switch change {
            case .session(let session):
                s.mirror.sessions[session.id] = session
                s.applications["session:\(session.id)", default: 0] += 1
            case .workout(let workout):
                s.mirror.workouts[workout.id ?? ""] = workout
                s.applications["workout:\(workout.id ?? "")", default: 0] += 1
            case .workoutDeleted(let id):
                s.mirror.workouts[id] = nil
                s.applications["deleted:\(id)", default: 0] += 1
            case .stats(let stats):
                s.mirror.stats = stats
                s.applications["stats", default: 0] += 1
            case .plan(let plan):
                if !s.mirror.planVersions.contains(plan.version) {
                    s.mirror.planVersions.append(plan.version)
                    s.mirror.planVersions.sort()
                }
                s.applications["plan:\(plan.version)", default: 0] += 1
            }
        }
    }

    func save(cursor: String) async throws {
        state.withLock {
            $0.cursor = cursor
            $0.saved.append(cursor)
        }
    }

    func cursorRejected() async throws {
        state.withLock {
            $0.rejections += 1
            $0.cursor = nil
        }
    }
}
