/// A recording rearranged by column before it is compressed (`StoredRecording.formatColumnsLZ4`; docs/raw-ble-blob.md,
/// "Recordings"): the same bytes, in an order a fast compressor finds far more repetition in. `split` and `join`
/// are exact inverses for every byte sequence of at least 16 bytes, whatever it holds: the walk below only
/// follows the blob's record layout (docs/raw-ble-blob.md), it never judges it, and what does not make a whole
/// record is carried verbatim.
///
/// The split form, in order:
/// 1. the 16 header bytes, as they are;
/// 2. the record count `n` (unsigned 32-bit, little-endian);
/// 3. `n` record times, each as the difference from the previous record's time (the first from 0), modulo 2³², in
///    LEB128 (one byte for the 1 s of a 1 Hz recording);
/// 4. `n` × 4 bytes: each record's UUID (2 bytes), kind and length, as they were;
/// 5. the payloads, in order, each byte written as its difference (modulo 256) from the same byte of the previous
///    payload of the same UUID and length when `Previous` still holds that one (a slowly changing power or heart
///    rate becomes mostly zeros), otherwise as it is;
/// 6. the tail: the bytes after the last whole record (a recording cut short), as they are.
enum RecordColumns {
    static let headerBytes = 16

    /// Where the previous payload of a (UUID, length) pair starts. A small table indexed by a hash of the pair, not
    /// a dictionary: both directions see the same records in the same order, so they take the same slot, find the
    /// same entry, and evict in the same way; a collision only costs compression.
    struct Previous {
        private var keys = [UInt32](repeating: 0, count: 256)
        private var offsets = [Int](repeating: 0, count: 256)

        @inline(__always) static func key(uuid: UInt16, length: UInt8) -> UInt32 {
            (UInt32(uuid) << 8 | UInt32(length)) + 1
        }

        /// The previous offset for `key` (nil: none held), and `offset` held for it from now on.
        @inline(__always) mutating func exchange(_ key: UInt32, _ offset: Int) -> Int? {
            let slot = Int(truncatingIfNeeded: (key &* 2_654_435_761) >> 24)
            let previous = keys[slot] == key ? offsets[slot] : nil
            keys[slot] = key
            offsets[slot] = offset
            return previous
        }
    }

    /// The split form of `recording`; nil below 16 bytes.
    static func split(_ recording: [UInt8]) -> [UInt8]? {
        guard recording.count >= headerBytes else { return nil }
        return recording.withUnsafeBufferPointer { src -> [UInt8] in
            // First pass: how many whole records, and where the tail starts.
            var count = 0
            var end = headerBytes
            while end + 8 <= src.count {
                let next = end + 8 + Int(src[end + 7])
                guard next <= src.count else { break }
                count += 1
                end = next
            }
            let capacity = src.count + 4 + count // every record loses 4 header bytes and gains up to 5 of time
            var previous = Previous()
            return [UInt8](unsafeUninitializedCapacity: capacity) { out, written in
                var o = 0
                for i in 0..<headerBytes { out[o] = src[i]; o += 1 }
                for shift in stride(from: 0, to: 32, by: 8) {
                    out[o] = UInt8(truncatingIfNeeded: count >> shift); o += 1
                }
                var time: UInt32 = 0
                var at = headerBytes
                for _ in 0..<count {
                    let t =
                        UInt32(src[at]) | UInt32(src[at + 1]) << 8 | UInt32(src[at + 2]) << 16
                        | UInt32(src[at + 3]) << 24
                    var delta = t &- time
                    time = t
                    while delta >= 0x80 {
                        out[o] = UInt8(truncatingIfNeeded: delta) | 0x80; o += 1
                        delta >>= 7
                    }
                    out[o] = UInt8(delta); o += 1
                    at += 8 + Int(src[at + 7])
                }
                at = headerBytes
                for _ in 0..<count {
                    out[o] = src[at + 4]; out[o + 1] = src[at + 5]; out[o + 2] = src[at + 6]; out[o + 3] = src[at + 7]
                    o += 4
                    at += 8 + Int(src[at + 7])
                }
                at = headerBytes
                for _ in 0..<count {
                    let length = Int(src[at + 7])
                    let key = Previous.key(uuid: UInt16(src[at + 4]) | UInt16(src[at + 5]) << 8, length: src[at + 7])
                    let payload = at + 8
                    if let before = previous.exchange(key, payload) {
                        for k in 0..<length { out[o + k] = src[payload + k] &- src[before + k] }
                    } else {
                        for k in 0..<length { out[o + k] = src[payload + k] }
                    }
                    o += length
                    at = payload + length
                }
                for i in end..<src.count { out[o] = src[i]; o += 1 }
                written = o
            }
        }
    }

