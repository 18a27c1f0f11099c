import Foundation
import Store
import Testing

/// A unit of many sessions (the nightly's batches) with their metrics measured in the same pass, on every backend:
/// the outcomes are those of storing the sessions one after the other, metrics are stored only with a session stored
/// by this unit, and the inbox quick check reads back the stamps recorded with the ledger.
@Suite struct BatchApplyTests {
    static let ids = [
        "0b7e6a52-5b0e-4f5e-9a43-2d7f0c6f1a11", "0b7e6a52-5b0e-4f5e-9a43-2d7f0c6f1a12",
        "0b7e6a52-5b0e-4f5e-9a43-2d7f0c6f1a13", "0b7e6a52-5b0e-4f5e-9a43-2d7f0c6f1a14",
    ]

    static func metrics(_ id: String, tss: Double) -> SessionMetricsRecord {
        SessionMetricsRecord(
            userID: Fixtures.alice, sessionID: SessionID(uuidString: id)!, localDate: LocalDate(iso: "2025-12-24")!,
            sport: "bike",
            durationS: 1800, distanceM: 15000, energyKcal: 300, avgPowerW: 180, avgHRBpm: 140, tss: tss,
            metricsJSON: "{\"tss\":\(tss)}", flags: ["no_heart_rate"], computedAt: 5)
    }

    @Test(arguments: Backend.available) func aBatchStoresEachSessionOnceWithItsOwnMetrics(_ backend: Backend)
        async throws
    {
        try await withTestStore(backend) { t in
            try await t.store.upsertUser(Fixtures.user())
            // Already stored before the batch: ids[0].
            _ = try await t.store.apply(
                IngestUnit(sessions: [
                    SessionCandidate(
                        session: Fixtures.session(Self.ids[0]),
                        conflictQuarantine: Fixtures.quarantine())
                ]))
            let a = Fixtures.session(Self.ids[0]) // duplicate of the stored one
            let b = Fixtures.session(Self.ids[1]) // new
            let bAgain = Fixtures.session(Self.ids[1]) // same content again: duplicate
            // conflict
            let bChanged = Fixtures.session(Self.ids[1], energy: 999, hash: String(repeating: "c", count: 64))
            let c = Fixtures.session(Self.ids[2], start: 1_766_656_800_000) // new
            let sessions = [a, b, bAgain, bChanged, c]
            var unit = IngestUnit(
                sessions: sessions.enumerated().map {
                    SessionCandidate(
                        session: $0.element, conflictQuarantine: Fixtures.quarantine(key: "batch#\($0.offset)"))
                })
            unit.sessionMetrics = [
                Self.metrics(Self.ids[0], tss: 1), Self.metrics(Self.ids[1], tss: 2), Self.metrics(Self.ids[1], tss: 3),
                Self.metrics(Self.ids[1], tss: 4), Self.metrics(Self.ids[2], tss: 5),
            ]
            let result = try await t.store.apply(unit)
            #expect(result.sessionOutcomes == [.duplicate, .stored, .duplicate, .conflict, .stored])
            #expect(result.quarantineAdded == 1)
            #expect(try await t.store.sessionCount(user: Fixtures.alice) == 3)
            #expect(try await t.store.session(user: Fixtures.alice, id: b.sessionID) == b)
            // Metrics only of the sessions this unit stored, each the one given with its stored copy.
            let stored = try await t.store.sessionMetrics(user: Fixtures.alice)
            #expect(stored.map(\.sessionID.rawValue) == [Self.ids[1], Self.ids[2]])
            #expect(stored.map(\.tss) == [2, 5])
            // The session stored before the batch still has none.
            #expect(try await t.store.sessionsWithoutMetrics(limit: 10).map(\.1.rawValue) == [Self.ids[0]])
            // The batched read returns the requested sessions with their blobs, in the order asked.
            let read = try await t.store.sessions(keys: [
                (Fixtures.alice, c.sessionID), (Fixtures.alice, SessionID(uuidString: Self.ids[3])!),
                (Fixtures.alice, a.sessionID),
            ])
            #expect(read == [c, a])
            // And the batched metric write replaces, as one write after the other would.
            try await t.store.putSessionMetrics([
                Self.metrics(Self.ids[0], tss: 7), Self.metrics(Self.ids[2], tss: 8),
                Self.metrics(Self.ids[2], tss: 9),
            ])
            #expect(try await t.store.sessionMetrics(user: Fixtures.alice).map(\.tss) == [7, 2, 9])
        }
    }

