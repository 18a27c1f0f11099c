/// A count-min sketch of 4-bit counters estimating how often each key was seen recently
/// (TinyLFU's frequency filter, after Caffeine's block-based `FrequencySketch`).
///
/// 16 counters per cached entry (rounded up to a power of two), packed 16 to a `UInt64`, in
/// blocks of four words (32 bytes, within one cache line). A key's hash picks one block and,
/// in each of its four words, one counter: four counters, one memory line. The estimate is
/// the minimum of the four. Counters saturate at 15. After `sampleSize` (10 × capacity)
/// additions every counter is halved, so that old popularity fades ("aging").
@usableFromInline
struct FrequencySketch {
    @usableFromInline var words: [UInt64]
    @usableFromInline let blockMask: Int
    @usableFromInline let sampleSize: Int
    @usableFromInline var additions = 0

    @inlinable
    init(capacity: Int) {
        // 16 counters per entry = one word per entry; at least one block, at most 8 MiB.
        let wanted = min(max(capacity, 16), 1 << 20)
        var wordCount = 4
        while wordCount < wanted { wordCount <<= 1 }
        self.words = [UInt64](repeating: 0, count: wordCount)
        self.blockMask = wordCount / 4 - 1
        self.sampleSize = 10 * max(capacity, 16)
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

    /// The word index and bit shift of the key's counter in word `row` (0…3) of its block.
    @inlinable @inline(__always)
    static func position(_ row: Int, _ mixed: UInt64, blockMask: Int) -> (word: Int, shift: UInt64) {
        let block = Int(truncatingIfNeeded: mixed >> 32) & blockMask
        let counter = (mixed >> UInt64(row << 2)) & 15
        return (block << 2 | row, counter << 2)
    }

    @inlinable
    mutating func increment(_ hash: Int) {
        let mixed = Self.mix(hash)
        let blockMask = blockMask
        var added = false
        words.withUnsafeMutableBufferPointer { words in
            for row in 0..<4 {
                let (word, shift) = Self.position(row, mixed, blockMask: blockMask)
                if (words[word] >> shift) & 15 < 15 {
                    words[word] &+= 1 << shift
                    added = true
                }
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
        var estimate: UInt64 = 15
        for row in 0..<4 {
            let (word, shift) = Self.position(row, mixed, blockMask: blockMask)
            estimate = min(estimate, (words[word] >> shift) & 15)
        }
        return Int(estimate)
    }

    /// Halves all 16 counters of every word at once.
    @inlinable
    mutating func halve() {
        for index in words.indices {
            words[index] = (words[index] >> 1) & 0x7777_7777_7777_7777
        }
        additions /= 2
    }
}