    /// The recording whose split form is `columns`; `StoredRecordingError.corruptFrame` when `columns` is not a
    /// split form (its frame's checksum held, so this is a defect or a forged row, never a recording to guess at).
    static func join(_ columns: [UInt8]) throws(StoredRecordingError) -> [UInt8] {
        let result = columns.withUnsafeBufferPointer { src -> Result<[UInt8], StoredRecordingError> in
            func corrupt(_ why: String) -> Result<[UInt8], StoredRecordingError> {
                .failure(.corruptFrame("recording columns: \(why)"))
            }
            guard src.count >= headerBytes + 4 else { return corrupt("\(src.count) bytes, shorter than a header") }
            var count = 0
            for k in 0..<4 { count |= Int(src[headerBytes + k]) << (8 * k) }
            // Each record takes at least 1 byte of time and 4 of UUID, kind and length.
            guard count <= (src.count - headerBytes - 4) / 5 else {
                return corrupt("\(count) records claimed in \(src.count) bytes")
            }
            // The times: n LEB128 numbers, each below 2³².
            var at = headerBytes + 4
            var times = [UInt32](repeating: 0, count: count)
            var time: UInt32 = 0
            for r in 0..<count {
                var delta: UInt64 = 0
                var shift: UInt64 = 0
                while true {
                    guard at < src.count, shift < 35 else { return corrupt("record \(r)'s time runs past its 5 bytes") }
                    let byte = src[at]
                    at += 1
                    delta |= UInt64(byte & 0x7F) << shift
                    shift += 7
                    if byte < 0x80 { break }
                }
                guard delta <= UInt64(UInt32.max) else { return corrupt("record \(r)'s time is above 2³²") }
                time = time &+ UInt32(delta)
                times[r] = time
            }
            let meta = at
            guard src.count - meta >= 4 * count else { return corrupt("the records' UUIDs and lengths are cut short") }
            var payloadBytes = 0
            for r in 0..<count { payloadBytes += Int(src[meta + 4 * r + 3]) }
            let payloads = meta + 4 * count
            guard src.count - payloads >= payloadBytes else { return corrupt("the payloads are cut short") }
            let tail = payloads + payloadBytes
            let size = headerBytes + 8 * count + payloadBytes + (src.count - tail)
            var previous = Previous()
            let recording = [UInt8](unsafeUninitializedCapacity: size) { out, written in
                var o = 0
                for i in 0..<headerBytes { out[o] = src[i]; o += 1 }
                var p = payloads
                for r in 0..<count {
                    let t = times[r]
                    out[o] = UInt8(truncatingIfNeeded: t); out[o + 1] = UInt8(truncatingIfNeeded: t >> 8)
                    out[o + 2] = UInt8(truncatingIfNeeded: t >> 16); out[o + 3] = UInt8(truncatingIfNeeded: t >> 24)
                    let m = meta + 4 * r
                    out[o + 4] = src[m]; out[o + 5] = src[m + 1]; out[o + 6] = src[m + 2]; out[o + 7] = src[m + 3]
                    let length = Int(src[m + 3])
                    let payload = o + 8
                    let key = Previous.key(uuid: UInt16(src[m]) | UInt16(src[m + 1]) << 8, length: src[m + 3])
                    if let before = previous.exchange(key, payload) {
                        for k in 0..<length { out[payload + k] = src[p + k] &+ out[before + k] }
                    } else {
                        for k in 0..<length { out[payload + k] = src[p + k] }
                    }
                    p += length
                    o = payload + length
                }
                for i in tail..<src.count { out[o] = src[i]; o += 1 }
                written = o
            }
            return .success(recording)
        }
        return try result.get()
    }
}
