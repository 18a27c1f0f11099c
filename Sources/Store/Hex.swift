import Crypto

/// Lower-case hex of `bytes`, two digits a byte (`[0x0f, 0xa0]` → `"0fa0"`): what the stores and the pipeline write for a
/// SHA-256 digest (`lowercaseHex(SHA256.hash(data: bytes))`; a `Digest` is a sequence of its bytes). Stored hashes
/// depend on this exact text, so it must stay byte-for-byte what `String(format: "%02x", byte)` per byte gave.
public func lowercaseHex(_ bytes: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var hex: [UInt8] = []
    hex.reserveCapacity(bytes.underestimatedCount * 2)
    for byte in bytes {
        hex.append(digits[Int(byte >> 4)])
        hex.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: hex, as: UTF8.self)
}

/// Lower-case hex SHA-256 of `bytes` (64 characters): content hashes, ledger keys, id hashes.
public func sha256Hex(_ bytes: [UInt8]) -> String {
    bytes.withUnsafeBytes { sha256Hex($0) }
}

/// Lower-case hex SHA-256 of the bytes, hashed in place (no copy).
public func sha256Hex(_ bytes: UnsafeRawBufferPointer) -> String {
    var hasher = SHA256()
    hasher.update(bufferPointer: bytes)
    return lowercaseHex(hasher.finalize())
}
