/// Heart Rate Measurement (0x2A37), Heart Rate Service 1.0 §3.1 / GATT Specification
/// Supplement "Heart Rate Measurement": uint8 flags; bit 0 selects a uint8 or uint16
/// heart rate; bits 1–2 sensor contact; bit 3 Energy Expended (uint16 kJ); bit 4 RR
/// intervals (uint16, 1/1024 s each, filling the rest of the value); bits 5–7 reserved.
public struct HeartRateMeasurement: Sendable, Equatable, CharacteristicCoding {
    public static let uuid: UInt16 = 0x2A37
    public static let characteristicName = "heart_rate_measurement"

    /// Sensor Contact Status, flags bits 1–2 (0 or 1: not supported; 2: supported, not
    /// detected; 3: supported and detected).
    public enum SensorContact: String, Sendable, Equatable {
        case notSupported = "not_supported", notDetected = "not_detected", detected

        public var name: String { rawValue }
    }

    public var heartRateBpm: Int
    /// True when the heart rate is sent as uint16 (flags bit 0). `encode()` also uses
    /// 16 bits when the value does not fit 8.
    public var uses16BitHeartRate: Bool
    public var sensorContact: SensorContact
    /// Bit 3; uint16 kJ.
    public var energyExpendedKJ: Int?
    /// Bit 4: the raw RR intervals (1/1024 s each), stored without allocation for up to 9
    /// (all that fit a default 23-octet ATT MTU); nil when the bit is clear.
    public var rrIntervals: RRIntervals?

    /// Bit 4; each interval in seconds. Present (possibly empty) when the bit is set, nil
    /// when it is clear. (Allocates; `rrIntervals` does not.)
    public var rrIntervalsS: [Double]? {
        get { rrIntervals.map { r in (0..<r.count).map { r.seconds(at: $0) } } }
        set { rrIntervals = newValue.map { RRIntervals(seconds: $0) } }
    }

    public init(
        heartRateBpm: Int, uses16BitHeartRate: Bool = false, sensorContact: SensorContact = .notSupported,
        energyExpendedKJ: Int? = nil, rrIntervalsS: [Double]? = nil
    ) {
        self.init(
            heartRateBpm: heartRateBpm, uses16BitHeartRate: uses16BitHeartRate, sensorContact: sensorContact,
            energyExpendedKJ: energyExpendedKJ, rrIntervals: rrIntervalsS.map { RRIntervals(seconds: $0) })
    }

    /// With the raw RR intervals (1/1024 s each).
    @inlinable
    init(
        heartRateBpm: Int, uses16BitHeartRate: Bool, sensorContact: SensorContact,
        energyExpendedKJ: Int?, rrIntervals: RRIntervals?
    ) {
        self.heartRateBpm = heartRateBpm
        self.uses16BitHeartRate = uses16BitHeartRate
        self.sensorContact = sensorContact
        self.energyExpendedKJ = energyExpendedKJ
        self.rrIntervals = rrIntervals
    }

    public var flags: UInt8 {
        var flags: UInt8 = (uses16BitHeartRate || heartRateBpm > 0xFF) ? 1 : 0
        switch sensorContact {
        case .notSupported: break
        case .notDetected: flags |= 0b100
        case .detected: flags |= 0b110
        }
        if energyExpendedKJ != nil { flags |= 1 << 3 }
        if rrIntervals != nil { flags |= 1 << 4 }
        return flags
    }

    public static func decode(_ payload: [UInt8]) throws(DecodeError) -> HeartRateMeasurement {
        try decodeArray(payload)
    }
    @inlinable @inline(__always)
    public static func decode(bytes: UnsafeRawBufferPointer) throws(DecodeError) -> HeartRateMeasurement {
        var cursor = ByteCursor(bytes)
        return try read(&cursor)
    }

    @inlinable @inline(__always)
    package static func read(_ c: inout ByteCursor) throws(DecodeError) -> HeartRateMeasurement {
        try View.read(&c).measurement
    }

    /// Zero-copy decoding: the fixed fields decoded, the RR intervals left in the payload and
    /// read from it on access (any number of them, nothing allocated, nothing copied). The
    /// same rules and errors as `decode(bytes:)`; `measurement` gives the owned value.
    ///
    /// The view borrows `bytes`: like `BlobRecordView`, it must not outlive the memory it
    /// was decoded from (typically: use it inside the `BlobReader.scan` visit).
    @inlinable @inline(__always)
    public static func decodeView(bytes: UnsafeRawBufferPointer) throws(DecodeError) -> View {
        var cursor = ByteCursor(bytes)
        return try View.read(&cursor)
    }

