import Crypto
import Store

public enum Hashing {
    /// Lower-case hex SHA-256 of `bytes`, hashed in place (no copy of the bytes).
    public static func sha256Hex(_ bytes: [UInt8]) -> String {
        Store.sha256Hex(bytes)
    }

    static func sha256Hex(_ bytes: UnsafeRawBufferPointer) -> String { Store.sha256Hex(bytes) }
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
