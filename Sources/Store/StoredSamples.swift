/// How a workout record's samples are kept in the `workouts.samples_json` column (the layout is
/// docs/workout-records.md, "How samples are stored").
///
/// The first byte is the format: `0x01` columns (`SampleColumns`: a version byte, then each channel as a packed array,
/// all in one zstd frame), `0x02` JSON text in a zstd frame (samples of any other shape, kept as sent). A row written
/// before migration 0021 holds the JSON text itself, which starts with `[`, `{` or another character that begins JSON,
/// never with a byte below 0x09: it is read as it is.
public enum StoredSamples {
    public static let formatColumns: UInt8 = 0x01
    public static let formatJSON: UInt8 = 0x02
    /// zstd level 3: workout samples are compressed once, at import, off the nightly's path (recordings use their
    /// columns in LZ4, `StoredRecording`).
    public static let level: Int32 = 3
    /// The largest content a stored frame may claim (a corrupt header could claim any size).
    public static let maximumBytes = 1 << 31

    /// What a row holds: the samples in columns, or JSON text (another shape, or an old row).
    public enum Value: Sendable, Equatable {
        case columns(SampleColumns)
        case json(String)

        public static func == (a: Value, b: Value) -> Bool {
            if case .columns(let x) = a, case .columns(let y) = b { return x == y }
            return a.json == b.json
        }

        /// The samples as JSON text: the stored text, or the canonical text of the columns (the same bytes the
        /// record's JSON had before it was stored in columns).
        public var json: String {
            switch self {
            case .columns(let columns): columns.canonicalJSON
            case .json(let text): text
            }
        }
    }

    /// The bytes to store for samples given as JSON text: columns when the text is exactly their canonical form
    /// (`SampleColumns(canonicalJSON:)`), else the text in a zstd frame.
    public static func encode(json: String) -> [UInt8] {
        if let columns = SampleColumns(canonicalJSON: json) { return encode(columns) }
        let text = Array(json.utf8)
        return frame(text, after: formatJSON)
    }

    /// The bytes to store for `columns`.
    public static func encode(_ columns: SampleColumns) -> [UInt8] {
        let body = body(columns)
        return frame(body, after: formatColumns)
    }

    /// The format byte and `bytes` in one frame, also when it is not smaller (small samples), so that every row of
    /// either format is a byte and a frame.
    private static func frame(_ bytes: [UInt8], after format: UInt8) -> [UInt8] {
        guard let framed = ZstdFrame.compress(bytes, level: level, after: [format], onlyWhenSmaller: false) else {
            // zstd fails only when it cannot allocate its context: nothing sensible can be stored then.
            fatalError("zstd could not compress \(bytes.count) bytes of samples")
        }
        return framed
    }

    public static func encode(_ value: Value) -> [UInt8] {
        switch value {
        case .columns(let columns): encode(columns)
        case .json(let text): encode(json: text)
        }
    }

    /// What a read of a record makes of its stored samples: a damaged frame is samples that cannot be read (empty
    /// text, which the metrics flag `samples_unreadable`), so that the record still counts from its summary.
    public static func read(_ stored: [UInt8]) -> Value {
        (try? decode(stored)) ?? .json("")
    }

    public static func decode(_ stored: [UInt8]) throws(StoredRecordingError) -> Value {
        guard let format = stored.first else { return .json("") }
        switch format {
        case formatColumns:
            let body = try ZstdFrame.decompress(stored, from: 1, maximumBytes: maximumBytes)
            guard let columns = columns(body) else {
                throw .corruptFrame("stored samples: the columns do not match their layout")
            }
            return .columns(columns)
        case formatJSON:
            let text = try ZstdFrame.decompress(stored, from: 1, maximumBytes: maximumBytes)
            return .json(String(decoding: text, as: UTF8.self))
        default:
            return .json(String(decoding: stored, as: UTF8.self))
        }
    }

    // MARK: The columns' layout (inside the frame; little-endian)

