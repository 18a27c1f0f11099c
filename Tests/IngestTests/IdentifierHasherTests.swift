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

    /// The keys of a whole inbox listing, each user's hash computed once, are each path's own key.
    @Test func ledgerKeysOfAListingAreEachPathsKey() {
        let hasher = IdentifierHasher(key: Self.key)
        let paths = [
            "users/u.json", "sessions/alice/1.json", "sessions/alice/2.json", "sessions/bob/1.json",
            "sessions/alice/3.ndjson", "workouts/w.ndjson", "files/bob/run.fit", "files/alice/a/b.gpx", "sessions/x",
        ]
        let keys = hasher.inboxLedgerKeys(paths)
        #expect(keys == paths.map { hasher.inboxLedgerKey($0) })
        #expect(keys[1].hasPrefix("inbox:sessions/\(hasher.hash(UserID("alice")))/"))
        #expect(keys[6] == "inbox:files/\(hasher.hash(UserID("bob")))/run.fit")
        #expect(Set(keys).count == paths.count)
    }

    /// The operator's key wins; a short one is refused; without one, the key file's (created once with a random key,
    /// mode 0600), the same in every call. Issue 39: nothing of the key is in the database.
    @Test func theKeyComesFromTheOperatorOrAKeyFile() async throws {
        let h = try await IngestHarness()
        let store = h.store
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("idkey-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("id-hash.key")
        let env = [IdentifierHasher.keyFileEnvironmentKey: file.path]
        let fromEnv = try await IdentifierHasher.resolve(
            store: store, environment: [IdentifierHasher.environmentKey: String(decoding: Self.key, as: UTF8.self)])
        #expect(fromEnv.hash(UserID("alice")) == "433deb45467e4e53dbaba594c88bc3a200f705a2150788c3d11e6040e63e8510")
        await #expect(throws: IngestConfigurationError.self) {
            _ = try await IdentifierHasher.resolve(
                store: store, environment: [IdentifierHasher.environmentKey: "short"])
        }
        let own = try await IdentifierHasher.resolve(store: store, environment: env)
        let again = try await IdentifierHasher.resolve(store: store, environment: env)
        #expect(own.hash(UserID("alice")) == again.hash(UserID("alice")))
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.count == 65 && text.hasSuffix("\n"))
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(
            own.hash(UserID("alice"))
                == IdentifierHasher(key: try #require(KeyFile.parse(Substring(text.dropLast())))).hash(UserID("alice")))
        #expect(own.hash(UserID("alice")) != fromEnv.hash(UserID("alice")))
        #expect(try await store.storedSecret(named: "identifier_hmac") == nil)
    }

    /// A store from before issue 39 kept its own key: it moves to the key file (the same hashes as before), or, when
    /// the file already holds another key, to the `.previous` file (its deletion tombstones still count); either way
    /// the database no longer holds it.
    @Test func aKeyTheStoreKeptMovesOutOfTheDatabase() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("idkey-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("id-hash.key")
        let env = [IdentifierHasher.keyFileEnvironmentKey: file.path]

        let firstHarness = try await IngestHarness()
        let first = firstHarness.store
        let stored = try await first.secret(named: "identifier_hmac") // as an older pipeline made it
        let before = IdentifierHasher(key: stored).hash(UserID("alice"))
        let moved = try await IdentifierHasher.resolve(store: first, environment: env)
        #expect(moved.hash(UserID("alice")) == before)
        #expect(try await first.storedSecret(named: "identifier_hmac") == nil)
        #expect(try KeyFile.read(file) == stored)

        // A second store with a key of its own and a deleted user: the key goes to `.previous`, the tombstone holds.
        let secondHarness = try await IngestHarness()
        let second = secondHarness.store
        let other = try await second.secret(named: "identifier_hmac")
        #expect(other != stored)
        let gone = IngestHarness.user
        _ = try await second.deleteUser(
            gone, userHash: IdentifierHasher(key: other).hash(gone), requestedAt: 0, completedAt: 0)
        let resolved = try await IdentifierHasher.resolve(store: second, environment: env)
        #expect(resolved.hash(UserID("alice")) == before)
        #expect(try await second.storedSecret(named: "identifier_hmac") == nil)
        #expect(try KeyFile.readPrevious(URL(fileURLWithPath: file.path + ".previous")) == [other])
        #expect(try await resolved.wasDeleted(gone, in: second))
        #expect(try await !resolved.wasDeleted(UserID("alice"), in: second))
    }
}
