import Crypto

public enum Hashing {
    /// Lower-case hex SHA-256 of `bytes`, hashed in place (no copy of the bytes).
    public static func sha256Hex(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { sha256Hex($0) }
    }

    static func sha256Hex(_ bytes: UnsafeRawBufferPointer) -> String {
        var hasher = SHA256()
        hasher.update(bufferPointer: bytes)
        return hex(hasher.finalize())
    }

    static func hex(_ digest: SHA256.Digest) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in digest {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
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
    func hex() -> String { Hashing.hex(hasher.finalize()) }
}
