/// A count-min sketch of 4-bit counters estimating how often each key was seen recently
/// (TinyLFU's frequency filter, after Caffeine's block-based `FrequencySketch`).
///
/// The table has 16 counters per cached entry (rounded up to a power of two), in blocks of
/// 64, one cache line each. A key's hash picks one block and, in each of the block's four
/// 16-counter quarters, one counter: four counters, one memory line. The estimate is the
/// minimum of the four. Counters saturate at 15. After `sampleSize` (10 × capacity)
/// additions every counter is halved, so that old popularity fades ("aging").
@usableFromInline
struct FrequencySketch {
    @usableFromInline var table: [UInt8]
    @usableFromInline let blockMask: Int
    @usableFromInline let sampleSize: Int
    @usableFromInline var additions = 0

    @usableFromInline static let maximumCounter: UInt8 = 15

    @inlinable
    init(capacity: Int) {
        let wanted = min(16 * max(capacity, 16), 1 << 23)
        var size = 64
        while size < wanted { size <<= 1 }
        self.table = [UInt8](repeating: 0, count: size)
        self.blockMask = size / 64 - 1
        self.sampleSize = 10 * max(capacity, 16)
    }

    /// The index of the key's counter in quarter `quarter` (0…3) of its block.
    @inlinable @inline(__always)
    func counter(_ quarter: Int, _ mixed: UInt64) -> Int {
        let block = Int(truncatingIfNeeded: mixed >> 32) & blockMask
        let offset = quarter << 4 | Int(truncatingIfNeeded: mixed >> (quarter << 2)) & 15
        return block << 6 | offset
    }

    @inlinable @inline(__always)
    static func mix(_ hash: Int) -> UInt64 {
        var x = UInt64(bitPattern: Int64(hash))
        x ^= x >> 33
        x &*= 0xff51_afd7_ed55_8ccd
        x ^= x >> 33
        x &*= 0xc4ce_b9fe_1a85_ec53
        x ^= x >> 33
        return x
    }

    @inlinable
    mutating func increment(_ hash: Int) {
        let mixed = Self.mix(hash)
        var added = false
        table.withUnsafeMutableBufferPointer { counters in
            @inline(__always) func bump(_ index: Int) {
                if counters[index] < Self.maximumCounter {
                    counters[index] &+= 1
                    added = true
                }
            }
            let block = Int(truncatingIfNeeded: mixed >> 32) & blockMask
            bump(block << 6 | Int(truncatingIfNeeded: mixed) & 15)
            bump(block << 6 | 16 | Int(truncatingIfNeeded: mixed >> 4) & 15)
            bump(block << 6 | 32 | Int(truncatingIfNeeded: mixed >> 8) & 15)
            bump(block << 6 | 48 | Int(truncatingIfNeeded: mixed >> 12) & 15)
        }
        if added {
            additions += 1
            if additions >= sampleSize { halve() }
        }
    }

    @inlinable
    func frequency(_ hash: Int) -> Int {
        let mixed = Self.mix(hash)
        var estimate = Self.maximumCounter
        for quarter in 0..<4 {
            estimate = min(estimate, table[counter(quarter, mixed)])
        }
        return Int(estimate)
    }

    @inlinable
    mutating func halve() {
        for index in table.indices {
            table[index] >>= 1
        }
        additions /= 2
    }
}