    /// A Heart Rate Measurement decoded in place (see `decodeView(bytes:)`). Not `Sendable`:
    /// it points into the payload it was decoded from.
    public struct View {
        public let heartRateBpm: Int
        /// Flags bit 0: the heart rate was sent as uint16.
        public let uses16BitHeartRate: Bool
        public let sensorContact: SensorContact
        /// Bit 3; uint16 kJ.
        public let energyExpendedKJ: Int?
        /// Bit 4: the RR intervals, read from the payload; nil when the bit is clear.
        public let rrIntervals: RRIntervalsView?

        @inlinable
        init(
            heartRateBpm: Int, uses16BitHeartRate: Bool, sensorContact: SensorContact, energyExpendedKJ: Int?,
            rrIntervals: RRIntervalsView?
        ) {
            self.heartRateBpm = heartRateBpm
            self.uses16BitHeartRate = uses16BitHeartRate
            self.sensorContact = sensorContact
            self.energyExpendedKJ = energyExpendedKJ
            self.rrIntervals = rrIntervals
        }

        /// The owned value (copies the RR intervals).
        @inlinable @inline(__always)
        public var measurement: HeartRateMeasurement {
            HeartRateMeasurement(
                heartRateBpm: heartRateBpm, uses16BitHeartRate: uses16BitHeartRate,
                sensorContact: sensorContact, energyExpendedKJ: energyExpendedKJ,
                rrIntervals: rrIntervals.map { RRIntervals(littleEndian: $0.octets) })
        }

        /// The one parser of this characteristic (the owned decoder builds on it).
        @inlinable @inline(__always)
        static func read(_ c: inout ByteCursor) throws(DecodeError) -> View {
            let flags = try c.u8("flags")
            let wide = flags & 1 != 0
            let rate = wide ? Int(try c.u16("heart_rate_bpm")) : Int(try c.u8("heart_rate_bpm"))
            let contact: SensorContact =
                switch (flags >> 1) & 0b11 {
                case 2: .notDetected
                case 3: .detected
                default: .notSupported
                }
            let energy: Int? = flags & (1 << 3) != 0 ? Int(try c.u16("energy_expended_kj")) : nil
            var intervals: RRIntervalsView? = nil
            if flags & (1 << 4) != 0 {
                // The intervals fill the rest of the value (an odd last octet is left unread).
                let octets = c.remaining & ~1
                intervals = RRIntervalsView(
                    octets: UnsafeRawBufferPointer(
                        start: c.bytes.baseAddress.map { $0 + c.offset }, count: octets))
                c.skip(to: c.offset &+ octets)
            }
            return View(
                heartRateBpm: rate, uses16BitHeartRate: wide, sensorContact: contact,
                energyExpendedKJ: energy, rrIntervals: intervals)
        }
    }

    public func encode() -> [UInt8] {
        var w = ByteWriter(capacity: 8 + 2 * (rrIntervals?.count ?? 0))
        let flags = self.flags
        w.u8(flags)
        if flags & 1 != 0 { w.u16(heartRateBpm) } else { w.u8(heartRateBpm) }
        if let energyExpendedKJ { w.u16(energyExpendedKJ) }
        if let rrIntervals { for i in 0..<rrIntervals.count { w.u16(rrIntervals.raw(at: i)) } }
        return w.bytes
    }
}

/// RR intervals of one Heart Rate Measurement, raw (units of 1/1024 s). Up to 9 are stored
/// inline (all that fit a default 23-octet ATT MTU); longer lists (possible with a larger
/// MTU: up to 121 in a 244-octet blob record) spill into an array.
public struct RRIntervals: Sendable, Equatable {
    @usableFromInline var inline: (UInt16, UInt16, UInt16, UInt16, UInt16, UInt16, UInt16, UInt16, UInt16) = (
        0, 0, 0, 0, 0, 0, 0, 0, 0
    )
    @usableFromInline var overflow: [UInt16]? = nil
    @usableFromInline var storedCount = 0
    /// How many intervals there are.
    public var count: Int { @inlinable get { storedCount } }

