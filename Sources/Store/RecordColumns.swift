/// A recording rearranged by column before it is compressed (`StoredRecording.formatByteColumnsLZ4`;
/// docs/raw-ble-blob.md, "How the store keeps a recording"): the same bytes, in an order a fast compressor finds far
/// more repetition in. `split` and `join` are exact inverses for every byte sequence of at least 16 bytes, whatever
/// it holds: the walk below only follows the blob's record layout (docs/raw-ble-blob.md), it never judges it, and
/// what does not make a whole record is carried verbatim.
///
/// The split form, in order:
/// 1. the 16 header bytes, as they are;
/// 2. the record count `n` (unsigned 32-bit, little-endian);
/// 3. `n` record times, each as the difference from the previous record's time (the first from 0), modulo 2³², in
///    LEB128 (one byte for the 1 s of a 1 Hz recording);
/// 4. `n` × 4 bytes: each record's UUID (2 bytes), kind and length, as they were;
/// 5. the payloads, each byte written as its difference (modulo 256) from the same byte of the previous payload of
///    the same UUID and length when `Previous` still holds that one (a slowly changing power or heart rate becomes
///    mostly zeros), otherwise as it is; in one of two orders (`PayloadOrder`):
///    - `records` (format `02`): payload after payload, in record order;
///    - `byteColumns` (format `03`): grouped by payload length, shortest first; within a group of `m` payloads of
///      length `ℓ`, byte 0 of each of them in record order, then byte 1 of each, … up to byte `ℓ − 1` (an `ℓ × m`
///      transpose of the group). A steady signal's differences then make long runs of zeros;
/// 6. the tail: the bytes after the last whole record (a recording cut short), as they are.
enum RecordColumns {
    static let headerBytes = 16

    /// How the payloads' differences are laid out (item 5 above).
    enum PayloadOrder: Sendable {
        case records
        case byteColumns
    }

    /// Where the previous payload of a (UUID, length) pair starts. A small table indexed by a hash of the pair, not
    /// a dictionary: both directions see the same records in the same order, so they take the same slot, find the
    /// same entry, and evict in the same way; a collision only costs compression. Used inside `withTable` only.
    struct Previous {
        let keys: UnsafeMutablePointer<UInt32>
        let offsets: UnsafeMutablePointer<Int>

        @inline(__always) static func key(uuid: UInt16, length: UInt8) -> UInt32 {
            (UInt32(uuid) << 8 | UInt32(length)) + 1
        }

        /// The previous offset for `key` (nil: none held), and `offset` held for it from now on.
        @inline(__always) func exchange(_ key: UInt32, _ offset: Int) -> Int? {
            let slot = Int(truncatingIfNeeded: (key &* 2_654_435_761) >> 24)
            let previous = keys[slot] == key ? offsets[slot] : nil
            keys[slot] = key
            offsets[slot] = offset
            return previous
        }

