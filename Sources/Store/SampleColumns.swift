import Foundation

/// A workout record's samples in columns: one array per channel, the form they are stored in
/// (`StoredSamples`; docs/workout-records.md, "How samples are stored") and the form an imported file's samples are
/// handed to the store in, without JSON in between.
///
/// The JSON shape it stands for is the one the metrics read (docs/workout-records.md, "Samples"): an array of objects,
/// each with a `t` and any of the channels, as canonical text (keys sorted, no white space, numbers as
/// `canonicalNumber` writes them). `values[c]` is empty when no sample has channel `c`, else it has `count` values,
/// NaN where a sample has none (the key absent from its object: nil is "no value", never 0). JSON numbers are finite,
/// so NaN is free to mean "absent"; `t` has a value in every sample.
public struct SampleColumns: Sendable {
    /// The channels in the order of the stored format; `key` is the JSON name.
    public enum Channel: Int, Sendable, CaseIterable {
        case t = 0, hrBpm, powerW, cadenceRpm, speedMps, distanceM, altitudeM, grade

        public var key: String {
            switch self {
            case .t: "t"
            case .hrBpm: "hr_bpm"
            case .powerW: "power_w"
            case .cadenceRpm: "cadence_rpm"
            case .speedMps: "speed_mps"
            case .distanceM: "distance_m"
            case .altitudeM: "altitude_m"
            case .grade: "grade"
            }
        }

        /// The channels in the order of their keys, as canonical JSON writes an object's members.
        static let byKey: [Channel] = Channel.allCases.sorted { $0.key < $1.key }
    }

    public private(set) var count: Int
    /// Indexed by `Channel.rawValue`: empty, or `count` values with NaN for "no value".
    public private(set) var values: [[Double]]
    /// The columns' stored layout (`StoredSamples.body`), once `withLayout()` has made it: an imported record's is
    /// made once, for its content hash, and written as it is. Not part of equality; `count` and `values` never change
    /// after `init`, so it stays theirs.
    package private(set) var layout: [UInt8]?

    /// These columns with their stored layout made.
    package func withLayout() -> SampleColumns {
        var columns = self
        columns.layout = StoredSamples.body(self)
        return columns
    }

    /// `values` by channel: each empty or `count` long; `t` has no NaN (unless `count` is 0); no infinity anywhere.
    /// Nil when the columns break one of these rules. A channel whose values are all NaN is left out, and a −0 is kept
    /// as 0: JSON has no negative zero (canonical text writes it `0`), so the columns hold what their text says.
    public init?(count: Int, values: [Channel: [Double]]) {
        var columns = [[Double]](repeating: [], count: Channel.allCases.count)
        for (channel, column) in values where !column.isEmpty {
            guard column.count == count, !column.contains(where: \.isInfinite) else { return nil }
            guard channel != .t || !column.contains(where: \.isNaN) else { return nil }
            // A channel without any value is no channel (its JSON text has no key for it).
            guard column.contains(where: { !$0.isNaN }) else { continue }
            // x + 0 is x for every value but −0, which becomes 0 (IEEE 754, rounding to nearest): a column without a −0
            // is kept as it is (shared, not copied).
            let negativeZero = column.contains { $0 == 0 && $0.sign == .minus }
            columns[channel.rawValue] = negativeZero ? column.map { $0 + 0 } : column
        }
        guard count == 0 || columns[Channel.t.rawValue].count == count else { return nil }
        self.count = count
        self.values = columns
    }

    init(uncheckedCount count: Int, values: [[Double]]) {
        self.count = count
        self.values = values
    }

    public func column(_ channel: Channel) -> [Double] { values[channel.rawValue] }