    @inlinable public init() {}

    /// From seconds (rounded to the nearest 1/1024 s, saturated to uint16).
    public init(seconds: [Double]) {
        for s in seconds { append(raw: UInt16(clamping: rawValue(s, divisor: 1024))) }
    }

    /// From consecutive uint16 little-endian intervals (an even number of octets).
    @inlinable @inline(__always)
    init(littleEndian octets: UnsafeRawBufferPointer) {
        let count = octets.count >> 1
        guard count <= 9 else { self.init(spilling: octets); return }
        self.init()
        guard let base = octets.baseAddress else { return }
        // Element by element (no pointer into `inline`, no memcpy call for a few octets).
        @inline(__always) func at(_ i: Int) -> UInt16 {
            UInt16(littleEndian: base.loadUnaligned(fromByteOffset: i &* 2, as: UInt16.self))
        }
        if count > 0 { inline.0 = at(0) }
        if count > 1 { inline.1 = at(1) }
        if count > 2 { inline.2 = at(2) }
        if count > 3 { inline.3 = at(3) }
        if count > 4 { inline.4 = at(4) }
        if count > 5 { inline.5 = at(5) }
        if count > 6 { inline.6 = at(6) }
        if count > 7 { inline.7 = at(7) }
        if count > 8 { inline.8 = at(8) }
        storedCount = count
    }

    /// More than nine intervals, out of line.
    @usableFromInline
    init(spilling octets: UnsafeRawBufferPointer) {
        self.init()
        for i in 0..<octets.count >> 1 {
            append(raw: UInt16(littleEndian: octets.loadUnaligned(fromByteOffset: 2 &* i, as: UInt16.self)))
        }
    }

    @inlinable
    public mutating func append(raw: UInt16) {
        if storedCount < 9 {
            let index = storedCount
            withUnsafeMutableBytes(of: &inline) { $0.storeBytes(of: raw, toByteOffset: index &* 2, as: UInt16.self) }
            storedCount &+= 1
        } else {
            appendSpilling(raw)
        }
    }

    /// The tenth and later intervals, out of line.
    @usableFromInline
    mutating func appendSpilling(_ raw: UInt16) {
        if overflow == nil { overflow = [] }
        overflow!.append(raw)
        storedCount += 1
    }

    /// The `index`th interval in 1/1024 s.
    @inlinable
    public func raw(at index: Int) -> UInt16 {
        precondition(index >= 0 && index < storedCount, "RR interval index out of range")
        // A switch, not a pointer into `inline`: taking the tuple's address would copy the
        // whole (reference-holding) value at every call.
        switch index {
        case 0: return inline.0
        case 1: return inline.1
        case 2: return inline.2
        case 3: return inline.3
        case 4: return inline.4
        case 5: return inline.5
        case 6: return inline.6
        case 7: return inline.7
        case 8: return inline.8
        default: return overflow![index - 9]
        }
    }

    /// The `index`th interval in seconds.
    @inlinable
    public func seconds(at index: Int) -> Double { Double(raw(at: index)) / 1024 }

    public static func == (a: RRIntervals, b: RRIntervals) -> Bool {
        a.count == b.count && (0..<a.count).allSatisfy { a.raw(at: $0) == b.raw(at: $0) }
    }
}

/// The RR intervals of a `HeartRateMeasurement.View`, read in place from the payload
/// (uint16 little-endian, 1/1024 s each). Any number of them; nothing is copied.
public struct RRIntervalsView: RandomAccessCollection {
    /// The interval octets (an even number).
    public let octets: UnsafeRawBufferPointer

    @inlinable init(octets: UnsafeRawBufferPointer) { self.octets = octets }

    public typealias Index = Int
    public typealias Element = UInt16
    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { octets.count >> 1 }
    /// The `index`th interval in 1/1024 s.
    @inlinable public subscript(index: Int) -> UInt16 {
        precondition(index >= 0 && index < octets.count >> 1, "RR interval index out of range")
        return UInt16(littleEndian: octets.loadUnaligned(fromByteOffset: index &* 2, as: UInt16.self))
    }
    /// The `index`th interval in seconds.
    @inlinable public func seconds(at index: Int) -> Double { Double(self[index]) / 1024 }
}