    /// The layout's own version, the frame's first byte.
    static let layoutVersion: UInt8 = 1
    /// A channel's values: `float64` as 8 byte planes (every value's byte 0, then every byte 1, …), or `decimal`: a
    /// scale byte `s` and each value × 10^s as an integer, the difference from the one before as a zigzag LEB128.
    static let encodingFloat64: UInt8 = 0, encodingDecimal: UInt8 = 1
    /// Every sample has the channel, or a presence bitmap follows (bit `j % 8` of byte `j / 8`: sample `j` has it).
    static let presenceAll: UInt8 = 0, presenceBitmap: UInt8 = 1
    static let maxDecimalScale = 6

    /// The layout of `columns` (the table above), before its zstd frame: what an imported file's record hashes its
    /// samples as (docs/workout-records.md, "Content hash").
    package static func body(_ columns: SampleColumns) -> [UInt8] {
        if let layout = columns.layout { return layout }
        var out: [UInt8] = [layoutVersion]
        append(UInt32(columns.count), to: &out)
        var mask: UInt8 = 0
        for channel in SampleColumns.Channel.allCases where !columns.values[channel.rawValue].isEmpty {
            mask |= 1 << UInt8(channel.rawValue)
        }
        out.append(mask)
        for channel in SampleColumns.Channel.allCases where !columns.values[channel.rawValue].isEmpty {
            let column = columns.values[channel.rawValue]
            let present = column.filter { !$0.isNaN }
            if present.count == column.count {
                out.append(presenceAll)
            } else {
                out.append(presenceBitmap)
                var bitmap = [UInt8](repeating: 0, count: (column.count + 7) / 8)
                for (j, v) in column.enumerated() where !v.isNaN { bitmap[j / 8] |= 1 << UInt8(j % 8) }
                out += bitmap
            }
            if let scale = decimalScale(present) {
                out.append(encodingDecimal)
                out.append(UInt8(scale))
                let p = power(scale)
                // At most 10 bytes a varint, written through a pointer (no capacity check per byte).
                let start = out.count
                out += repeatElement(0, count: 10 * present.count)
                let written = out.withUnsafeMutableBufferPointer { buffer in
                    var at = start
                    var previous: Int64 = 0
                    for v in present {
                        let m = Int64((v * p).rounded())
                        var z = zigzag(m &- previous)
                        while z >= 0x80 {
                            buffer[at] = UInt8(truncatingIfNeeded: z) | 0x80
                            z >>= 7
                            at += 1
                        }
                        buffer[at] = UInt8(z)
                        at += 1
                        previous = m
                    }
                    return at
                }
                out.removeLast(out.count - written)
            } else {
                out.append(encodingFloat64)
                let k = present.count
                let start = out.count
                out += [UInt8](repeating: 0, count: 8 * k)
                out.withUnsafeMutableBufferPointer { buffer in
                    for (j, v) in present.enumerated() {
                        let bits = v.bitPattern
                        for b in 0..<8 {
                            buffer[start + b * k + j] = UInt8(truncatingIfNeeded: bits >> (8 * UInt64(b)))
                        }
                    }
                }
            }
        }
        return out
    }

