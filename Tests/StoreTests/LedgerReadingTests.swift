import Store
import Testing

@Suite struct LedgerReadingTests {
    /// Both backends say what their ledger holds for a key, so a repeated input is recognised before validation.
    @Test(arguments: Backend.available) func ledgerHashIsTheHashOfTheAppliedUnit(_ backend: Backend) async throws {
        try await withTestStore(backend) { t in
            let ledger = try #require(t.store.ingestLedger)
            #expect(try await ledger.ledgerHash("inbox:a.json") == nil)
            try await t.store.upsertUser(Fixtures.user())
            let unit = IngestUnit(
                ledgerKey: "inbox:a.json", ledgerHash: "h1",
                sessions: [SessionCandidate(session: Fixtures.session(), conflictQuarantine: Fixtures.quarantine())])
            _ = try await t.store.apply(unit)
            #expect(try await ledger.ledgerHash("inbox:a.json") == "h1")
            #expect(try await ledger.ledgerHash("inbox:b.json") == nil)
        }
    }
}
