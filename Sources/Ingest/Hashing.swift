import CXXHash
import Crypto
import Store

public enum Hashing {
    /// Lower-case hex SHA-256 of `bytes`, hashed in place (no copy of the bytes).
    public static func sha256Hex(_ bytes: [UInt8]) -> String {
        Store.sha256Hex(bytes)
    }

    static func sha256Hex(_ bytes: UnsafeRawBufferPointer) -> String { Store.sha256Hex(bytes) }

    /// What a ledger fingerprint made by `ledgerFingerprint` starts with.
    public static let ledgerFingerprintPrefix = "xxh3-128:"

    /// The ingest ledger's fingerprint of a batch body (docs/inbox.md, "The ledger's fingerprint"):
    /// `xxh3-128:` and the 32 lower-case hex digits of XXH3's 128-bit hash (seed 0) in its canonical, big-endian
    /// form — what `xxhsum -H2` prints. It only tells whether the bytes under one ledger key changed; nothing else
    /// reads it, so it need not be a cryptographic hash (the sessions' content hashes stay SHA-256).
    public static func ledgerFingerprint(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { ledgerFingerprint($0) }
    }

    static func ledgerFingerprint(_ bytes: UnsafeRawBufferPointer) -> String {
        var canonical = XXH128_canonical_t()
        XXH128_canonicalFromHash(&canonical, XXH3_128bits(bytes.baseAddress, bytes.count))
        return ledgerFingerprintPrefix + withUnsafeBytes(of: canonical.digest) { lowercaseHex($0) }
    }

    /// Whether `recorded`, a ledger entry's hash, is that of `bytes`, whose fingerprint is `fingerprint`: the same
    /// fingerprint, or the SHA-256 hex that entries recorded before the fingerprint hold (64 digits, which no
    /// fingerprint has; computed only for such an entry). Anything else (an oversized file's `size:N`) matches no bytes.
    static func ledgerEntry(_ recorded: String, matches bytes: [UInt8], fingerprint: String) -> Bool {
        recorded == fingerprint || (recorded.utf8.count == 64 && recorded == sha256Hex(bytes))
    }
}

/// The SHA-256 of a text written in pieces (`consume`), its size, and its first `keep` bytes: an imported record's
/// canonical text hashed as it is written, never whole in memory; the quarantine keeps at most its first bytes
/// (`QuarantineRecord.bounded`). The same hash as `Hashing.sha256Hex` of the whole text.
struct StreamedDigest {
    private var hasher = SHA256()
    /// The bytes consumed so far.
    private(set) var size = 0
    /// Their first `keep` bytes (all of them while `size` ≤ `keep`).
    private(set) var prefix: [UInt8] = []
    let keep: Int

    init(keep: Int) { self.keep = keep }

    /// Hashes `bytes` and empties them (keeping their capacity, for the next piece).
    mutating func consume(_ bytes: inout [UInt8]) {
        bytes.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        if prefix.count < keep { prefix += bytes.prefix(keep - prefix.count) }
        size += bytes.count
        bytes.removeAll(keepingCapacity: true)
    }

    /// Lower-case hex SHA-256 of everything consumed.
    func hex() -> String { lowercaseHex(hasher.finalize()) }
}
