/// The error every characteristic decoder throws: the payload ended before a field the
/// flags (or op code) announced. It carries the evidence: which field, where, how many
/// octets it needed and how many were left.
public struct DecodeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Contract name of the field that could not be read (e.g. `"power_w"`, `"flags"`).
    public var field: String
    /// Octets the field needs.
    public var expected: Int
    /// Offset of the field in the payload.
    public var offset: Int
    /// Octets that were left at `offset`.
    public var found: Int

    public init(field: String, expected: Int, offset: Int, found: Int) {
        self.field = field
        self.expected = expected
        self.offset = offset
        self.found = found
    }

    public var description: String {
        "\(field): expected \(expected) bytes at offset \(offset), found \(found)"
    }
}

/// A bounds-checked little-endian reader over a borrowed payload. Every read either
/// returns the value and advances, or throws a `DecodeError` naming the field; it never
/// reads past the end and never allocates.
@usableFromInline
package struct ByteCursor {
    @usableFromInline package let bytes: UnsafeRawBufferPointer
    @usableFromInline var offset: Int

    @inlinable
    package init(_ bytes: UnsafeRawBufferPointer, offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    @inlinable package var remaining: Int { bytes.count - offset }

    @inlinable @inline(__always)
    func need(_ count: Int, _ field: String) throws(DecodeError) {
        if bytes.count - offset < count {
            throw DecodeError(field: field, expected: count, offset: offset, found: bytes.count - offset)
        }
    }

    @inlinable @inline(__always)
    mutating func u8(_ field: String) throws(DecodeError) -> UInt8 {
        try need(1, field)
        let value = bytes[offset]
        offset &+= 1
        return value
    }

    /// A little-endian integer as wide as `T` (FTMS `uint16`, `uint32`).
    @inlinable @inline(__always)
    mutating func littleEndian<T: FixedWidthInteger>(_ field: String, as _: T.Type) throws(DecodeError) -> T {
        try need(MemoryLayout<T>.size, field)
        let value = T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
        offset &+= MemoryLayout<T>.size
        return value
    }

    @inlinable @inline(__always)
    mutating func u16(_ field: String) throws(DecodeError) -> UInt16 { try littleEndian(field, as: UInt16.self) }

    @inlinable @inline(__always)
    mutating func s16(_ field: String) throws(DecodeError) -> Int16 {
        Int16(bitPattern: try u16(field))
    }

    /// 24-bit unsigned (FTMS `uint24`: total distance, targeted distance, CP angles).
    @inlinable @inline(__always)
    mutating func u24(_ field: String) throws(DecodeError) -> UInt32 {
        try need(3, field)
        let value = UInt32(bytes[offset]) | UInt32(bytes[offset &+ 1]) << 8 | UInt32(bytes[offset &+ 2]) << 16
        offset &+= 3
        return value
    }

    @inlinable @inline(__always)
    mutating func u32(_ field: String) throws(DecodeError) -> UInt32 { try littleEndian(field, as: UInt32.self) }

    /// The rest of the payload (consumed).
    package mutating func rest() -> UnsafeRawBufferPointer {
        let slice = UnsafeRawBufferPointer(rebasing: bytes[offset...])
        offset = bytes.count
        return slice
    }
}

/// Little-endian encoder used by the characteristic encoders and the blob writer.
struct ByteWriter {
    var bytes: [UInt8]

    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    mutating func u8(_ value: UInt8) { bytes.append(value) }
    mutating func u16(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    }
    mutating func s16(_ value: Int16) { u16(UInt16(bitPattern: value)) }
    mutating func u24(_ value: UInt32) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value >> 16))
    }
    mutating func u32(_ value: UInt32) {
        u16(UInt16(truncatingIfNeeded: value))
        u16(UInt16(truncatingIfNeeded: value >> 16))
    }
    mutating func u64(_ value: UInt64) {
        u32(UInt32(truncatingIfNeeded: value))
        u32(UInt32(truncatingIfNeeded: value >> 32))
    }

    // Clamping conversions: encoders saturate out-of-range values instead of trapping, so
    // a synthetic generator can never crash on an extreme value.
    mutating func u8(_ value: Int) { u8(UInt8(clamping: value)) }
    mutating func u16(_ value: Int) { u16(UInt16(clamping: value)) }
    mutating func s16(_ value: Int) { s16(Int16(clamping: value)) }
    mutating func u24(_ value: Int) { u24(UInt32(clamping: min(max(value, 0), 0xFF_FFFF))) }
    mutating func u32(_ value: Int) { u32(UInt32(clamping: value)) }
}