    /// The samples as canonical JSON text, byte for byte what `JSONValue.canonicalText` makes of the same array.
    public var canonicalJSON: String {
        var out: [UInt8] = []
        out.reserveCapacity(2 + count * 16 * (values.filter { !$0.isEmpty }.count))
        writeCanonicalJSON(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    public func writeCanonicalJSON(into out: inout [UInt8]) {
        writeCanonicalJSON(into: &out, chunk: .max) { _ in }
    }

    /// The same text written in pieces: after a sample, whenever `out` holds `chunk` bytes or more, `flush` is handed
    /// it and empties it (an imported record's canonical text streamed into its hash, never whole in memory). What is
    /// left in `out` at the end is the text's last piece.
    ///
    /// The text is written into a buffer of its own through a pointer, each number straight from its value
    /// (`CanonicalNumber.write(_:scale:to:)`), and moved into `out` a buffer at a time: no bounds check, capacity check
    /// or call per byte (a 2.4-day FIT file's samples are 17 MB of text).
    public func writeCanonicalJSON(into out: inout [UInt8], chunk: Int, flush: (inout [UInt8]) -> Void) {
        let present = Channel.byKey.filter { !values[$0.rawValue].isEmpty }
        let keys = present.map { Array("\"\($0.key)\":".utf8) }
        // Each channel's decimal scale, where it has one (`StoredSamples.decimalScale`): its numbers are then written
        // from their integers, without Swift's general double-to-text.
        let scales = present.map { StoredSamples.decimalScale(skippingNaN: values[$0.rawValue]) }
        let columns = present.map { values[$0.rawValue] }
        // The most one sample can take: braces, a comma, and per channel a comma, its key and a number.
        let perSample = 3 + keys.reduce(0) { $0 + 1 + $1.count + CanonicalNumber.maximumLength }
        let capacity = max(1 << 16, 2 * perSample)
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var used = 0
        func spill() {
            out.append(contentsOf: UnsafeBufferPointer(start: buffer, count: used))
            used = 0
        }
        buffer[0] = UInt8(ascii: "[")
        used = 1
        for i in 0..<count {
            if capacity - used < perSample { spill() }
            var p = buffer + used
            if i > 0 {
                p.pointee = UInt8(ascii: ",")
                p += 1
            }
            p.pointee = UInt8(ascii: "{")
            p += 1
            var first = true
            for n in 0..<columns.count {
                let v = columns[n][i]
                if v.isNaN { continue }
                if !first {
                    p.pointee = UInt8(ascii: ",")
                    p += 1
                }
                first = false
                keys[n].withUnsafeBufferPointer { key in
                    p.update(from: key.baseAddress!, count: key.count)
                    p += key.count
                }
                p += CanonicalNumber.write(v, scale: scales[n], to: p)
            }
            p.pointee = UInt8(ascii: "}")
            p += 1
            used = p - buffer
            if out.count + used >= chunk {
                spill()
                flush(&out)
            }
        }
        spill()
        out.append(UInt8(ascii: "]"))
    }

    /// The columns of samples text that has exactly the canonical shape this type stands for — an array of objects
    /// whose members are known channels with number values, `t` in each, keys sorted, no white space, each number as
    /// `CanonicalNumber.write` writes it — so that `canonicalJSON` gives `json` back byte for byte. Nil for anything
    /// else (another shape, `null` values, other keys, strings …), which the store keeps as JSON text.
    public init?(canonicalJSON json: String) {
        var text = json
        guard let parsed = text.withUTF8({ Self.parse($0) }) else { return nil }
        self = parsed
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> SampleColumns? {
        var i = 0
        let n = bytes.count
        func expect(_ c: UInt8) -> Bool {
            guard i < n, bytes[i] == c else { return false }
            i += 1
            return true
        }
        guard expect(UInt8(ascii: "[")) else { return nil }
        var columns = [[Double]](repeating: [], count: Channel.allCases.count)
        var count = 0
        var scratch: [UInt8] = []
        if expect(UInt8(ascii: "]")) { return i == n ? SampleColumns(uncheckedCount: 0, values: columns) : nil }
        repeat {
            guard expect(UInt8(ascii: "{")) else { return nil }
            var next = 0 // index in Channel.byKey of the next key allowed (keys ascending)
            var sawT = false
            if !expect(UInt8(ascii: "}")) {
                repeat {
                    guard expect(UInt8(ascii: "\"")) else { return nil }
                    let keyStart = i
                    while i < n, bytes[i] != UInt8(ascii: "\"") { i += 1 }
                    guard i < n else { return nil }
                    let key = UnsafeBufferPointer(rebasing: bytes[keyStart..<i])
                    i += 1
                    guard expect(UInt8(ascii: ":")) else { return nil }
                    var found: Int?
                    for k in next..<Channel.byKey.count where Channel.byKey[k].key.utf8.elementsEqual(key) {
                        found = k
                        break
                    }
                    guard let k = found else { return nil }
                    next = k + 1
                    let numberStart = i
                    while i < n, bytes[i] != UInt8(ascii: ","), bytes[i] != UInt8(ascii: "}") { i += 1 }
                    let token = UnsafeBufferPointer(rebasing: bytes[numberStart..<i])
                    guard let value = CanonicalNumber.parse(token, scratch: &scratch) else { return nil }
                    let channel = Channel.byKey[k]
                    if columns[channel.rawValue].isEmpty {
                        columns[channel.rawValue] = [Double](repeating: .nan, count: count)
                    }
                    columns[channel.rawValue].append(value)
                    if channel == .t { sawT = true }
                } while expect(UInt8(ascii: ","))
                guard expect(UInt8(ascii: "}")) else { return nil }
            }
            guard sawT else { return nil }
            count += 1
            for c in columns.indices where !columns[c].isEmpty && columns[c].count < count {
                columns[c].append(.nan)
            }
        } while expect(UInt8(ascii: ","))
        guard expect(UInt8(ascii: "]")), i == n else { return nil }
        return SampleColumns(uncheckedCount: count, values: columns)
    }
}

extension SampleColumns: Equatable {
    /// Equal when the same channels hold the same bits (NaN, "no value", equal to NaN).
    public static func == (a: SampleColumns, b: SampleColumns) -> Bool {
        a.count == b.count
            && zip(a.values, b.values).allSatisfy { x, y in
                x.count == y.count && zip(x, y).allSatisfy { $0.bitPattern == $1.bitPattern || $0.isNaN && $1.isNaN }
            }
    }
}

/// Numbers as canonical JSON writes them (`JSONValue.canonicalText`, the content hashes of records): a whole number
/// below 10^15 in magnitude as an integer, anything else as Swift's shortest round-trip text.
public enum CanonicalNumber {
    public static func format(_ d: Double) -> String {
        if d.isFinite, d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return "\(d)"
    }

    /// The most bytes `write` makes of one number (Swift's shortest round-trip text of a `Double` is at most 24).
    public static let maximumLength = 40

    /// `format(d)` as UTF-8. `scale`: a decimal scale s at which `d` is an integer m over 10^s exactly
    /// (`StoredSamples.decimalScale`): when |m| < 10^15 and |d| ≥ 0.001 the text is m with a decimal point s digits
    /// from its end, trailing zeros dropped — the text Swift's shortest round-trip writes for such a number (a decimal
    /// of at most 15 significant digits is the only one of that length or shorter that reads back to `d`, and Swift
    /// writes numbers from 10^-4 to 2^53 without an exponent); `StoredSamplesTests` checks the two agree.
    public static func write(_ d: Double, scale: Int? = nil, into out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumLength) { buffer in
            let n = write(d, scale: scale, to: buffer.baseAddress!)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<n]))
        }
    }

    /// `write(_:scale:into:)` at `p`, which has room for `maximumLength` bytes; the number of bytes written.
    @inline(__always)
    public static func write(_ d: Double, scale: Int?, to p: UnsafeMutablePointer<UInt8>) -> Int {
        if d.isFinite, d == d.rounded(), abs(d) < 1e15 {
            return writeInteger(Int64(d), to: p)
        }
        if let scale, scale > 0, abs(d) >= 0.001 {
            let power = StoredSamples.power(scale)
            let scaled = (d * power).rounded()
            if abs(scaled) < 1e15, Double(Int64(scaled)) / power == d {
                var m = Int64(scaled)
                var at = 0
                if m < 0 {
                    p[0] = UInt8(ascii: "-")
                    at = 1
                    m = -m
                }
                let divisor = Int64(power)
                at += writeDigits(UInt64(m / divisor), to: p + at)
                var fraction = m % divisor
                var digits = scale
                // `fraction` is not 0: `d` is not a whole number (the first case).
                while fraction != 0, fraction % 10 == 0 {
                    fraction /= 10
                    digits -= 1
                }
                p[at] = UInt8(ascii: ".")
                at += 1
                // The fraction's digits, with its leading zeros, from the last one back.
                var k = at + digits
                while k > at {
                    k -= 1
                    p[k] = UInt8(ascii: "0") + UInt8(fraction % 10)
                    fraction /= 10
                }
                return at + digits
            }
        }
        var text = d.description
        return text.withUTF8 { utf8 in
            precondition(utf8.count <= maximumLength, "a Double's text is at most 24 bytes")
            p.update(from: utf8.baseAddress!, count: utf8.count)
            return utf8.count
        }
    }

    @inline(__always)
    static func writeInteger(_ value: Int64, to p: UnsafeMutablePointer<UInt8>) -> Int {
        if value < 0 {
            p[0] = UInt8(ascii: "-")
            return 1 + writeDigits(value.magnitude, to: p + 1)
        }
        return writeDigits(UInt64(value), to: p)
    }

    /// The decimal digits of `value` at `p`; their number.
    @inline(__always)
    static func writeDigits(_ value: UInt64, to p: UnsafeMutablePointer<UInt8>) -> Int {
        var n = 1
        var x = value
        while x >= 10 {
            x /= 10
            n += 1
        }
        var v = value
        var k = n
        repeat {
            k -= 1
            p[k] = UInt8(ascii: "0") + UInt8(v % 10)
            v /= 10
        } while k > 0
        return n
    }

    /// The value of `token` when it is exactly what `write` makes of that value; nil otherwise.
    static func parse(_ token: UnsafeBufferPointer<UInt8>, scratch: inout [UInt8]) -> Double? {
        guard !token.isEmpty, token.count < 40 else { return nil }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: token)
        scratch.append(0)
        var end: UnsafeMutablePointer<CChar>?
        let value = scratch.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                let v = strtod(chars.baseAddress!, &end)
                return end == chars.baseAddress! + token.count ? v : .nan
            }
        }
        guard value.isFinite else { return nil }
        scratch.removeAll(keepingCapacity: true)
        write(value, into: &scratch)
        return scratch.elementsEqual(token) ? value : nil
    }
}