        /// `body` with an empty table.
        static func withTable<R>(_ body: (Previous) -> R) -> R {
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 256) { keys in
                withUnsafeTemporaryAllocation(of: Int.self, capacity: 256) { offsets in
                    keys.initialize(repeating: 0)
                    offsets.initialize(repeating: 0)
                    return body(Previous(keys: keys.baseAddress!, offsets: offsets.baseAddress!))
                }
            }
        }
    }

    @inline(__always) static func load32(_ p: UnsafePointer<UInt8>) -> UInt32 {
        UInt32(p[0]) | UInt32(p[1]) << 8 | UInt32(p[2]) << 16 | UInt32(p[3]) << 24
    }

    /// One payload moved to `d`: as its byte-wise difference from `b` (`subtracting`, the split) or its byte-wise sum
    /// with `b` (the join), modulo 256, when there is a previous payload `b`; otherwise as it is. Eight bytes at a time
    /// (the packed byte subtraction and addition of Hacker's Delight, 2-18: no borrow or carry crosses a byte). With
    /// `wholeWords`, the last word is whole too: the caller lets it read and write up to 7 bytes past `count` (the
    /// next record's bytes, written again afterwards by their owner; never past a buffer's end, which it checks), so
    /// that a short payload costs neither a byte loop nor a `memmove` call.
    @inline(__always) static func movePayload(
        _ a: UnsafePointer<UInt8>, previous b: UnsafePointer<UInt8>?, into d: UnsafeMutablePointer<UInt8>, count: Int,
        subtracting: Bool, wholeWords: Bool
    ) {
        let high: UInt64 = 0x8080_8080_8080_8080
        let wordsEnd = wholeWords ? count : count & ~7
        var k = 0
        while k < wordsEnd {
            let x = UnsafeRawPointer(a + k).loadUnaligned(as: UInt64.self)
            var word = x
            if let b {
                let y = UnsafeRawPointer(b + k).loadUnaligned(as: UInt64.self)
                word =
                    subtracting
                    ? ((x | high) &- (y & ~high)) ^ ((x ^ ~y) & high) : ((x & ~high) &+ (y & ~high)) ^ ((x ^ y) & high)
            }
            UnsafeMutableRawPointer(d + k).storeBytes(of: word, as: UInt64.self)
            k &+= 8
        }
        while k < count {
            d[k] = b.map { subtracting ? a[k] &- $0[k] : a[k] &+ $0[k] } ?? a[k]
            k &+= 1
        }
    }

    /// One payload's byte-wise differences from `b` (or its bytes, without `b`) written `stride` bytes apart from `d`:
    /// its place in the byte columns of its length's group (`PayloadOrder.byteColumns`).
    @inline(__always) static func scatterPayload(
        _ a: UnsafePointer<UInt8>, previous b: UnsafePointer<UInt8>?, into d: UnsafeMutablePointer<UInt8>, stride: Int,
        count: Int
    ) {
        var p = d
        if let b {
            for j in 0..<count {
                p.pointee = a[j] &- b[j]
                p += stride
            }
        } else {
            for j in 0..<count {
                p.pointee = a[j]
                p += stride
            }
        }
    }

    /// The inverse of `scatterPayload`: the bytes `stride` apart from `s`, plus `b`'s bytes when there is a `b`.
    @inline(__always) static func gatherPayload(
        _ s: UnsafePointer<UInt8>, stride: Int, previous b: UnsafePointer<UInt8>?, into d: UnsafeMutablePointer<UInt8>,
        count: Int
    ) {
        var p = s
        if let b {
            for j in 0..<count {
                d[j] = p.pointee &+ b[j]
                p += stride
            }
        } else {
            for j in 0..<count {
                d[j] = p.pointee
                p += stride
            }
        }
    }

    /// Where each length's group of payloads starts in the byte-column order, from `payloadsAt`: lengths in
    /// increasing order, `counts[ℓ] × ℓ` bytes each.
    @inline(__always) static func groupStarts(_ counts: InlineArray<256, Int>, payloadsAt: Int) -> InlineArray<256, Int>
    {
        var starts = InlineArray<256, Int>(repeating: 0)
        var at = payloadsAt
        for length in 0..<256 {
            starts[length] = at
            at &+= counts[length] &* length
        }
        return starts
    }

    @inline(__always) static func leb128Bytes(_ value: UInt32) -> Int {
        value < 1 << 7 ? 1 : value < 1 << 14 ? 2 : value < 1 << 21 ? 3 : value < 1 << 28 ? 4 : 5
    }

    /// The split form of `recording`, its payloads in `order`; nil below 16 bytes.
    static func split(_ recording: [UInt8], order: PayloadOrder) -> [UInt8]? {
        guard recording.count >= headerBytes else { return nil }
        return recording.withUnsafeBufferPointer { buffer -> [UInt8] in
            let src = buffer.baseAddress!
            let n = buffer.count
            // First pass: how many whole records, the bytes of their times, and where the tail starts.
            var count = 0
            var end = headerBytes
            var timeBytes = 0
            var time: UInt32 = 0
            var lengthCounts = InlineArray<256, Int>(repeating: 0)
            while end + 8 <= n {
                let length = Int(src[end + 7])
                let next = end + 8 + length
                guard next <= n else { break }
                let t = load32(src + end)
                timeBytes += leb128Bytes(t &- time)
                time = t
                count += 1
                lengthCounts[length] &+= 1
                end = next
            }
            let metaAt = headerBytes + 4 + timeBytes
            let payloadsAt = metaAt + 4 * count
            let size = payloadsAt + (end - headerBytes - 8 * count) + (n - end)
            var nextInGroup = groupStarts(lengthCounts, payloadsAt: payloadsAt)
            return [UInt8](unsafeUninitializedCapacity: size) { outBuffer, written in
                let out = outBuffer.baseAddress!
                out.update(from: src, count: headerBytes)
                for k in 0..<4 { out[headerBytes + k] = UInt8(truncatingIfNeeded: count >> (8 * k)) }
                Previous.withTable { previous in
                    var timeAt = headerBytes + 4
                    var metaAt = metaAt
                    var payloadAt = payloadsAt
                    var time: UInt32 = 0
                    var at = headerBytes
                    for _ in 0..<count {
                        let t = load32(src + at)
                        var delta = t &- time
                        time = t
                        while delta >= 0x80 {
                            out[timeAt] = UInt8(truncatingIfNeeded: delta) | 0x80
                            timeAt &+= 1
                            delta >>= 7
                        }
                        out[timeAt] = UInt8(truncatingIfNeeded: delta)
                        timeAt &+= 1
                        let meta = UInt32(littleEndian: UnsafeRawPointer(src + at + 4).loadUnaligned(as: UInt32.self))
                        UnsafeMutableRawPointer(out + metaAt).storeBytes(of: meta.littleEndian, as: UInt32.self)
                        metaAt &+= 4
                        let lengthByte = UInt8(truncatingIfNeeded: meta >> 24)
                        let length = Int(lengthByte)
                        let payload = at &+ 8
                        let key = Previous.key(uuid: UInt16(truncatingIfNeeded: meta), length: lengthByte)
                        let before = previous.exchange(key, payload).map { src + $0 }
                        switch order {
                        case .records:
                            // Whole words fit: the reads end before the buffer's end, the writes before the output's.
                            let wordsFit = payload &+ length &+ 7 < n && payloadAt &+ length &+ 7 < size
                            movePayload(
                                src + payload, previous: before, into: out + payloadAt, count: length,
                                subtracting: true, wholeWords: wordsFit)
                        case .byteColumns:
                            scatterPayload(
                                src + payload, previous: before, into: out + nextInGroup[length],
                                stride: lengthCounts[length], count: length)
                            nextInGroup[length] &+= 1
                        }
                        payloadAt &+= length
                        at = payload &+ length
                    }
                    (out + payloadAt).update(from: src + end, count: n - end)
                }
                written = size
            }
        }
    }

    /// The recording whose split form is `columns`; `StoredRecordingError.corruptFrame` when `columns` is not a
    /// split form (its frame's checksum held, so this is a defect or a forged row, never a recording to guess at).
    /// `order`: the payloads' order the columns were split with (the stored format says which).
    static func join(_ columns: [UInt8], order: PayloadOrder) throws(StoredRecordingError) -> [UInt8] {
        let result = columns.withUnsafeBufferPointer { buffer -> Result<[UInt8], StoredRecordingError> in
            func corrupt(_ why: String) -> Result<[UInt8], StoredRecordingError> {
                .failure(.corruptFrame("recording columns: \(why)"))
            }
            let n = buffer.count
            guard n >= headerBytes + 4, let src = buffer.baseAddress else {
                return corrupt("\(n) bytes, shorter than a header")
            }
            let count = Int(load32(src + headerBytes))
            // Each record takes at least 1 byte of time and 4 of UUID, kind and length.
            guard count <= (n - headerBytes - 4) / 5 else { return corrupt("\(count) records claimed in \(n) bytes") }
            // First pass: where the times end, after the `count`-th byte below 0x80 (the last byte of each LEB128
            // number), counted eight bytes at a time. Each number's length (at most 5 bytes) and value (below 2³²)
            // are checked as the second pass reads it: it then never reads past the times, whatever they hold.
            var at = headerBytes + 4
            var remaining = count
            let lastBytes: UInt64 = 0x8080_8080_8080_8080
            while remaining > 0 && at + 8 <= n {
                var ends = ~UInt64(littleEndian: UnsafeRawPointer(src + at).loadUnaligned(as: UInt64.self)) & lastBytes
                let found = ends.nonzeroBitCount
                if found < remaining {
                    remaining -= found
                    at += 8
                    continue
                }
                for _ in 1..<remaining { ends &= ends &- 1 }
                at += (ends.trailingZeroBitCount >> 3) + 1
                remaining = 0
            }
            while remaining > 0 {
                guard at < n else { return corrupt("the records' times are cut short") }
                if src[at] < 0x80 { remaining -= 1 }
                at += 1
            }
            let metaAt = at
            guard n - metaAt >= 4 * count else { return corrupt("the records' UUIDs and lengths are cut short") }
            var payloadBytes = 0
            var lengthCounts = InlineArray<256, Int>(repeating: 0)
            for r in 0..<count {
                let length = Int(src[metaAt + 4 * r + 3])
                payloadBytes += length
                lengthCounts[length] &+= 1
            }
            let payloadsAt = metaAt + 4 * count
            guard n - payloadsAt >= payloadBytes else { return corrupt("the payloads are cut short") }
            // Each group holds exactly the payloads of its length that the records claim: the strided reads below
            // stay inside it.
            var nextInGroup = groupStarts(lengthCounts, payloadsAt: payloadsAt)
            let tailAt = payloadsAt + payloadBytes
            let size = headerBytes + 8 * count + payloadBytes + (n - tailAt)
            var failure: StoredRecordingError?
            let recording = [UInt8](unsafeUninitializedCapacity: size) { outBuffer, written in
                let out = outBuffer.baseAddress!
                out.update(from: src, count: headerBytes)
                Previous.withTable { previous in
                    var timeAt = headerBytes + 4
                    var payloadAt = payloadsAt
                    var time: UInt32 = 0
                    var o = headerBytes
                    for r in 0..<count {
                        // Inside the times (the first pass found `count` last bytes there): a number's fifth byte is
                        // its last and holds the top 4 bits, or the columns are forged.
                        var byte = src[timeAt]
                        var delta = UInt32(byte & 0x7F)
                        if byte >= 0x80 && src[timeAt &+ 1] < 0x80 {
                            // Two bytes, a gap of 128 ms to 16 s (most records of a recording whose characteristics
                            // take turns within a second), without the loop. The second byte is inside the times:
                            // the first is not a number's last.
                            delta |= UInt32(src[timeAt &+ 1]) << 7
                            timeAt &+= 2
                        } else {
                            timeAt &+= 1
                            var shift: UInt32 = 7
                            while byte >= 0x80 {
                                byte = src[timeAt]
                                timeAt &+= 1
                                if shift == 28 && byte > 0x0F {
                                    failure = .corruptFrame(
                                        byte >= 0x80
                                            ? "recording columns: record \(r)'s time runs past its 5 bytes"
                                            : "recording columns: record \(r)'s time is above 2³²")
                                    return
                                }
                                delta |= UInt32(byte & 0x7F) << shift
                                shift &+= 7
                            }
                        }
                        time = time &+ delta
                        UnsafeMutableRawPointer(out + o).storeBytes(of: time.littleEndian, as: UInt32.self)
                        let meta = UInt32(
                            littleEndian: UnsafeRawPointer(src + metaAt + 4 &* r).loadUnaligned(as: UInt32.self))
                        UnsafeMutableRawPointer(out + o + 4).storeBytes(of: meta.littleEndian, as: UInt32.self)
                        let lengthByte = UInt8(truncatingIfNeeded: meta >> 24)
                        let length = Int(lengthByte)
                        let payload = o &+ 8
                        let key = Previous.key(uuid: UInt16(truncatingIfNeeded: meta), length: lengthByte)
                        let before = previous.exchange(key, payload).map { UnsafePointer(out + $0) }
                        switch order {
                        case .records:
                            // Whole words fit: the reads end before the buffer's end, the writes before the output's;
                            // the previous payload's words end before this record's header does.
                            let wordsFit = payloadAt &+ length &+ 7 < n && payload &+ length &+ 7 < size
                            movePayload(
                                src + payloadAt, previous: before, into: out + payload, count: length,
                                subtracting: false, wholeWords: wordsFit)
                        case .byteColumns:
                            gatherPayload(
                                src + nextInGroup[length], stride: lengthCounts[length], previous: before,
                                into: out + payload, count: length)
                            nextInGroup[length] &+= 1
                        }
                        payloadAt &+= length
                        o = payload &+ length
                    }
                    (out + o).update(from: src + tailAt, count: n - tailAt)
                    written = size
                }
            }
            if let failure { return .failure(failure) }
            return .success(recording)
        }
        return try result.get()
    }
}
