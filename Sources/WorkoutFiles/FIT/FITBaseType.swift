/// FIT base types (FIT protocol, "Base Types"): size and invalid value of each. The number is the low five bits of
/// the base type byte; bit 7 says the type is multi-byte (endianness applies).
enum FITBaseType: UInt8 {
    case enumeration = 0, sint8, uint8, sint16, uint16, sint32, uint32, string, float32, float64
    case uint8z, uint16z, uint32z, byte, sint64, uint64, uint64z

    init?(byte: UInt8) { self.init(rawValue: byte & 0x1F) }

    var size: Int {
        switch self {
        case .enumeration, .sint8, .uint8, .string, .uint8z, .byte: 1
        case .sint16, .uint16, .uint16z: 2
        case .sint32, .uint32, .float32, .uint32z: 4
        case .float64, .sint64, .uint64, .uint64z: 8
        }
    }

    /// The first element of a field as a number, or nil when it holds the base type's invalid value. `p` points at
    /// the field, which has at least `size` bytes.
    @inline(__always)
    func number(_ b: UnsafeRawBufferPointer, at p: Int, bigEndian: Bool) -> Double? {
        @inline(__always) func u16() -> UInt16 {
            let v = UInt16(littleEndian: b.loadUnaligned(fromByteOffset: p, as: UInt16.self))
            return bigEndian ? v.byteSwapped : v
        }
        @inline(__always) func u32() -> UInt32 {
            let v = UInt32(littleEndian: b.loadUnaligned(fromByteOffset: p, as: UInt32.self))
            return bigEndian ? v.byteSwapped : v
        }
        @inline(__always) func u64() -> UInt64 {
            let v = UInt64(littleEndian: b.loadUnaligned(fromByteOffset: p, as: UInt64.self))
            return bigEndian ? v.byteSwapped : v
        }
        switch self {
        case .enumeration, .uint8, .byte: let v = b[p]; return v == 0xFF ? nil : Double(v)
        case .uint8z: let v = b[p]; return v == 0 ? nil : Double(v)
        case .sint8: let v = b[p]; return v == 0x7F ? nil : Double(Int8(bitPattern: v))
        case .string: return nil
        case .uint16: let v = u16(); return v == 0xFFFF ? nil : Double(v)
        case .uint16z: let v = u16(); return v == 0 ? nil : Double(v)
        case .sint16: let v = u16(); return v == 0x7FFF ? nil : Double(Int16(bitPattern: v))
        case .uint32: let v = u32(); return v == 0xFFFF_FFFF ? nil : Double(v)
        case .uint32z: let v = u32(); return v == 0 ? nil : Double(v)
        case .sint32: let v = u32(); return v == 0x7FFF_FFFF ? nil : Double(Int32(bitPattern: v))
        case .float32:
            let v = u32()
            let f = Float(bitPattern: v)
            return v == 0xFFFF_FFFF || !f.isFinite ? nil : Double(f)
        case .float64:
            let v = u64()
            let f = Double(bitPattern: v)
            return v == UInt64.max || !f.isFinite ? nil : f
        case .sint64: let v = u64(); return v == 0x7FFF_FFFF_FFFF_FFFF ? nil : Double(Int64(bitPattern: v))
        case .uint64: let v = u64(); return v == UInt64.max ? nil : Double(v)
        case .uint64z: let v = u64(); return v == 0 ? nil : Double(v)
        }
    }
}
