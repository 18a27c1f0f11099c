import Crypto
import Foundation
import Store

/// Keyed hashes of user ids (HMAC-SHA256), for what must tell users apart without naming them: the ledger keys of
/// inbox files (`sessions/<user_id>/…` becomes `sessions/<hash>/…`), and the deletion audit and its tombstone, so that
/// neither holds a plain id, nor a hash anyone can recompute from a guessed id (an unkeyed SHA-256 of `alice` is one
/// guess away).
///
/// The key is `$PIPELINE_ID_HASH_KEY` (at least 32 bytes) when the operator sets it — then a copy of the database
/// alone does not tell whose rows the hashes were. Without it, the store generates a random key once and keeps it
/// (`PipelineStore.secret(named:)`): ids are still not readable in the rows, but whoever holds the whole database holds
/// the key too. Changing the key makes every inbox file look new once (its sessions are then counted as duplicates).
public struct IdentifierHasher: Sendable {
    public static let environmentKey = "PIPELINE_ID_HASH_KEY"
    static let storeSecretName = "identifier_hmac"
    let key: SymmetricKey

    public init(key: [UInt8]) {
        self.key = SymmetricKey(data: key)
    }

    /// The operator's key, or the store's own.
    public static func resolve(
        store: any PipelineStore,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws -> IdentifierHasher {
        if let text = environment[environmentKey], !text.isEmpty {
            guard text.utf8.count >= 32 else {
                throw IngestConfigurationError("\(environmentKey) must be at least 32 bytes")
            }
            return IdentifierHasher(key: Array(text.utf8))
        }
        return IdentifierHasher(key: try await store.secret(named: storeSecretName))
    }

    /// Lower-case hex HMAC-SHA256 of the id's UTF-8 bytes.
    public func hash(_ id: UserID) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in HMAC<SHA256>.authenticationCode(for: Array(id.rawValue.utf8), using: key) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    /// The unkeyed SHA-256 of the id that deletion audits held before keyed hashes (still honoured as a tombstone).
    public static func legacyHash(_ id: UserID) -> String { Hashing.sha256Hex(Array(id.rawValue.utf8)) }

    /// Whether `id` was deleted, by the keyed hash or, for audits written before it, the unkeyed one.
    public func wasDeleted(_ id: UserID, in store: any PipelineStore) async throws -> Bool {
        if try await store.wasDeleted(userHash: hash(id)) { return true }
        return try await store.wasDeleted(userHash: Self.legacyHash(id))
    }

    /// The ledger key of an inbox file: `inbox:` and its inbox path, with the user directory of a session or workout
    /// file (`sessions/<user_id>/…`, `files/<user_id>/…`) replaced by the user's keyed hash.
    public func inboxLedgerKey(_ relative: String) -> String {
        let parts = relative.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "sessions" || parts[0] == "files" else { return "inbox:" + relative }
        return "inbox:\(parts[0])/" + hash(UserID(String(parts[1]))) + "/" + parts[2]
    }
}

/// A setting the ingest cannot work with.
public struct IngestConfigurationError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
