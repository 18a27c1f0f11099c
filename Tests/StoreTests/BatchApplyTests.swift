import Foundation
import Store
import Testing

/// A unit of many sessions (the nightly's batches) with their metrics measured in the same pass, on every backend:
/// the outcomes are those of storing the sessions one after the other, metrics are stored only with a session stored
/// by this unit, and the inbox quick check reads back the stamps recorded with the ledger.
@Suite struct BatchApplyTests {
    static let ids = ["0b7e6a52-5b0e-4f5e-9a43-2d7f0c6f1a11", "0b7e6a52-5b0e-4f5e-9a43-2d7f0c6f1a12",
                      "0b7e6a52-5b0e-4f5e-9a43-2d7f0c6f1a13", "0b7e6a52-5b0e-4f5e-9a43-2d7f0c6f1a14"]

    static func metrics(_ id: String, tss: Double) -> SessionMetricsRecord {
        SessionMetricsRecord(userID: Fixtures.alice, sessionID: SessionID(uuidString: id)!, localDate: "2025-12-24", sport: "bike",
                             durationS: 1800, distanceM: 15000, energyKcal: 300, avgPowerW: 180, avgHRBpm: 140, tss: tss,
                             metricsJSON: "{\"tss\":\(tss)}", flags: ["no_heart_rate"], computedAt: 5)
    }

    @Test(arguments: Backend.available) func aBatchStoresEachSessionOnceWithItsOwnMetrics(_ backend: Backend) async throws {
        try await withTestStore(backend) { t in
            try await t.store.upsertUser(Fixtures.user())
            // Already stored before the batch: ids[0].
            _ = try await t.store.apply(IngestUnit(sessions: [SessionCandidate(session: Fixtures.session(Self.ids[0]),
                                                                               conflictQuarantine: Fixtures.quarantine())]))
            let a = Fixtures.session(Self.ids[0])                                              // duplicate of the stored one
            let b = Fixtures.session(Self.ids[1])                                              // new
            let bAgain = Fixtures.session(Self.ids[1])                                         // same content again: duplicate
            let bChanged = Fixtures.session(Self.ids[1], energy: 999, hash: String(repeating: "c", count: 64)) // conflict
            let c = Fixtures.session(Self.ids[2], start: 1_766_656_800_000)                    // new
            let sessions = [a, b, bAgain, bChanged, c]
            var unit = IngestUnit(sessions: sessions.enumerated().map {
                SessionCandidate(session: $0.element, conflictQuarantine: Fixtures.quarantine(key: "batch#\($0.offset)"))
            })
            unit.sessionMetrics = [Self.metrics(Self.ids[0], tss: 1), Self.metrics(Self.ids[1], tss: 2), Self.metrics(Self.ids[1], tss: 3),
                                   Self.metrics(Self.ids[1], tss: 4), Self.metrics(Self.ids[2], tss: 5)]
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
            let read = try await t.store.sessions(keys: [(Fixtures.alice, c.sessionID), (Fixtures.alice, SessionID(uuidString: Self.ids[3])!),
                                                         (Fixtures.alice, a.sessionID)])
            #expect(read == [c, a])
            // And the batched metric write replaces, as one write after the other would.
            try await t.store.putSessionMetrics([Self.metrics(Self.ids[0], tss: 7), Self.metrics(Self.ids[2], tss: 8),
                                                 Self.metrics(Self.ids[2], tss: 9)])
            #expect(try await t.store.sessionMetrics(user: Fixtures.alice).map(\.tss) == [7, 2, 9])
        }
    }

    @Test(arguments: Backend.available) func ledgerStampsAreReadBackByKey(_ backend: Backend) async throws {
        try await withTestStore(backend) { t in
            let ledger = try #require(t.store as? any IngestLedgerReading)
            var unit = IngestUnit(ledgerKey: "inbox:a.json", ledgerHash: "h1")
            unit.ledgerStamp = "120:1700000000123456789"
            _ = try await t.store.apply(unit)
            _ = try await t.store.apply(IngestUnit(ledgerKey: "inbox:b.json", ledgerHash: "h2"))   // no stamp
            #expect(try await ledger.ledgerStamps(["inbox:a.json", "inbox:b.json", "inbox:c.json"]) == ["inbox:a.json": "120:1700000000123456789"])
            #expect(try await ledger.ledgerStamps([]) == [:])
            // A changed file applied again under its key records its new stamp.
            var changed = IngestUnit(ledgerKey: "inbox:a.json", ledgerHash: "h3")
            changed.ledgerStamp = "121:1700000000999999999"
            _ = try await t.store.apply(changed)
            #expect(try await ledger.ledgerStamps(["inbox:a.json"]) == ["inbox:a.json": "121:1700000000999999999"])
        }
    }
}