    static func columns(_ body: [UInt8]) -> SampleColumns? {
        var reader = Reader(bytes: body)
        guard reader.byte() == layoutVersion, let count32 = reader.uint32(), let mask = reader.byte() else {
            return nil
        }
        let count = Int(count32)
        guard (count == 0) == (mask == 0), mask & 1 == 1 || count == 0 else { return nil }
        // Every sample has a `t`, at least one byte of the body: a larger count is a damaged layout, refused before
        // the columns are allocated for it (a 6-byte body claiming 2^32 − 1 samples asked for tens of GB).
        guard count <= body.count else { return nil }
        var values = [[Double]](repeating: [], count: SampleColumns.Channel.allCases.count)
        for channel in SampleColumns.Channel.allCases where mask & (1 << UInt8(channel.rawValue)) != 0 {
            var has: [Bool]
            switch reader.byte() {
            case presenceAll: has = [Bool](repeating: true, count: count)
            case presenceBitmap:
                guard let bitmap = reader.bytes((count + 7) / 8) else { return nil }
                has = (0..<count).map { bitmap[$0 / 8] & (1 << UInt8($0 % 8)) != 0 }
            default: return nil
            }
            let k = has.count(where: { $0 })
            guard k > 0, channel != .t || k == count else { return nil }
            var present = [Double]()
            present.reserveCapacity(k)
            switch reader.byte() {
            case encodingDecimal:
                guard let scale = reader.byte(), Int(scale) <= maxDecimalScale else { return nil }
                let p = power(Int(scale))
                var previous: Int64 = 0
                for _ in 0..<k {
                    guard let z = reader.varint() else { return nil }
                    previous = previous &+ unzigzag(z)
                    present.append(Double(previous) / p)
                }
            case encodingFloat64:
                guard let planes = reader.bytes(8 * k) else { return nil }
                for j in 0..<k {
                    var bits: UInt64 = 0
                    for b in 0..<8 { bits |= UInt64(planes[b * k + j]) << (8 * UInt64(b)) }
                    present.append(Double(bitPattern: bits))
                }
            default: return nil
            }
            guard !present.contains(where: { !$0.isFinite }) else { return nil }
            var column = [Double](repeating: .nan, count: count)
            var next = 0
            for j in 0..<count where has[j] {
                column[j] = present[next]
                next += 1
            }
            values[channel.rawValue] = column
        }
        guard reader.atEnd else { return nil }
        return SampleColumns(uncheckedCount: count, values: values)
    }

    /// The smallest scale `s` ≤ `maxDecimalScale` at which every value is an integer m with |m| < 2^53 and
    /// `Double(m) / 10^s` gives the value's very bits back; nil when there is none (then the values are stored whole).
    static func decimalScale(_ values: [Double]) -> Int? {
        decimalScale(skippingNaN: values)
    }

    /// `decimalScale` of the values of `column` that are not NaN (its samples that have the channel), without
    /// copying them out first.
    static func decimalScale(skippingNaN column: [Double]) -> Int? {
        scales: for s in 0...maxDecimalScale {
            let p = power(s)
            for v in column where !v.isNaN {
                let m = (v * p).rounded()
                guard abs(m) < 9_007_199_254_740_992, (Double(Int64(m)) / p).bitPattern == v.bitPattern else {
                    continue scales
                }
            }
            return s
        }
        return nil
    }

    @inline(__always)
    static func power(_ s: Int) -> Double {
        switch s {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1_000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        default: preconditionFailure("decimal scale \(s) past \(maxDecimalScale)")
        }
    }

    static func zigzag(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }
    static func unzigzag(_ z: UInt64) -> Int64 { Int64(bitPattern: z >> 1) ^ -Int64(bitPattern: z & 1) }

    static func append(_ v: UInt32, to out: inout [UInt8]) {
        for b in 0..<4 { out.append(UInt8(truncatingIfNeeded: v >> (8 * UInt32(b)))) }
    }

    struct Reader {
        let bytes: [UInt8]
        var at = 0
        var atEnd: Bool { at == bytes.count }
        mutating func byte() -> UInt8? {
            guard at < bytes.count else { return nil }
            defer { at += 1 }
            return bytes[at]
        }
        mutating func bytes(_ n: Int) -> [UInt8]? {
            guard n >= 0, bytes.count - at >= n else { return nil }
            defer { at += n }
            return Array(bytes[at..<at + n])
        }
        mutating func uint32() -> UInt32? {
            guard let b = bytes(4) else { return nil }
            return b.reversed().reduce(0) { $0 << 8 | UInt32($1) }
        }
        mutating func varint() -> UInt64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while let b = byte() {
                guard shift < 64 else { return nil }
                value |= UInt64(b & 0x7F) << shift
                if b < 0x80 { return value }
                shift += 7
            }
            return nil
        }
    }
}
