// A small FIT writer for the tests: definition and data messages with explicit base types, either endianness,
// compressed timestamp headers, developer fields, and the file header/CRC with knobs to break them. Its CRC is a
// bitwise CRC-16/ARC written here, independent of the module's nibble-table FITCRC.

/// A field value as written: the base type fixes the size and the byte layout.
enum FITValue {
    case enumeration(UInt8), u8(UInt8), s8(Int8), u16(UInt16), s16(Int16), u32(UInt32), s32(Int32), u32z(UInt32)
    case string(String, size: Int)
    case f32(Float)

    var baseType: UInt8 {
        switch self {
        case .enumeration: 0x00
        case .s8: 0x01
        case .u8: 0x02
        case .s16: 0x83
        case .u16: 0x84
        case .s32: 0x85
        case .u32: 0x86
        case .string: 0x07
        case .f32: 0x88
        case .u32z: 0x8C
        }
    }

    var size: Int {
        switch self {
        case .enumeration, .u8, .s8: 1
        case .u16, .s16: 2
        case .u32, .s32, .u32z, .f32: 4
        case .string(_, let size): size
        }
    }

    func bytes(bigEndian: Bool) -> [UInt8] {
        func ordered(_ little: [UInt8]) -> [UInt8] { bigEndian ? little.reversed() : little }
        switch self {
        case .enumeration(let v), .u8(let v): return [v]
        case .s8(let v): return [UInt8(bitPattern: v)]
        case .u16(let v): return ordered([UInt8(v & 0xFF), UInt8(v >> 8)])
        case .s16(let v): return FITValue.u16(UInt16(bitPattern: v)).bytes(bigEndian: bigEndian)
        case .u32(let v), .u32z(let v): return ordered((0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) })
        case .s32(let v): return FITValue.u32(UInt32(bitPattern: v)).bytes(bigEndian: bigEndian)
        case .f32(let v): return FITValue.u32(v.bitPattern).bytes(bigEndian: bigEndian)
        case .string(let s, let size):
            var b = Array(s.utf8.prefix(size - 1))
            while b.count < size { b.append(0) }
            return b
        }
    }
}

/// Bitwise CRC-16/ARC (poly 0x8005 reflected = 0xA001, init 0), the FIT file CRC.
func crc16ARC(_ bytes: [UInt8]) -> UInt16 {
    var crc: UInt16 = 0
    for byte in bytes {
        crc ^= UInt16(byte)
        for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xA001 : crc >> 1 }
    }
    return crc
}

struct FITEncoder {
    struct DevField { var number: UInt8; var size: UInt8; var index: UInt8 }
    private(set) var records: [UInt8] = []
    private var endianness: [UInt8: Bool] = [:]

    /// A definition message. `fields` are (field number, an example value giving the base type and size).
    mutating func define(
        local: UInt8, global: UInt16, bigEndian: Bool = false, fields: [(UInt8, FITValue)],
        developer: [DevField] = []
    ) {
        endianness[local] = bigEndian
        records.append(0x40 | (developer.isEmpty ? 0 : 0x20) | local)
        records.append(0) // reserved
        records.append(bigEndian ? 1 : 0)
        records += FITValue.u16(global).bytes(bigEndian: bigEndian)
        records.append(UInt8(fields.count))
        for (number, value) in fields { records += [number, UInt8(value.size), value.baseType] }
        if !developer.isEmpty {
            records.append(UInt8(developer.count))
            for d in developer { records += [d.number, d.size, d.index] }
        }
    }

    /// A data message with a normal header.
    mutating func data(local: UInt8, _ values: [FITValue], developer: [[UInt8]] = []) {
        records.append(local & 0x0F)
        append(local, values, developer)
    }

    /// A data message with a compressed timestamp header (local 0–3, offset 0–31 s).
    mutating func compressed(local: UInt8, offset: UInt8, _ values: [FITValue]) {
        records.append(0x80 | (local & 3) << 5 | (offset & 0x1F))
        append(local, values, [])
    }

    mutating func raw(_ bytes: [UInt8]) { records += bytes }

    private mutating func append(_ local: UInt8, _ values: [FITValue], _ developer: [[UInt8]]) {
        let big = endianness[local] ?? false
        for v in values { records += v.bytes(bigEndian: big) }
        for d in developer { records += d }
    }

    /// The whole file: header (14 bytes with CRC, or 12), records, file CRC.
    func file(headerSize: Int = 14, headerCRC: UInt16? = nil, dataSize: Int? = nil, breakFileCRC: Bool = false)
        -> [UInt8]
    {
        var header: [UInt8] = [UInt8(headerSize), 0x20]
        header += FITValue.u16(2132).bytes(bigEndian: false)
        header += FITValue.u32(UInt32(dataSize ?? records.count)).bytes(bigEndian: false)
        header += Array(".FIT".utf8)
        if headerSize == 14 { header += FITValue.u16(headerCRC ?? crc16ARC(header)).bytes(bigEndian: false) }
        var out = header + records
        var crc = crc16ARC(out)
        if breakFileCRC { crc ^= 0x5A5A }
        out += FITValue.u16(crc).bytes(bigEndian: false)
        return out
    }
}