    /// A group of long recordings, more than one multi-row insert can carry on PostgreSQL (`insertChunks`: at most
    /// 2 MiB of recordings per statement), stores every session once, in order, with its bytes intact, and the
    /// duplicates and the conflict among them come out as one by one.
    @Test(arguments: Backend.available) func longRecordingsSpanSeveralStatementsAndStayWhole(_ backend: Backend)
        async throws
    {
        try await withTestStore(backend) { t in
            try await t.store.upsertUser(Fixtures.user())
            // Nine recordings of 0.7–1.5 MiB: 9.9 MiB, at least five statements; each recording's bytes its own.
            let ids = (0..<9).map { String(format: "0b7e6a52-5b0e-4f5e-9a43-2d7f0c6f1b%02d", $0) }
            let sessions = ids.enumerated().map { n, id in
                Fixtures.session(
                    id, start: 1_766_570_400_000 + Int64(n) * 7_200_000,
                    hash: String(repeating: Character(String(n)), count: 64),
                    raw: (0..<(700_000 + n * 100_000)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ n) })
            }
            // The third again (duplicate) and the fifth with other content (conflict), inside the same group.
            let changed = Fixtures.session(
                ids[4], start: 1_766_570_400_000 + 4 * 7_200_000, hash: String(repeating: "f", count: 64),
                raw: [9, 9, 9])
            let all = sessions + [sessions[2], changed]
            let result = try await t.store.apply(
                IngestUnit(
                    sessions: all.enumerated().map {
                        SessionCandidate(
                            session: $0.element, conflictQuarantine: Fixtures.quarantine(key: "big#\($0.offset)"))
                    }))
            #expect(result.sessionOutcomes == Array(repeating: .stored, count: 9) + [.duplicate, .conflict])
            #expect(result.quarantineAdded == 1)
            #expect(try await t.store.sessionCount(user: Fixtures.alice) == 9)
            for s in sessions { #expect(try await t.store.session(user: Fixtures.alice, id: s.sessionID) == s) }
        }
    }

