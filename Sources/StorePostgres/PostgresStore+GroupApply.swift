import Foundation
import PostgresNIO
import Store

/// Many session batches applied in one transaction in a few round trips (the nightly's writer hands over groups of
/// batch files): the same outcomes as `applyUnit` one unit after the other, with one statement per step for the whole
/// group instead of one per unit — the locks on the ledger keys, the ledger look, the sessions' look and insert, their
/// metrics, the recompute marks and the ledger entries.
extension PostgresStore {
    /// Whether `applyGroup` applies: session batches only (no users or workout records), each ledger key at most once.
    static func groupable(_ units: [IngestUnit]) -> Bool {
        guard units.count > 1, units.allSatisfy({ $0.users.isEmpty && $0.workouts.isEmpty }) else { return false }
        let keys = units.compactMap(\.ledgerKey)
        return Set(keys).count == keys.count
    }

    static func applyGroup(_ units: [IngestUnit], _ db: Connection) async throws -> [IngestUnitResult] {
        // Locks first, every process taking them in the same (sorted) order, so two workers never wait on each other
        // in a cycle; then the ledger look, in its own statement so that its snapshot is taken after the locks.
        let keys = units.compactMap(\.ledgerKey).sorted()
        var ledger: [String: (hash: String, report: String?)] = [:]
        if !keys.isEmpty {
            try await db.execute(
                "SELECT pg_advisory_xact_lock(\(ledgerLockClass), hashtext(k)) FROM unnest(\(keys)::text[]) AS t(k)")
            for row in try await db.rows(
                """
                SELECT ledger_key, content_sha256, report_json FROM ingest_ledger WHERE ledger_key = ANY(\(keys)::text[])
                """)
            {
                ledger[try row.get("ledger_key")] = (try row.get("content_sha256"), try row.get("report_json"))
            }
        }
        var results = [IngestUnitResult?](repeating: nil, count: units.count)
        var applying: [Int] = []
        for (i, unit) in units.enumerated() {
            if let key = unit.ledgerKey, let entry = ledger[key], entry.hash == (unit.ledgerHash ?? "") {
                results[i] = IngestUnitResult(
                    alreadyApplied: true, previousReportJSON: entry.report, sessionOutcomes: [],
                    workoutOutcomes: [], quarantineAdded: 0)
            } else {
                applying.append(i)
            }
        }
        // Every session of the group in unit order: a copy in a later unit is the earlier one's duplicate or conflict.
        let sessions = applying.flatMap { units[$0].sessions }
        let outcomes = try await insertSessions(sessions, db)
        var offset = 0
        var measured: [SessionMetricsRecord] = []
        var touched = Set<UserID>()
        // The group's quarantine rows (each unit's conflicts, then its own records, units in order) in one statement;
        // `owner` says which unit each row counts for.
        var quarantine: [QuarantineRecord] = []
        var owner: [Int] = []
        var mineOf: [Int: [SessionOutcome]] = [:]
        for i in applying {
            let unit = units[i]
            let mine = Array(outcomes[offset..<(offset + unit.sessions.count)])
            offset += unit.sessions.count
            mineOf[i] = mine
            for (n, (candidate, outcome)) in zip(unit.sessions, mine).enumerated() {
                if outcome == .conflict {
                    quarantine.append(candidate.conflictQuarantine)
                    owner.append(i)
                }
                if outcome == .stored, n < unit.sessionMetrics.count, let metrics = unit.sessionMetrics[n] {
                    measured.append(metrics)
                }
            }
            quarantine += unit.quarantine
            owner += Array(repeating: i, count: unit.quarantine.count)
            touched.formUnion(unit.touchedUsers(sessionOutcomes: mine, workoutOutcomes: []))
        }
        var added: [Int: Int] = [:]
        for (n, rows) in try await insertQuarantine(quarantine, db).enumerated() { added[owner[n], default: 0] += rows }
        for i in applying {
            results[i] = IngestUnitResult(
                alreadyApplied: false, previousReportJSON: nil, sessionOutcomes: mineOf[i]!, workoutOutcomes: [],
                quarantineAdded: added[i] ?? 0)
        }
        try await insertSessionMetrics(measured, db)
        if !touched.isEmpty {
            let users = touched.map(\.rawValue).sorted()
            try await db.execute(
                """
                INSERT INTO pending_recompute (user_id, marked_at_ms) SELECT u, \(Date().epochMillis) FROM unnest(\(users)::text[]) AS t(u)
                ON CONFLICT (user_id) DO UPDATE SET marked_at_ms = GREATEST(pending_recompute.marked_at_ms, excluded.marked_at_ms)
                """)
        }
        let entries = applying.filter { units[$0].ledgerKey != nil }
        if !entries.isEmpty {
            let now = Date().epochMillis
            var sql =
                "INSERT INTO ingest_ledger (ledger_key, content_sha256, processed_at_ms, report_json, source_stamp) VALUES"
            var bindings = PostgresBindings()
            for (n, i) in entries.enumerated() {
                sql += sqlValuesRow(n, columns: 5)
                bindings.append(units[i].ledgerKey!); bindings.append(units[i].ledgerHash ?? ""); bindings.append(now)
                bindings.append(units[i].reportJSON); bindings.append(units[i].ledgerStamp)
            }
            sql += """
                 ON CONFLICT (ledger_key) DO UPDATE SET content_sha256 = excluded.content_sha256,
                    processed_at_ms = excluded.processed_at_ms, report_json = excluded.report_json, source_stamp = excluded.source_stamp
                """
            try await db.execute(PostgresQuery(unsafeSQL: sql, binds: bindings))
        }
        return results.map { $0! }
    }
}