/// Converts a value in physical units to the raw integer of a field whose resolution is
/// `1 / divisor` (e.g. 0.01 km/h → divisor 100), rounding to the nearest raw step.
/// Non-finite values encode as 0; huge values saturate.
/// (Rounding half away from zero without libm, so the module links into any executable.)
@inlinable @inline(__always)
func rawValue(_ value: Double, divisor: Double) -> Int {
    let scaled = value * divisor
    guard scaled.isFinite else { return 0 }
    let clamped = min(max(scaled, -9.0e15), 9.0e15)
    let truncated = Int(clamped)
    let rest = clamped - Double(truncated) // exact below 2^52
    if rest >= 0.5 { return truncated + 1 }
    if rest <= -0.5 { return truncated - 1 }
    return truncated
}

extension ByteCursor {
    /// Moves to `offset` (after an unchecked read of a length verified beforehand).
    @inlinable
    mutating func skip(to newOffset: Int) {
        precondition(newOffset <= bytes.count)
        offset = newOffset
    }
}

/// Reads without per-field checks, for a value whose whole length was checked first
/// (`requiredLength`). Only ever created from a `ByteCursor` after that check.
@usableFromInline
struct UncheckedCursor {
    @usableFromInline let base: UnsafeRawPointer
    @usableFromInline var offset: Int

    @inlinable
    init(_ cursor: ByteCursor) {
        base = cursor.bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
        offset = cursor.offset
    }

    @inlinable @inline(__always) mutating func u8() -> UInt8 {
        let v = base.load(fromByteOffset: offset, as: UInt8.self)
        offset &+= 1
        return v
    }
    /// A little-endian integer as wide as `T`.
    @inlinable @inline(__always) mutating func littleEndian<T: FixedWidthInteger>(as _: T.Type) -> T {
        let v = T(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: T.self))
        offset &+= MemoryLayout<T>.size
        return v
    }
    @inlinable @inline(__always) mutating func u16() -> UInt16 { littleEndian(as: UInt16.self) }
    @inlinable @inline(__always) mutating func s16() -> Int16 { Int16(bitPattern: u16()) }
    @inlinable @inline(__always) mutating func u24() -> UInt32 {
        let v =
            UInt32(base.load(fromByteOffset: offset, as: UInt8.self))
            | UInt32(base.load(fromByteOffset: offset &+ 1, as: UInt8.self)) << 8
            | UInt32(base.load(fromByteOffset: offset &+ 2, as: UInt8.self)) << 16
        offset &+= 3
        return v
    }
    @inlinable @inline(__always) mutating func u32() -> UInt32 { littleEndian(as: UInt32.self) }
}

/// Octets the fields of `present` (at most 16 flag bits) need, from masks of the flag bits
/// whose fields take 1, 2, 3, 4 and 5 octets (a bit in both `twos` and `fours` weighs 6).
///
/// One weighted population count instead of five: a width w = b0 + 2·b1 + 4·b2 splits
/// the bits into three masks (odd widths; widths 2–3; widths 4–5), laid out as 16-bit lanes
/// of one 64-bit word; the usual SWAR steps count the set bits per byte, and one multiply
/// by per-byte weights (1, 2, 4) sums them into the top byte (at most 16·1 + 16·2 + 16·4 =
/// 112, so no byte overflows). The build targets baseline x86-64, where `nonzeroBitCount`
/// has no single instruction; this is about a third of the work of five counts.
@inlinable @inline(__always)
func requiredLength(present: UInt32, ones: UInt32, twos: UInt32, threes: UInt32, fours: UInt32, fives: UInt32) -> Int {
    let p = UInt64(present & 0xFFFF)
    let oddWidths = UInt64(ones | threes | fives), twoBit = UInt64(twos | threes), fourBit = UInt64(fours | fives)
    var x = (p & oddWidths) | (p & twoBit) << 16 | (p & fourBit) << 32
    x = x &- ((x >> 1) & 0x5555_5555_5555_5555)
    x = (x & 0x3333_3333_3333_3333) &+ ((x >> 2) & 0x3333_3333_3333_3333)
    x = (x &+ (x >> 4)) & 0x0F0F_0F0F_0F0F_0F0F
    // Byte k of x lands in the top byte when multiplied by 1 << (56 − 8k).
    let weights: UInt64 = 1 << 56 | 1 << 48 | 2 << 40 | 2 << 32 | 4 << 24 | 4 << 16
    return Int(truncatingIfNeeded: (x &* weights) >> 56)
}
