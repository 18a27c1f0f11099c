import Foundation
import Store
import StoreSQLite
import Testing

@testable import Ingest

/// Keyed hashes of user ids (issue 14): what the ledger and the deletion audit keep instead of plain ids.
@Suite struct IdentifierHasherTests {
    static let key = Array("0123456789abcdef0123456789abcdef".utf8)

    /// HMAC-SHA256 hex, checked against Python's `hmac.new(key, b"alice", hashlib.sha256).hexdigest()`.
    @Test func hashesAreHMACSHA256() {
        let hasher = IdentifierHasher(key: Self.key)
        #expect(hasher.hash(UserID("alice")) == "433deb45467e4e53dbaba594c88bc3a200f705a2150788c3d11e6040e63e8510")
        #expect(hasher.hash(UserID("user-0001")) == "1846d7578f7a4e5fc4a8c177d952a71416fdd0b1763e4e3383acc22c9bb8d685")
        #expect(IdentifierHasher(key: Array(Self.key.reversed())).hash(UserID("alice")) != hasher.hash(UserID("alice")))
    }

    /// Session files' ledger keys name the user only by the keyed hash; other inbox paths are unchanged.
    @Test func ledgerKeysHideTheUserDirectory() {
        let hasher = IdentifierHasher(key: Self.key)
        #expect(
            hasher.inboxLedgerKey("sessions/alice/20251224T100000Z-a.json")
                == "inbox:sessions/433deb45467e4e53dbaba594c88bc3a200f705a2150788c3d11e6040e63e8510/20251224T100000Z-a.json"
        )
        #expect(hasher.inboxLedgerKey("workouts/w.ndjson") == "inbox:workouts/w.ndjson")
        #expect(hasher.inboxLedgerKey("users/u.json") == "inbox:users/u.json")
    }

    /// The operator's key wins over the store's; a short one is refused; without one the store's own key is used, the
    /// same in every call.
    @Test func theKeyComesFromTheOperatorOrTheStore() async throws {
        let h = try await IngestHarness()
        let store = h.store
        let fromEnv = try await IdentifierHasher.resolve(
            store: store, environment: [IdentifierHasher.environmentKey: String(decoding: Self.key, as: UTF8.self)])
        #expect(fromEnv.hash(UserID("alice")) == "433deb45467e4e53dbaba594c88bc3a200f705a2150788c3d11e6040e63e8510")
        await #expect(throws: IngestConfigurationError.self) {
            _ = try await IdentifierHasher.resolve(
                store: store, environment: [IdentifierHasher.environmentKey: "short"])
        }
        let own = try await IdentifierHasher.resolve(store: store, environment: [:])
        let again = try await IdentifierHasher.resolve(store: store, environment: [:])
        #expect(own.hash(UserID("alice")) == again.hash(UserID("alice")))
        #expect(
            own.hash(UserID("alice"))
                == IdentifierHasher(key: try await store.secret(named: "identifier_hmac")).hash(UserID("alice")))
        #expect(own.hash(UserID("alice")) != fromEnv.hash(UserID("alice")))
    }
}
