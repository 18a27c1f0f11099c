import Crypto
import Foundation
import Store

/// Keyed hashes of user ids (HMAC-SHA256), for what must tell users apart without naming them: the ledger keys of
/// inbox files (`sessions/<user_id>/…` becomes `sessions/<hash>/…`), and the deletion audit and its tombstone, so that
/// neither holds a plain id, nor a hash anyone can recompute from a guessed id (an unkeyed SHA-256 of `alice` is one
/// guess away).
///
/// The key lives outside the database, so that a copy of the database alone cannot tell whose rows the hashes were
/// (hashing guessed ids with a key kept in the same file recovered deleted users in milliseconds):
///
/// 1. `$PIPELINE_ID_HASH_KEY` (at least 32 bytes, its UTF-8 bytes are the key), else
/// 2. the key file `$PIPELINE_ID_HASH_KEY_FILE`, else `$XDG_CONFIG_HOME/workout-pipeline/id-hash.key` (or
///    `~/.config/…`): the key in hex on one line, created with a random 32-byte key (mode 0600) when missing. Every
///    process of a deployment must see the same file.
///
/// A key an older store generated and kept itself (`pipeline_secrets`, `identifier_hmac`) moves out once: into the key
/// file when it is created, else into its `.previous` file; then the store forgets it. Keys in `<key file>.previous`
/// (hex, one per line) still match deletion tombstones written under them (`wasDeleted`), which is what rotation
/// needs: see README, "Rotating the id hash key". Changing the key makes every inbox file look new once (its
/// sessions are then counted as duplicates).
public struct IdentifierHasher: Sendable {
    public static let environmentKey = "PIPELINE_ID_HASH_KEY"
    public static let keyFileEnvironmentKey = "PIPELINE_ID_HASH_KEY_FILE"
    static let storeSecretName = "identifier_hmac"
    let key: SymmetricKey
    /// Keys used before a rotation: deletion tombstones hashed under them still count.
    let previous: [SymmetricKey]

    public init(key: [UInt8], previous: [[UInt8]] = []) {
        self.key = SymmetricKey(data: key)
        self.previous = previous.map { SymmetricKey(data: $0) }
    }