    /// The quota's figures (issue 14): sessions and recording bytes of one user only; a session without a recording
    /// counts as a session of 0 bytes; on PostgreSQL a TOASTed, LZ4-compressed recording counts its uploaded size.
    @Test(arguments: Backend.available) func storageUsageCountsSessionsAndRecordingBytes(_ backend: Backend)
        async throws
    {
        try await withTestStore(backend) { t in
            try await t.store.upsertUser(Fixtures.user())
            try await t.store.upsertUser(Fixtures.user(UserID("bob")))
            #expect(
                try await t.store.storageUsage(user: Fixtures.alice) == StorageUsage(sessions: 0, recordingBytes: 0))
            let big = [UInt8](repeating: 7, count: 300_000) // compresses to almost nothing; counted at 300,000
            _ = try await t.store.apply(
                IngestUnit(sessions: [
                    SessionCandidate(
                        session: Fixtures.session(Self.ids[0], raw: big), conflictQuarantine: Fixtures.quarantine()),
                    SessionCandidate(
                        session: Fixtures.session(Self.ids[1], raw: nil), conflictQuarantine: Fixtures.quarantine()),
                    SessionCandidate(
                        session: Fixtures.session(Self.ids[2], raw: [1, 2, 3]),
                        conflictQuarantine: Fixtures.quarantine()),
                ]))
            _ = try await t.store.apply(
                IngestUnit(sessions: [
                    SessionCandidate(
                        session: Fixtures.session(Self.ids[3], user: UserID("bob"), raw: [9]),
                        conflictQuarantine: Fixtures.quarantine())
                ]))
            #expect(
                try await t.store.storageUsage(user: Fixtures.alice)
                    == StorageUsage(sessions: 3, recordingBytes: 300_003))
            #expect(try await t.store.storageUsage(user: UserID("bob")) == StorageUsage(sessions: 1, recordingBytes: 1))
        }
    }

    @Test(arguments: Backend.available) func ledgerEntriesAreReadBackByKey(_ backend: Backend) async throws {
        try await withTestStore(backend) { t in
            let ledger = try #require(t.store.ingestLedger)
            var unit = IngestUnit(ledgerKey: "inbox:a.json", ledgerHash: "h1")
            unit.ledgerStamp = "120:1700000000123456789"
            _ = try await t.store.apply(unit)
            _ = try await t.store.apply(IngestUnit(ledgerKey: "inbox:b.json", ledgerHash: "h2")) // no stamp
            #expect(
                try await ledger.ledgerEntries(["inbox:a.json", "inbox:b.json", "inbox:c.json"])
                    == [
                        "inbox:a.json": LedgerEntry(hash: "h1", stamp: "120:1700000000123456789"),
                        "inbox:b.json": LedgerEntry(hash: "h2", stamp: nil),
                    ])
            #expect(try await ledger.ledgerEntries([]) == [:])
            // A changed file applied again under its key records its new stamp.
            var changed = IngestUnit(ledgerKey: "inbox:a.json", ledgerHash: "h3")
            changed.ledgerStamp = "121:1700000000999999999"
            _ = try await t.store.apply(changed)
            #expect(
                try await ledger.ledgerEntries(["inbox:a.json"]) == [
                    "inbox:a.json": LedgerEntry(hash: "h3", stamp: "121:1700000000999999999")
                ])
        }
    }

    /// The stats' and the load's lean reads give what the full reads give, in the same order.
    @Test(arguments: Backend.available) func leanReadsEqualTheFullReads(_ backend: Backend) async throws {
        try await withTestStore(backend) { t in
            try await t.store.upsertUser(Fixtures.user())
            let sessions = Self.ids.indices.map {
                Fixtures.session(
                    Self.ids[$0], start: 1_766_570_400_000 + Int64($0 % 2) * 86_400_000,
                    energy: 100 + Double($0))
            }
            _ = try await t.store.apply(
                IngestUnit(
                    sessions: sessions.map { SessionCandidate(session: $0, conflictQuarantine: Fixtures.quarantine()) })
            )
            for (i, w) in [
                Fixtures.workout("hk-1", version: 1), Fixtures.workout("hk-2", version: 1, distance: 5000),
                Fixtures.workout("hk-3", version: 1, deleted: true),
            ].enumerated() {
                _ = try await t.store.apply(
                    IngestUnit(workouts: [
                        WorkoutCandidate(workout: w, conflictQuarantine: Fixtures.quarantine(key: "w\(i)"))
                    ]))
            }
            try await t.store.putSessionMetrics([
                Self.metrics(Self.ids[2], tss: 30), Self.metrics(Self.ids[0], tss: 10),
                Self.metrics(Self.ids[1], tss: 20),
            ])
            let figures = try await t.store.activityFigures(user: Fixtures.alice)
            let summaries = try await t.store.sessionSummaries(user: Fixtures.alice, offset: 0, limit: 100)
            #expect(figures.sessions.map(\.startMillis) == summaries.map(\.startedAt))
            #expect(figures.sessions.map(\.energyKcal) == summaries.map(\.totalEnergyKcal))
            #expect(figures.sessions.map(\.distanceM) == summaries.map(\.totalDistanceM))
            let workouts = try await t.store.workouts(user: Fixtures.alice, includeDeleted: false)
            #expect(figures.workouts.map(\.startMillis) == workouts.map(\.startAt))
            #expect(figures.workouts.map(\.distanceM) == workouts.map { $0.distanceM ?? 0 })
            #expect(figures.workouts.map(\.timeZone) == workouts.map(\.timeZone))
            #expect(figures.workouts.count == 2)
            let entries = try await t.store.loadEntries(user: Fixtures.alice)
            let full = try await t.store.sessionMetrics(user: Fixtures.alice)
            #expect(entries == full.map { LoadEntry(localDate: $0.localDate, load: $0.tss) })
            #expect(entries.map(\.load) == [10, 20, 30])
        }
    }

    /// A group of units applied at once (one transaction; PostgreSQL's group statements) answers and stores exactly
    /// what applying them one by one does: a unit the ledger holds, the same key with new bytes, sessions repeated and
    /// changed across units, rejections.
    @Test(arguments: Backend.available) func aGroupOfUnitsEqualsTheUnitsOneByOne(_ backend: Backend) async throws {
        func session(_ n: Int, energy: Double = 300) -> StoredSession {
            Fixtures.session(
                Self.ids[n], start: 1_766_570_400_000 + Int64(n) * 86_400_000, energy: energy,
                hash: energy == 300 ? nil : String(repeating: "e", count: 64))
        }
        func unit(_ key: String, hash: String, _ sessions: [StoredSession], rejected: [String] = []) -> IngestUnit {
            var u = IngestUnit(
                ledgerKey: key, ledgerHash: hash,
                sessions: sessions.enumerated().map {
                    SessionCandidate(
                        session: $0.element,
                        conflictQuarantine: Fixtures.quarantine(
                            key: "\(key)#\($0.offset)", payload: "{\"c\":\($0.offset)}"))
                },
                quarantine: rejected.map {
                    Fixtures.quarantine(key: "\(key)-bad", reason: $0, payload: "{\"bad\":\"\($0)\"}")
                })
            u.sessionMetrics = sessions.map { Self.metrics($0.sessionID.rawValue, tss: $0.totalEnergyKcal / 10) }
            u.ledgerStamp = "\(key.count):1"
            return u
        }
        let before = unit("inbox:0.json", hash: "h0", [session(0)])
        let group = [
            unit("inbox:1.json", hash: "h1", [session(1), session(2)], rejected: ["invalid_duration"]),
            unit("inbox:2.json", hash: "h2", [session(2), session(2, energy: 999), session(3)]),
            unit("inbox:3.json", hash: "h3", [], rejected: ["malformed_json"]),
            unit("inbox:0.json", hash: "h0", [session(0)]), // applied before: a no-op
        ]
        var digests: [String] = []
        var answers: [[String]] = []
        for grouped in [true, false] {
            try await withTestStore(backend) { t in
                try await t.store.upsertUser(Fixtures.user())
                _ = try await t.store.apply(before)
                var results: [IngestUnitResult] = []
                if grouped {
                    results = try await t.store.apply(group)
                } else {
                    for u in group { results.append(try await t.store.apply(u)) }
                }
                answers.append(
                    results.map { "\($0.alreadyApplied) \($0.sessionOutcomes.map(\.rawValue)) \($0.quarantineAdded)" })
                digests.append(try await t.store.contentDigest())
                let ledger = try #require(t.store.ingestLedger)
                #expect(
                    try await ledger.ledgerEntries(["inbox:1.json", "inbox:3.json"]).mapValues(\.hash) == [
                        "inbox:1.json": "h1", "inbox:3.json": "h3",
                    ])
                #expect(try await t.store.usersPendingRecompute() == [Fixtures.alice])
            }
        }
        #expect(answers[0] == answers[1])
        #expect(
            answers[0] == [
                "false [\"stored\", \"stored\"] 1", "false [\"duplicate\", \"conflict\", \"stored\"] 1",
                "false [] 1", "true [] 0",
            ])
        #expect(digests[0] == digests[1])
    }

    /// Quarantine rows written in one statement (PostgreSQL) count as written one at a time: a record repeated in its
    /// unit, in an earlier unit of the group or already stored adds nothing; an empty reason code adds nothing; the
    /// same source key with another reason or payload is a row of its own.
    @Test(arguments: Backend.available) func quarantineRowsCountOnceWhateverTheGrouping(_ backend: Backend)
        async throws
    {
        func q(_ key: String, _ reason: String, _ payload: String, user: UserID? = Fixtures.alice) -> QuarantineRecord {
            Fixtures.quarantine(key: key, reason: reason, payload: payload, user: user)
        }
        func unit(_ key: String, _ records: [QuarantineRecord]) -> IngestUnit {
            var u = IngestUnit(ledgerKey: key, ledgerHash: "h-\(key)", quarantine: records)
            u.ledgerStamp = "1:1"
            return u
        }
        let stored = q("a", "malformed_json", "{x")
        let group = [
            unit(
                "inbox:1.json",
                [
                    stored, q("a", "malformed_json", "{x"), q("a", "invalid_duration", "{x"),
                    q("a", "malformed_json", "{y"),
                    q("b", "", "{z"), q("c", "unknown_user", "{}", user: nil),
                ]),
            unit("inbox:2.json", [q("a", "invalid_duration", "{x"), q("d", "malformed_json", "{x")]),
            unit("inbox:3.json", []),
        ]
        var answers: [[Int]] = []
        var rows: [[String]] = []
        for grouped in [true, false] {
            try await withTestStore(backend) { t in
                try await t.store.upsertUser(Fixtures.user())
                #expect(try await t.store.apply(IngestUnit(quarantine: [stored])).quarantineAdded == 1)
                var results: [IngestUnitResult] = []
                if grouped {
                    results = try await t.store.apply(group)
                } else {
                    for u in group { results.append(try await t.store.apply(u)) }
                }
                answers.append(results.map(\.quarantineAdded))
                rows.append(
                    try await t.store.quarantined(reason: nil, offset: 0, limit: 100)
                        .map { "\($0.sourceKey) \($0.reasonCode) \(String(decoding: $0.payload, as: UTF8.self))" }
                        .sorted())
            }
        }
        // Unit 1: "a invalid_duration {x", "a malformed_json {y", "c unknown_user {}" are new; unit 2: only "d …".
        #expect(answers == [[3, 1, 0], [3, 1, 0]])
        #expect(
            rows[0] == [
                "a invalid_duration {x", "a malformed_json {x", "a malformed_json {y", "c unknown_user {}",
                "d malformed_json {x",
            ])
        #expect(rows[0] == rows[1])
    }

    /// A workout file's unit of many records (applied in a few statements on PostgreSQL) ends like its records applied
    /// one unit each: later versions of a record in the same unit see the earlier ones, stale, duplicate, conflicting
    /// and deleting versions are answered as such, and a stored record is replaced.
    @Test(arguments: Backend.available) func aUnitOfWorkoutsEqualsTheRecordsOneByOne(_ backend: Backend) async throws {
        let stored = Fixtures.workout("hk-0", version: 100)
        let records = [
            Fixtures.workout("hk-1", version: 100), Fixtures.workout("hk-1", version: 200, distance: 9800),
            Fixtures.workout("hk-1", version: 150), Fixtures.workout("hk-1", version: 200, distance: 9800),
            Fixtures.workout("hk-1", version: 200, distance: 5), Fixtures.workout("hk-2", version: 50, deleted: true),
            Fixtures.workout("hk-0", version: 90), Fixtures.workout("hk-0", version: 100),
            Fixtures.workout("hk-0", version: 300, distance: 42), Fixtures.workout("hk-3", version: 7),
        ]
        func candidate(_ w: WorkoutRecord, _ n: Int) -> WorkoutCandidate {
            WorkoutCandidate(
                workout: w, conflictQuarantine: Fixtures.quarantine(key: "w#\(n)", payload: "{\"w\":\(n)}"))
        }
        var answers: [[String]] = []
        var digests: [String] = []
        for together in [true, false] {
            try await withTestStore(backend) { t in
                try await t.store.upsertUser(Fixtures.user())
                _ = try await t.store.apply(IngestUnit(workouts: [candidate(stored, 99)]))
                var outcomes: [String] = []
                var added = 0
                if together {
                    let result = try await t.store.apply(
                        IngestUnit(workouts: records.enumerated().map { candidate($0.element, $0.offset) }))
                    outcomes = result.workoutOutcomes.map(\.rawValue)
                    added = result.quarantineAdded
                } else {
                    for (n, w) in records.enumerated() {
                        let result = try await t.store.apply(IngestUnit(workouts: [candidate(w, n)]))
                        outcomes += result.workoutOutcomes.map(\.rawValue)
                        added += result.quarantineAdded
                    }
                }
                answers.append(outcomes + ["\(added)"])
                digests.append(try await t.store.contentDigest())
                #expect(
                    try await t.store.workouts(user: Fixtures.alice, includeDeleted: true).map {
                        "\($0.workoutID.rawValue) \($0.updatedAt)"
                    }
                        == ["hk-0 300", "hk-1 200", "hk-2 50", "hk-3 7"])
            }
        }
        #expect(answers[0] == answers[1])
        #expect(
            answers[0] == [
                "inserted", "updated", "stale", "duplicate", "conflict", "deleted", "stale", "duplicate", "updated",
                "inserted", "1",
            ])
        #expect(digests[0] == digests[1])
    }

    /// Retention: records quarantined before the cut go, later ones stay.
    @Test(arguments: Backend.available) func quarantineAgesOut(_ backend: Backend) async throws {
        try await withTestStore(backend) { t in
            func record(_ key: String, at: EpochMillis) -> QuarantineRecord {
                QuarantineRecord(
                    userID: nil, source: "test", sourceKey: key, recordID: nil, reasonCode: .rejected(.malformedJSON),
                    message: "m",
                    payload: Array(key.utf8), receivedAt: at, quarantinedAt: at)
            }
            _ = try await t.store.apply(IngestUnit(quarantine: [record("old", at: 1_000), record("new", at: 5_000)]))
            #expect(try await t.store.purgeQuarantine(before: 3_000) == 1)
            #expect(try await t.store.quarantined(reason: nil, offset: 0, limit: 10).map(\.sourceKey) == ["new"])
            #expect(try await t.store.purgeQuarantine(before: 3_000) == 0)
        }
    }

    /// Deletion reaches the quarantine rows that carry the user's id without a `user_id` column: a rejected user record
    /// (its record id) and rejected workout records (their payloads) — and no other user's.
    @Test(arguments: Backend.available) func deletionReachesUnownedQuarantineRows(_ backend: Backend) async throws {
        try await withTestStore(backend) { t in
            try await t.store.upsertUser(Fixtures.user())
            func unowned(_ key: String, record: String?, payload: String) -> QuarantineRecord {
                QuarantineRecord(
                    userID: nil, source: "inbox", sourceKey: key, recordID: record,
                    reasonCode: .rejected(.invalidWorkout),
                    message: "m", payload: Array(payload.utf8), receivedAt: 1, quarantinedAt: 2)
            }
            _ = try await t.store.apply(
                IngestUnit(quarantine: [
                    unowned("users.json#0", record: "alice", payload: #"{"time_zone":"Mars/Base","user_id":"alice"}"#),
                    unowned("w.json#0", record: "hk-9", payload: #"{"id":"hk-9","start":"x","user_id":"alice"}"#),
                    unowned(
                        "w.ndjson:3", record: nil, payload: #"{"id": "hk-10", "user_id": "alice", "distance_m": -1"#),
                    // another user
                    unowned("w.json#1", record: "hk-11", payload: #"{"id":"hk-11","user_id":"alice2"}"#),
                    // mentions, not owns
                    unowned("users.json#1", record: "bob", payload: #"{"user_id":"bob","note":"alice"}"#),
                ]))
            #expect(try await t.store.footprint(user: Fixtures.alice).quarantine == 3)
            _ = try await t.store.deleteUser(
                Fixtures.alice, userHash: String(repeating: "d", count: 64), requestedAt: 3, completedAt: 4)
            #expect(try await t.store.footprint(user: Fixtures.alice).total == 0)
            #expect(
                Set(try await t.store.quarantined(reason: nil, offset: 0, limit: 10).map(\.sourceKey)) == [
                    "w.json#1", "users.json#1",
                ])
        }
    }
}
