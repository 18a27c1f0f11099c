/// The FIT protocol's CRC-16 (the nibble-table form in the FIT SDK; equal to CRC-16/ARC: reflected polynomial 0xA001,
/// initial value 0).
public enum FITCRC {
    static let table: [UInt16] = [
        0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
        0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400,
    ]

    /// The same CRC a byte at a time (256-entry table derived from the nibble table above).
    static let byteTable: [UInt16] = (0..<256).map { i in
        var crc = UInt16(i)
        for _ in 0..<2 { crc = (crc >> 4) ^ table[Int(crc & 0xF)] }
        return crc
    }

    /// One step of the FIT SDK's nibble-table form (kept as the reference the byte table is tested against).
    public static func update(_ crc: UInt16, _ byte: UInt8) -> UInt16 {
        var crc = crc
        var tmp = table[Int(crc & 0xF)]
        crc = (crc >> 4) & 0x0FFF
        crc = crc ^ tmp ^ table[Int(byte & 0xF)]
        tmp = table[Int(crc & 0xF)]
        crc = (crc >> 4) & 0x0FFF
        crc = crc ^ tmp ^ table[Int((byte >> 4) & 0xF)]
        return crc
    }

    /// Slicing tables: `slices[k][i]` is byte `i` followed by `k` zero bytes, k = 0…15 (`slices[0]` is `byteTable`).
    static let slices: [UInt16] = {
        var t = [UInt16](repeating: 0, count: 16 * 256)
        for i in 0..<256 { t[i] = byteTable[i] }
        for k in 1..<16 {
            for i in 0..<256 {
                let prev = t[(k - 1) * 256 + i]
                t[k * 256 + i] = (prev >> 8) ^ byteTable[Int(prev & 0xFF)]
            }
        }
        return t
    }()

    /// CRC of `bytes`, starting from `crc`, sixteen bytes a step, then eight, then one (equal to the byte-at-a-time
    /// form; tested). Only the first two bytes of a step depend on the CRC so far: the other fourteen lookups are
    /// summed first, off the dependency chain (a file's CRC runs at about 3 GB/s instead of 2).
    static func checksum(_ bytes: UnsafeRawBufferPointer, from crc: UInt16 = 0) -> UInt16 {
        var crc = crc
        let n = bytes.count
        var i = 0
        slices.withUnsafeBufferPointer { t in
            // Eight bytes as one little-endian load: byte k is bits 8k…8k+7.
            @inline(__always) func byte(_ x: UInt64, _ k: UInt64) -> Int {
                Int(truncatingIfNeeded: (x &>> (8 * k)) & 0xFF)
            }
            @inline(__always) func word(_ at: Int) -> UInt64 {
                UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self))
            }
            while n - i >= 16 {
                let w = word(i), v = word(i + 8)
                var rest = t[13 * 256 + byte(w, 2)] ^ t[12 * 256 + byte(w, 3)] ^ t[11 * 256 + byte(w, 4)]
                rest ^= t[10 * 256 + byte(w, 5)] ^ t[9 * 256 + byte(w, 6)] ^ t[8 * 256 + byte(w, 7)]
                rest ^= t[7 * 256 + byte(v, 0)] ^ t[6 * 256 + byte(v, 1)] ^ t[5 * 256 + byte(v, 2)]
                rest ^= t[4 * 256 + byte(v, 3)] ^ t[3 * 256 + byte(v, 4)] ^ t[2 * 256 + byte(v, 5)]
                rest ^= t[256 + byte(v, 6)] ^ t[byte(v, 7)]
                let x = UInt64(crc) ^ w
                crc = (t[15 * 256 + byte(x, 0)] ^ t[14 * 256 + byte(x, 1)]) ^ rest
                i += 16
            }
            if n - i >= 8 {
                let x = UInt64(crc) ^ word(i)
                crc =
                    t[7 * 256 + byte(x, 0)] ^ t[6 * 256 + byte(x, 1)] ^ t[5 * 256 + byte(x, 2)]
                    ^ t[4 * 256 + byte(x, 3)] ^ t[3 * 256 + byte(x, 4)] ^ t[2 * 256 + byte(x, 5)]
                    ^ t[256 + byte(x, 6)] ^ t[byte(x, 7)]
                i += 8
            }
            while i < n {
                crc = (crc >> 8) ^ t[Int(UInt8(truncatingIfNeeded: crc) ^ bytes[i])]
                i += 1
            }
        }
        return crc
    }

    /// CRC of `bytes`, starting from `crc`.
    public static func checksum<C: Collection>(_ bytes: C, from crc: UInt16 = 0) -> UInt16 where C.Element == UInt8 {
        var crc = crc
        byteTable.withUnsafeBufferPointer { t in
            for byte in bytes { crc = (crc >> 8) ^ t[Int(UInt8(truncatingIfNeeded: crc) ^ byte)] }
        }
        return crc
    }
}