    /// The operator's key (environment or key file), with the keys before a rotation.
    public static func resolve(
        store: any PipelineStore,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws -> IdentifierHasher {
        let file = keyFileURL(environment)
        // An older store's own key moves out of the database (file first, then the row), whatever key is used now.
        if let stored = try await store.storedSecret(named: storeSecretName) {
            if try KeyFile.create(file, key: stored) == false, try KeyFile.read(file) != stored {
                try KeyFile.appendPrevious(previousURL(file), key: stored)
            }
            try await store.removeSecret(named: storeSecretName)
        }
        let previous = try KeyFile.readPrevious(previousURL(file))
        if let text = environment[environmentKey], !text.isEmpty {
            guard text.utf8.count >= 32 else {
                throw IngestConfigurationError("\(environmentKey) must be at least 32 bytes")
            }
            return IdentifierHasher(key: Array(text.utf8), previous: previous)
        }
        var generator = SystemRandomNumberGenerator()
        _ = try KeyFile.create(file, key: (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        return IdentifierHasher(key: try KeyFile.read(file), previous: previous)
    }

    /// `$PIPELINE_ID_HASH_KEY_FILE`, else `$XDG_CONFIG_HOME/workout-pipeline/id-hash.key`, else under `~/.config`.
    public static func keyFileURL(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let path = environment[keyFileEnvironmentKey], !path.isEmpty { return URL(fileURLWithPath: path) }
        let config =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config")
        return config.appendingPathComponent("workout-pipeline").appendingPathComponent("id-hash.key")
    }

    static func previousURL(_ file: URL) -> URL { URL(fileURLWithPath: file.path + ".previous") }

    /// Lower-case hex HMAC-SHA256 of the id's UTF-8 bytes.
    public func hash(_ id: UserID) -> String { Self.hex(id, key) }

    static func hex(_ id: UserID, _ key: SymmetricKey) -> String {
        lowercaseHex(HMAC<SHA256>.authenticationCode(for: Array(id.rawValue.utf8), using: key))
    }

    /// The unkeyed SHA-256 of the id that deletion audits held before keyed hashes (still honoured as a tombstone).
    public static func legacyHash(_ id: UserID) -> String { Hashing.sha256Hex(Array(id.rawValue.utf8)) }

    /// Whether `id` was deleted, by the keyed hash (the current key, then the keys before a rotation) or, for audits
    /// written before keyed hashes, the unkeyed one.
    public func wasDeleted(_ id: UserID, in store: any PipelineStore) async throws -> Bool {
        if try await store.wasDeleted(userHash: hash(id)) { return true }
        for old in previous where try await store.wasDeleted(userHash: Self.hex(id, old)) { return true }
        return try await store.wasDeleted(userHash: Self.legacyHash(id))
    }

    /// The ledger key of an inbox file: `inbox:` and its inbox path, with the user directory of a session or workout
    /// file (`sessions/<user_id>/…`, `files/<user_id>/…`) replaced by the user's keyed hash.
    public func inboxLedgerKey(_ relative: String) -> String {
        inboxLedgerKey(relative) { hash(UserID(String($0))) }
    }

    /// `inboxLedgerKey` of each path, each user directory's keyed hash computed once: an inbox holds many files a
    /// user, and one HMAC a file was about 10 ms of a nightly's single-threaded start on 1,609 files.
    public func inboxLedgerKeys(_ relatives: [String]) -> [String] {
        var hashes: [Substring: String] = [:]
        return relatives.map { relative in
            inboxLedgerKey(relative) { user in
                if let known = hashes[user] { return known }
                let hashed = hash(UserID(String(user)))
                hashes[user] = hashed
                return hashed
            }
        }
    }

    /// `inboxLedgerKey`, the user directory's keyed hash given by `userHash`.
    func inboxLedgerKey(_ relative: String, userHash: (Substring) -> String) -> String {
        let parts = relative.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "sessions" || parts[0] == "files" else { return "inbox:" + relative }
        return "inbox:\(parts[0])/" + userHash(parts[1]) + "/" + parts[2]
    }
}

/// A setting the ingest cannot work with.
public struct IngestConfigurationError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// The id hash key's file: the key's bytes in lower-case hex on one line, mode 0600.
enum KeyFile {
    static func hex(_ key: [UInt8]) -> String { lowercaseHex(key) }

    static func parse(_ line: Substring) -> [UInt8]? {
        let text = line.trimmingCharacters(in: .whitespaces)
        guard text.count >= 64 else { return nil }
        return bytesFromHex(text)
    }

    static func read(_ url: URL) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: url.path),
            let key = parse(
                Substring(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
        else {
            throw IngestConfigurationError("\(url.path): not a key (at least 64 hex digits on one line)")
        }
        return key
    }

    /// Creates the file holding `key`, unless it exists (then false). Atomic: the first of several processes wins.
    static func create(_ url: URL, key: [UInt8]) throws -> Bool {
        let directory = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        if fd < 0 {
            if errno == EEXIST { return false }
            throw IngestConfigurationError("\(url.path): cannot create the key file (errno \(errno))")
        }
        defer { close(fd) }
        let line = Array((hex(key) + "\n").utf8)
        guard write(fd, line, line.count) == line.count, fsync(fd) == 0 else {
            throw IngestConfigurationError("\(url.path): cannot write the key file")
        }
        return true
    }

    static func readPrevious(_ url: URL) throws -> [[UInt8]] {
        guard let data = FileManager.default.contents(atPath: url.path) else { return [] }
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).compactMap(parse)
    }

    static func appendPrevious(_ url: URL, key: [UInt8]) throws {
        if try readPrevious(url).contains(key) { return }
        let fd = open(url.path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        guard fd >= 0 else { throw IngestConfigurationError("\(url.path): cannot open (errno \(errno))") }
        defer { close(fd) }
        let line = Array((hex(key) + "\n").utf8)
        guard write(fd, line, line.count) == line.count, fsync(fd) == 0 else {
            throw IngestConfigurationError("\(url.path): cannot write")
        }
    }
}
