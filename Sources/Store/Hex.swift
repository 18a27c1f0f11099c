import Crypto

/// Lower-case hex of `bytes`, two digits a byte (`[0x0f, 0xa0]` → `"0fa0"`): what the stores and the pipeline write for a
/// SHA-256 digest (`lowercaseHex(SHA256.hash(data: bytes))`; a `Digest` is a sequence of its bytes). Stored hashes
/// depend on this exact text, so it must stay byte-for-byte what `String(format: "%02x", byte)` per byte gave.
///
/// The buffer is sized once: a digest's `underestimatedCount` is 0, and growing the buffer by appends cost three
/// allocations per hash where one does (the benchmark package's malloc count of a batch ingest holds this). Inlinable,
/// so that a caller in another module gets it specialised for its sequence: called generically, a digest was iterated
/// through witness tables, and each byte read allocated a coroutine frame (32 allocations a SHA-256).
@inlinable
public func lowercaseHex(_ bytes: some Sequence<UInt8>) -> String {
    var hex: [UInt8] = []
    hex.reserveCapacity(max(bytes.underestimatedCount, 32) * 2)
    for byte in bytes {
        hex.append(hexDigit(byte >> 4))
        hex.append(hexDigit(byte & 0x0F))
    }
    return String(decoding: hex, as: UTF8.self)
}

/// The bytes written in `digits`, two hex digits a byte, either case (`"0fA0"` → `[0x0f, 0xa0]`); nil for an odd
/// count or a character that is not a digit.
public func bytesFromHex(_ digits: some StringProtocol) -> [UInt8]? {
    guard digits.count % 2 == 0 else { return nil }
    var out: [UInt8] = []
    var index = digits.startIndex
    while index < digits.endIndex {
        let next = digits.index(index, offsetBy: 2)
        guard let byte = UInt8(digits[index..<next], radix: 16) else { return nil }
        out.append(byte)
        index = next
    }
    return out
}

@inline(__always) @usableFromInline
func hexDigit(_ nibble: UInt8) -> UInt8 {
    nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
}

/// Lower-case hex SHA-256 of `bytes` (64 characters): content hashes, ledger keys, id hashes.
public func sha256Hex(_ bytes: [UInt8]) -> String {
    bytes.withUnsafeBytes { sha256Hex($0) }
}

/// Lower-case hex SHA-256 of bytes given in pieces: `write` calls its argument with each piece, in order (the same
/// hash as of the pieces joined).
public func sha256Hex(pieces write: ((UnsafeRawBufferPointer) -> Void) -> Void) -> String {
    var hasher = SHA256()
    write { hasher.update(bufferPointer: $0) }
    return lowercaseHex(hasher.finalize())
}

/// Lower-case hex SHA-256 of the bytes, hashed in place (no copy).
public func sha256Hex(_ bytes: UnsafeRawBufferPointer) -> String {
    var hasher = SHA256()
    hasher.update(bufferPointer: bytes)
    return lowercaseHex(hasher.finalize())
}
