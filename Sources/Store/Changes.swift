import Foundation

/// What the apps' delta sync reads (`GET /v1/me/changes`): the items of one user that changed, in the order their
/// changes were committed, each with the position after which the next read goes on. Written by the stores' own
/// triggers (migration 0012, `sync_log`), so every write path is covered.
///
/// An item changed several times appears once, at the position of its last change. Items are read as they are when
/// the page is read: an item may be newer than its position (it then appears again later), never older.
public enum ChangeKind: String, Sendable, CaseIterable, Codable {
    /// A session, stored or measured (its metrics): `ChangedItem.session`.
    case session
    /// A workout record, stored, updated or deleted (a tombstone: `deleted`).
    case workout
    /// The user's stats, when the figures (pipeline's or app's) changed.
    case stats
    /// A plan version.
    case plan
}

/// A position in a user's change log. `transaction` orders the changes of concurrent writers on PostgreSQL (the
/// writing transaction's id; 0 on SQLite, whose writers are serial), `sequence` within and across them.
public struct ChangeCursor: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var transaction: UInt64
    public var sequence: Int64
    public init(transaction: UInt64, sequence: Int64) { self.transaction = transaction; self.sequence = sequence }

    public static func < (a: ChangeCursor, b: ChangeCursor) -> Bool {
        (a.transaction, a.sequence) < (b.transaction, b.sequence)
    }

    public var description: String { "\(transaction).\(sequence)" }
}

/// One changed item as it is now.
public enum ChangedItem: Sendable, Equatable {
    /// A session without its recording, with its metrics once the nightly has measured it.
    case session(StoredSession, metrics: SessionMetricsRecord?)
    /// A workout record; `deleted` marks a tombstone.
    case workout(WorkoutRecord)
    case stats(UserStatsRecord)
    case plan(PlanRecord)
}

public struct Change: Sendable, Equatable {
    public var cursor: ChangeCursor
    public var kind: ChangeKind
    /// The item's id within its kind: session or workout id, plan version, empty for stats.
    public var itemID: String
    public var item: ChangedItem
    public init(cursor: ChangeCursor, kind: ChangeKind, itemID: String, item: ChangedItem) {
        self.cursor = cursor; self.kind = kind; self.itemID = itemID; self.item = item
    }
}

/// An entry of the change log, before its item is read.
public struct ChangeLogEntry: Sendable, Equatable {
    public var cursor: ChangeCursor
    public var kind: ChangeKind
    public var itemID: String
    public init(cursor: ChangeCursor, kind: ChangeKind, itemID: String) {
        self.cursor = cursor; self.kind = kind; self.itemID = itemID
    }
}

/// Where a page of `GET /v1/me/sessions` goes on: after the session with this start and id, in the list's order
/// (newest start first, then session id).
public struct SessionPageKey: Sendable, Hashable {
    public var startedAt: EpochMillis
    public var sessionID: SessionID
    public init(startedAt: EpochMillis, sessionID: SessionID) { self.startedAt = startedAt; self.sessionID = sessionID }
}

extension PipelineStore {
    /// Up to `limit` changes of `user` after `cursor` (from the start when nil), oldest first, with their items.
    public func changes(user: UserID, after cursor: ChangeCursor?, limit: Int) async throws -> [Change] {
        let entries = try await changeLog(user: user, after: cursor, limit: limit)
        func ids(_ kind: ChangeKind) -> [String] { entries.filter { $0.kind == kind }.map(\.itemID) }
        let sessionIDs = ids(.session).map { SessionID(rawValue: $0) }
        var sessions: [SessionID: StoredSession] = [:]
        var metrics: [SessionID: SessionMetricsRecord] = [:]
        if !sessionIDs.isEmpty {
            for s in try await sessionSummaries(user: user, ids: sessionIDs) { sessions[s.sessionID] = s }
            for m in try await sessionMetrics(user: user, ids: sessionIDs) { metrics[m.sessionID] = m }
        }
        var workouts: [WorkoutID: WorkoutRecord] = [:]
        let workoutIDs = ids(.workout).map { WorkoutID($0) }
        if !workoutIDs.isEmpty {
            for w in try await self.workouts(user: user, ids: workoutIDs) { workouts[w.workoutID] = w }
        }
        var plans: [Int: PlanRecord] = [:]
        let versions = ids(.plan).compactMap { Int($0) }
        if !versions.isEmpty { for p in try await self.plans(user: user, versions: versions) { plans[p.version] = p } }
        let stats = entries.contains { $0.kind == .stats } ? try await userStats(user) : nil
        // An item whose row is gone by now (only a user's deletion removes rows, and the log goes with them) is left out.
        return entries.compactMap { entry in
            let item: ChangedItem?
            switch entry.kind {
            case .session:
                item = sessions[SessionID(rawValue: entry.itemID)].map { .session($0, metrics: metrics[$0.sessionID]) }
            case .workout: item = workouts[WorkoutID(entry.itemID)].map { .workout($0) }
            case .stats: item = stats.map { .stats($0) }
            case .plan: item = Int(entry.itemID).flatMap { plans[$0] }.map { .plan($0) }
            }
            return item.map { Change(cursor: entry.cursor, kind: entry.kind, itemID: entry.itemID, item: $0) }
        }
    }
}
