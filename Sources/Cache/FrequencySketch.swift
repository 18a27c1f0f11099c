/// A count-min sketch of 4-bit counters estimating how often each key was seen recently
/// (TinyLFU's frequency filter, after Caffeine's `FrequencySketch`).
///
/// Four rows of `width` counters (4 × the capacity rounded up to a power of two, so 16
/// counters per cached entry as in Caffeine); a key maps to one counter per row by double
/// hashing; its estimate is the minimum of the four. Counters saturate at 15. After `sampleSize` additions
/// every counter is halved, so that old popularity fades ("aging").
@usableFromInline
struct FrequencySketch {
    @usableFromInline var table: [UInt8]
    @usableFromInline let width: Int
    @usableFromInline let mask: Int
    @usableFromInline let sampleSize: Int
    @usableFromInline var additions = 0

    @usableFromInline static let maximumCounter: UInt8 = 15

    @inlinable
    init(capacity: Int) {
        let wanted = min(4 * max(capacity, 16), 1 << 21)
        var width = 1
        while width < wanted { width <<= 1 }
        self.width = width
        self.mask = width - 1
        self.sampleSize = 10 * max(capacity, 16)
        self.table = [UInt8](repeating: 0, count: 4 * width)
    }

    @inlinable @inline(__always)
    func slot(_ row: Int, _ mixed: UInt64) -> Int {
        let h1 = Int(truncatingIfNeeded: mixed)
        let h2 = Int(truncatingIfNeeded: mixed >> 32) | 1
        return row * width + ((h1 &+ row &* h2) & mask)
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
        for row in 0..<4 {
            let index = slot(row, mixed)
            if table[index] < Self.maximumCounter {
                table[index] &+= 1
                added = true
            }
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
        for row in 0..<4 {
            estimate = min(estimate, table[slot(row, mixed)])
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
