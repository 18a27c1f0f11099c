/// Pieces of the FIT files the tests write by hand: the protocol's CRC-16 (CRC-16/ARC: reflected polynomial 0xA001,
/// initial 0, computed bit by bit here, independently of `FITReader`'s nibble table) and little-endian fields.
public enum FITBytes {
    public static func crc(_ bytes: [UInt8]) -> UInt16 {
        var crc: UInt16 = 0
        for byte in bytes {
            crc ^= UInt16(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xA001 : crc >> 1 }
        }
        return crc
    }

    public static func le(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
    public static func le(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
}
