/// The six FTMS data characteristics, Cycling Power Measurement and CSC Measurement are each
/// described once, as a field list (`RecordLayout.fields`): flag bit, contract name, wire type
/// and divisor of every field in wire order. Everything else is derived from that list by running it with a different
/// `FieldList`: the length check and the flag bits, the checked and unchecked walks of the
/// decoders (value, streaming visitor and error), the value's storage slots and property
/// accessors and the encoder (and `pipeline decode`'s rendering, in `FTMSRender`). With the list inlined, every
/// derived quantity is a compile-time constant.

/// How a field is sent (little-endian).
public enum WireType: Sendable {
    case u8, u16, s16, u24, u32
    /// Two uint12 packed in 3 octets (Cycling Power's extreme angles): `u12Low` is the low 12
    /// bits and reads nothing itself, `u12High` the high 12 bits, consuming the 3 octets. The
    /// two are listed one after the other, low first.
    case u12Low, u12High

    /// Octets on the wire.
    @inlinable var width: Int {
        switch self {
        case .u8: 1
        case .u16, .s16: 2
        case .u24, .u12High: 3
        case .u32: 4
        case .u12Low: 0
        }
    }

    /// The wire integer nearest `value` (saturated to the type's range).
    @inlinable func clamp(_ value: Int) -> Int {
        switch self {
        case .u8: min(max(value, 0), 0xFF)
        case .u16: min(max(value, 0), 0xFFFF)
        case .s16: min(max(value, -0x8000), 0x7FFF)
        case .u24: min(max(value, 0), 0xFF_FFFF)
        case .u32: min(max(value, 0), 0xFFFF_FFFF)
        case .u12Low, .u12High: min(max(value, 0), 0xFFF)
        }
    }

    /// "Data not available" (FTMS: all ones; the largest value for signed fields).
    @inlinable public var notAvailable: Int {
        switch self {
        case .u8: 0xFF
        case .u16: 0xFFFF
        case .s16: 0x7FFF
        case .u24: 0xFF_FFFF
        case .u32: 0xFFFF_FFFF
        case .u12Low, .u12High: 0xFFF
        }
    }
}

/// What a field list is run with: one call per field, in wire order. Fields sent together
/// under one flag bit are listed one after the other with the same bit.
public protocol FieldList {
    associatedtype Failure: Error
    mutating func field(_ bit: UInt32, _ field: DataField, _ type: WireType, _ divisor: Double) throws(Failure)
}

extension FieldList {
    /// Expended Energy, the three-field group of every FTMS data characteristic: Total Energy
    /// uint16, Energy Per Hour uint16, Energy Per Minute uint8, kcal.
    @inlinable @inline(__always)
    public mutating func energy(_ bit: UInt32) throws(Failure) {
        try field(bit, .totalEnergyKcal, .u16, 1)
        try field(bit, .energyPerHourKcal, .u16, 1)
        try field(bit, .energyPerMinuteKcal, .u8, 1)
    }
}

/// One flagged characteristic: a flags field (8, 16 or 24 bits), then the flagged fields in
/// ascending bit order. Fields listed under a bit of 16 or more are not flagged: they are
/// always sent (Cycling Power's Instantaneous Power).
public protocol RecordLayout: Sendable {
    /// The type of the flags field (`UInt8`, `UInt16`, or `UInt32` for a 3-octet field).
    associatedtype Flags: FixedWidthInteger & Sendable = UInt16
    static var uuid: UInt16 { get }
    /// Contract name (`docs/ftms-fields.md`), e.g. `"indoor_bike_data"`.
    static var characteristicName: String { get }
    /// Flag bits that are a value themselves, with no field (kept by the value, named by a `Flag`). Other bits
    /// outside the field list are reserved and ignored.
    static var flagOnlyBits: UInt32 { get }
    /// Flag bits sent inverted (1 = the fields are absent): FTMS's bit 0, "More Data".
    static var invertedBits: UInt32 { get }
    /// The names of the fields as properties of the records (`FieldNames`).
    associatedtype Fields: FieldNames where Fields.Layout == Self
    /// The fields, in wire order.
    static func fields<L: FieldList>(_ list: inout L) throws(L.Failure)
}

extension RecordLayout {
    @inlinable public static var flagOnlyBits: UInt32 { 0 }
    @inlinable public static var invertedBits: UInt32 { 0 }
}

/// One FTMS data characteristic: a flags field (16 bits, 24 for Cross Trainer), then the
/// flagged fields in ascending bit order, bit 0 ("More Data") inverted.
public protocol FTMSDataLayout: RecordLayout where Fields: FTMSDataFields {}

extension FTMSDataLayout {
    @inlinable public static var invertedBits: UInt32 { 1 }
}

// MARK: - What the list gives

/// Summary of a list: the flag bits that select fields and each bit's octets.
@usableFromInline
struct LayoutSummary: FieldList {
    @usableFromInline typealias Failure = Never
    @usableFromInline var fieldBits: UInt32 = 0
    /// Octets of the fields of flag bit i in nibble i (bits 0–15).
    @usableFromInline var widths: UInt64 = 0
    /// Octets of the fields always sent (bits 16 and up).
    @usableFromInline var fixed = 0
    @usableFromInline var count = 0
    @inlinable init() {}
    @inlinable @inline(__always)
    mutating func field(_ bit: UInt32, _ field: DataField, _ type: WireType, _ divisor: Double) {
        fieldBits |= 1 << bit
        if bit < 16 { widths &+= UInt64(type.width) << (4 * UInt64(bit)) } else { fixed += type.width }
        count += 1
    }
}

/// One field of a list: its flag bit, storage slot (position in the list), type and divisor.
@usableFromInline
struct FieldSpec: FieldList, Sendable {
    @usableFromInline typealias Failure = Never
    @usableFromInline let target: DataField
    @usableFromInline var index = 0
    @usableFromInline var slot = -1
    @usableFromInline var bit: UInt32 = 0
    @usableFromInline var type = WireType.u8
    @usableFromInline var divisor = 1.0
    @inlinable init(_ target: DataField) { self.target = target }
    @inlinable @inline(__always)
    mutating func field(_ bit: UInt32, _ field: DataField, _ type: WireType, _ divisor: Double) {
        if field == target { (slot, self.bit, self.type, self.divisor) = (index, bit, type, divisor) }
        index += 1
    }
}

extension RecordLayout {
    @inlinable @inline(__always) static var summary: LayoutSummary {
        var summary = LayoutSummary()
        fields(&summary)
        return summary
    }

    /// The flag bits that select fields.
    @inlinable @inline(__always) package static var fieldBits: UInt32 { summary.fieldBits }

    /// The bits of the fields always sent (16 and up): always present.
    @inlinable @inline(__always) static var alwaysBits: UInt32 { summary.fieldBits & ~0xFFFF }

    /// Octets of the flags field.
    @inlinable @inline(__always) static var flagOctets: Int {
        Flags.bitWidth == 8 ? 1 : Flags.bitWidth == 16 ? 2 : 3
    }

    /// Reads the flags field.
    @inlinable @inline(__always)
    static func readFlags(_ c: inout ByteCursor) throws(DecodeError) -> UInt32 {
        switch flagOctets {
        case 1: UInt32(try c.u8("flags"))
        case 2: UInt32(try c.u16("flags"))
        default: try c.u24("flags")
        }
    }

    /// Bit i set = the fields of bit i are sent, from the flags as sent.
    @inlinable @inline(__always)
    static func present(flags: UInt32) -> UInt32 { ((flags ^ invertedBits) & fieldBits) | alwaysBits }

    /// Octets the present groups need after the flags (`present`: bit i = the fields of flag
    /// bit i are sent, inverted bits already inverted): one weighted population count over the
    /// bit planes of the groups' widths (`requiredLength`), plus the fields always sent.
    @inlinable @inline(__always)
    static func fieldLength(present: UInt32) -> Int {
        let widths = summary.widths
        var ones: UInt32 = 0, twos: UInt32 = 0, fours: UInt32 = 0
        for bit in 0..<UInt32(16) {
            let width = UInt32(truncatingIfNeeded: widths >> UInt64(4 * bit)) & 0xF
            ones |= (width & 1) << bit
            twos |= (width >> 1 & 1) << bit
            fours |= (width >> 2 & 1) << bit
        }
        return requiredLength(present: present, ones: ones, twos: twos, threes: 0, fours: fours, fives: 0)
            + summary.fixed
    }

    /// Where `field` is in the list.
    @inlinable @inline(__always)
    static func spec(_ field: DataField) -> FieldSpec {
        var spec = FieldSpec(field)
        fields(&spec)
        precondition(spec.slot >= 0, "\(field) is not a field of \(characteristicName)")
        return spec
    }
}

// MARK: - Walking the wire

/// Where a walk reads its fields from: the unchecked cursor after the one length check, or
/// the checked cursor (which names the first short field).
@usableFromInline
protocol FieldSource {
    associatedtype Failure: Error
    mutating func read(_ type: WireType, _ field: DataField) throws(Failure) -> Int
}

extension UncheckedCursor: FieldSource {
    @usableFromInline typealias Failure = Never
    @inlinable @inline(__always)
    mutating func read(_ type: WireType, _ field: DataField) -> Int {
        switch type {
        case .u8: return Int(u8())
        case .u16: return Int(u16())
        case .s16: return Int(s16())
        case .u24: return Int(u24())
        case .u32: return Int(u32())
        case .u12Low:
            var peek = self
            return Int(peek.u24() & 0xFFF)
        case .u12High: return Int(u24() >> 12)
        }
    }
}

extension ByteCursor: FieldSource {
    @usableFromInline typealias Failure = DecodeError
    @inlinable @inline(__always)
    mutating func read(_ type: WireType, _ field: DataField) throws(DecodeError) -> Int {
        try read(type, field.rawValue)
    }

    /// A field of wire type `type`, named `name` in the error when it is short.
    @inlinable @inline(__always)
    mutating func read(_ type: WireType, _ name: String) throws(DecodeError) -> Int {
        switch type {
        case .u8: return Int(try u8(name))
        case .u16: return Int(try u16(name))
        case .s16: return Int(try s16(name))
        case .u24: return Int(try u24(name))
        case .u32: return Int(try u32(name))
        case .u12Low:
            var peek = self
            return Int(try peek.u24(name) & 0xFFF)
        case .u12High: return Int(try u24(name) >> 12)
        }
    }
}

extension ByteWriter {
    /// `value` as a field of wire type `type`, saturated to its range (a `u12` pair is written by `FieldEncoder`).
    mutating func write(_ type: WireType, _ value: Int) {
        switch type {
        case .u8: u8(value)
        case .u16: u16(value)
        case .s16: s16(value)
        case .u24: u24(value)
        case .u32: u32(value)
        case .u12Low, .u12High: preconditionFailure("a u12 pair is written as one u24")
        }
    }
}

/// What a walk hands the fields to: a visitor, the value being built (by slot), or the session assembler's channels
/// (`SessionAssembly`, which reads the wire types for "data not available").
@usableFromInline
package protocol FieldSink {
    mutating func flags(_ raw: UInt32)
    mutating func field(slot: Int, _ field: DataField, _ type: WireType, raw: Int, divisor: Double)
}

/// A public visitor as a sink.
@usableFromInline
struct Visiting<V: DataFieldVisitor>: FieldSink {
    @usableFromInline let visitor: UnsafeMutablePointer<V>
    @inlinable init(_ visitor: UnsafeMutablePointer<V>) { self.visitor = visitor }
    @inlinable @inline(__always) func flags(_ raw: UInt32) { visitor.pointee.flags(raw) }
    @inlinable @inline(__always) func field(slot: Int, _ field: DataField, _ type: WireType, raw: Int, divisor: Double)
    {
        visitor.pointee.field(field, raw: raw, divisor: divisor)
    }
}

/// The list run over the wire: each present field read from `source` and handed to `sink`.
@usableFromInline
struct FieldWalk<Source: FieldSource, Sink: FieldSink>: FieldList {
    @usableFromInline typealias Failure = Source.Failure
    @usableFromInline var source: Source
    @usableFromInline let sink: UnsafeMutablePointer<Sink>
    @usableFromInline let present: UInt32
    @usableFromInline var slot = 0

    @inlinable @inline(__always)
    init(source: Source, sink: UnsafeMutablePointer<Sink>, present: UInt32) {
        self.source = source
        self.sink = sink
        self.present = present
    }

    @inlinable @inline(__always)
    mutating func field(_ bit: UInt32, _ field: DataField, _ type: WireType, _ divisor: Double) throws(Source.Failure) {
        if present & (1 << bit) != 0 {
            let raw = try source.read(type, field)
            sink.pointee.field(slot: slot, field, type, raw: raw, divisor: divisor)
        }
        slot &+= 1
    }
}

/// A sink that keeps nothing (the error-finding walk).
@usableFromInline
struct IgnoringSink: FieldSink {
    @inlinable init() {}
    @inlinable func flags(_ raw: UInt32) {}
    @inlinable func field(slot: Int, _ field: DataField, _ type: WireType, raw: Int, divisor: Double) {}
}

extension RecordLayout {
    /// Reads the flags, checks the whole length once, then walks the fields unchecked. A
    /// value shorter than its flags announce throws (naming the first short field) before
    /// the sink sees anything.
    @inlinable @inline(__always)
    package static func visitFields<S: FieldSink>(_ c: inout ByteCursor, _ sink: inout S) throws(DecodeError) {
        let flags = try readFlags(&c)
        let present = present(flags: flags)
        guard c.remaining >= fieldLength(present: present) else { throw shortValueError(c, present: present) }
        sink.flags(flags)
        let end = withUnsafeMutablePointer(to: &sink) { sink in
            var walk = FieldWalk(source: UncheckedCursor(c), sink: sink, present: present)
            fields(&walk)
            return walk.source.offset
        }
        c.skip(to: end)
    }

    /// `visitFields` over a whole payload.
    @inlinable @inline(__always)
    package static func visitFields<S: FieldSink>(bytes: UnsafeRawBufferPointer, _ sink: inout S) throws(DecodeError) {
        var cursor = ByteCursor(bytes)
        try visitFields(&cursor, &sink)
    }

    /// Same, to a public visitor.
    @inlinable @inline(__always)
    static func visitFields<V: DataFieldVisitor>(_ c: inout ByteCursor, visitor: inout V) throws(DecodeError) {
        try withUnsafeMutablePointer(to: &visitor) { (visitor) throws(DecodeError) in
            var sink = Visiting(visitor)
            try visitFields(&c, &sink)
        }
    }

    /// The checked walk: every read checked, the first short field throws.
    @inlinable
    static func checkedWalk<S: FieldSink>(_ c: inout ByteCursor, present: UInt32, _ sink: inout S) throws(DecodeError) {
        try withUnsafeMutablePointer(to: &sink) { (sink) throws(DecodeError) in
            var walk = FieldWalk(source: c, sink: sink, present: present)
            try fields(&walk)
            c = walk.source
        }
    }

    /// The first short field, as the checked reads find it. (Were none short — impossible
    /// when `fieldLength` is right — the error names the whole run of fields.)
    @usableFromInline @inline(never)
    static func shortValueError(_ c: ByteCursor, present: UInt32) -> DecodeError {
        var cursor = c
        var ignoring = IgnoringSink()
        do { try checkedWalk(&cursor, present: present, &ignoring) } catch { return error }
        return DecodeError(
            field: "fields", expected: fieldLength(present: present), offset: c.offset, found: c.remaining)
    }
}

// MARK: - The value

/// Storage of a value's wire integers, one slot per listed field.
public typealias RawSlots = InlineArray<20, Int32>

/// One record of a flagged characteristic (`IndoorBikeData`, `RowerData`, ..., `CyclingPowerMeasurement`,
/// `CSCMeasurement`): the wire integers of its fields (a compact, allocation-free value). Its properties are the names
/// of `Layout.Fields` (`bike.powerW`, through `@dynamicMemberLookup`); they convert to physical units at the boundary
/// (`Double(raw) / divisor`), and setting one quantises it to the field's resolution (rounded to the nearest step,
/// saturated to the field's range). Fields sent together under one flag are present together: setting one makes the
/// group present, with 0 for the others; clearing the last non-zero one clears it.
@dynamicMemberLookup
public struct FlaggedRecord<Layout: RecordLayout>: Sendable, Equatable, CharacteristicCoding {
    /// Bit i set = the fields of flag bit i are present (inverted bits NOT inverted here),
    /// and the bits of the fields always sent.
    @usableFromInline var present: UInt32
    /// `Layout.flagOnlyBits` as received.
    @usableFromInline var flagOnly: UInt32 = 0
    @usableFromInline var raw: RawSlots

    /// An empty value with the given groups (and the fields always sent) marked present (their
    /// fields 0).
    @inlinable @inline(__always) init(present: UInt32) {
        self.present = present | Layout.alwaysBits
        self.raw = RawSlots(repeating: 0)
    }

    /// A record with no field present (but those always sent, at 0).
    @inlinable public init() { self.init(present: 0) }

    /// A record with the fields `build` sets and no others (as swift-protobuf's `with`), e.g.
    /// `IndoorBikeData { $0.speedKmh = 25; $0.powerW = 180 }`. Setting a field of a group makes the group present.
    @inlinable public init(_ build: (inout Self) -> Void) {
        self.init(present: 0)
        build(&self)
    }

    public static var uuid: UInt16 { Layout.uuid }
    public static var characteristicName: String { Layout.characteristicName }

    public static func == (a: Self, b: Self) -> Bool {
        guard a.present == b.present, a.flagOnly == b.flagOnly else { return false }
        for i in 0..<Layout.summary.count where a.raw[i] != b.raw[i] { return false }
        return true
    }

    /// `record.name` for each `name` of `Layout.Fields`: the field in its property's type, nil when absent.
    @inlinable public subscript<Value>(dynamicMember name: KeyPath<Layout.Fields, Field<Value>>) -> Value? {
        @inline(__always) get {
            let spec = Self.spec(name)
            return present & (1 << spec.bit) == 0 ? nil : Value.value(raw: raw[spec.slot], divisor: spec.divisor)
        }
        set {
            let spec = Self.spec(name)
            set(spec.target, raw: newValue.map { $0.raw(divisor: spec.divisor) })
        }
    }

    /// Where the field of property `name` is in the list.
    @inlinable @inline(__always)
    static func spec<Value>(_ name: KeyPath<Layout.Fields, Field<Value>>) -> FieldSpec {
        let spec = Layout.Fields()[keyPath: name].spec
        precondition(spec.slot >= 0, "a property of a field the layout does not list")
        assert(!Value.isInteger || spec.divisor == 1, "an integer property of a field with a divisor")
        return spec
    }

    @usableFromInline
    mutating func set(_ field: DataField, raw value: Int?) {
        let spec = Layout.spec(field)
        if let value {
            present |= 1 << spec.bit
            raw[spec.slot] = Int32(truncatingIfNeeded: spec.type.clamp(value))
        } else {
            raw[spec.slot] = 0
            var group = GroupIsZero(bit: spec.bit, raw: raw)
            Layout.fields(&group)
            if group.zero { present &= ~(1 << spec.bit) }
        }
    }

    /// `record.name` for each flag of `Layout.Fields`: whether its bit (one of `Layout.flagOnlyBits`) is set.
    @inlinable public subscript(dynamicMember name: KeyPath<Layout.Fields, Flag>) -> Bool {
        @inline(__always) get { flagOnly & Self.bit(name) != 0 }
        set { if newValue { flagOnly |= Self.bit(name) } else { flagOnly &= ~Self.bit(name) } }
    }

    /// The bit of flag `name`.
    @inlinable @inline(__always) static func bit(_ name: KeyPath<Layout.Fields, Flag>) -> UInt32 {
        let bit: UInt32 = 1 << Layout.Fields()[keyPath: name].bit
        assert(Layout.flagOnlyBits & bit != 0, "a flag the layout does not list in flagOnlyBits")
        return bit
    }

    /// The flags `encode()` writes: one bit per present group (inverted bits inverted), and
    /// the flag-only bits.
    @inlinable public var flags: Layout.Flags {
        Layout.Flags(truncatingIfNeeded: ((present & 0xFFFF) ^ Layout.invertedBits) | flagOnly)
    }

    /// Decodes one notification. Throws when the payload ends before a flagged field;
    /// trailing octets and reserved flag bits are ignored.
    public static func decode(_ payload: [UInt8]) throws(DecodeError) -> Self { try decodeArray(payload) }

    /// Zero-copy variant.
    @inlinable @inline(__always)
    public static func decode(bytes: UnsafeRawBufferPointer) throws(DecodeError) -> Self {
        var cursor = ByteCursor(bytes)
        return try read(&cursor)
    }

    /// Streaming decode: each present field to `visitor`, no value built (`DataFieldVisitor`).
    @inlinable @inline(__always)
    public static func decode<V: DataFieldVisitor>(bytes: UnsafeRawBufferPointer, into visitor: inout V)
        throws(DecodeError)
    {
        var cursor = ByteCursor(bytes)
        try Layout.visitFields(&cursor, visitor: &visitor)
    }

    /// The value decoder: the walk, into the value's slots.
    @inlinable @inline(__always)
    package static func read(_ c: inout ByteCursor) throws(DecodeError) -> Self {
        var builder = ValueSink<Layout>()
        try Layout.visitFields(&c, &builder)
        return builder.value
    }

    /// Octets the present groups need after the flags.
    @inlinable @inline(__always)
    static func fieldLength(present: UInt32) -> Int { Layout.fieldLength(present: present) }

    /// The notification payload: flags, then each present field.
    public func encode() -> [UInt8] {
        var encoder = FieldEncoder(
            present: present, raw: raw,
            writer: ByteWriter(capacity: Layout.flagOctets + Layout.fieldLength(present: present)))
        let flags = UInt32(truncatingIfNeeded: self.flags)
        switch Layout.flagOctets {
        case 1: encoder.writer.u8(UInt8(truncatingIfNeeded: flags))
        case 2: encoder.writer.u16(UInt16(truncatingIfNeeded: flags))
        default: encoder.writer.u24(flags)
        }
        Layout.fields(&encoder)
        return encoder.writer.bytes
    }
}

extension FlaggedRecord where Layout: FTMSDataLayout {
    /// Expended Energy (kcal), when the record carries it.
    @inlinable public var energy: ExpendedEnergy? {
        @inline(__always) get {
            // The three fields share one flag bit: one test, three slots.
            let total = Layout.spec(.totalEnergyKcal)
            guard present & (1 << total.bit) != 0 else { return nil }
            return ExpendedEnergy(
                totalKcal: Int(raw[total.slot]),
                perHourKcal: Int(raw[Layout.spec(.energyPerHourKcal).slot]),
                perMinuteKcal: Int(raw[Layout.spec(.energyPerMinuteKcal).slot]))
        }
        set {
            set(.totalEnergyKcal, raw: newValue?.totalKcal)
            set(.energyPerHourKcal, raw: newValue?.perHourKcal)
            set(.energyPerMinuteKcal, raw: newValue?.perMinuteKcal)
        }
    }

    /// Flags bit 0 as sent: true when the bit-0 fields are absent.
    @inlinable public var moreData: Bool { present & 1 == 0 }
}

/// Builds a value from the walk.
@usableFromInline
struct ValueSink<Layout: RecordLayout>: FieldSink {
    @usableFromInline var value: FlaggedRecord<Layout>
    @inlinable @inline(__always) init() { value = FlaggedRecord(present: 0) }
    @inlinable @inline(__always) mutating func flags(_ raw: UInt32) {
        value.present = Layout.present(flags: raw)
        value.flagOnly = raw & Layout.flagOnlyBits
    }
    @inlinable @inline(__always) mutating func field(
        slot: Int, _ field: DataField, _ type: WireType, raw: Int, divisor: Double
    ) {
        value.raw[slot] = Int32(truncatingIfNeeded: raw)
    }
}

/// Whether the fields of one flag bit are all 0 (a group stays present while one is not).
struct GroupIsZero: FieldList {
    typealias Failure = Never
    let bit: UInt32
    let raw: RawSlots
    var index = 0
    var zero = true
    mutating func field(_ bit: UInt32, _ field: DataField, _ type: WireType, _ divisor: Double) {
        if bit == self.bit, raw[index] != 0 { zero = false }
        index += 1
    }
}

/// Writes the present fields from their slots.
struct FieldEncoder: FieldList {
    typealias Failure = Never
    let present: UInt32
    let raw: RawSlots
    var writer: ByteWriter
    var index = 0
    mutating func field(_ bit: UInt32, _ field: DataField, _ type: WireType, _ divisor: Double) {
        defer { index += 1 }
        guard present & (1 << bit) != 0 else { return }
        let value = raw[index]
        switch type {
        case .u32: writer.u32(UInt32(bitPattern: value)) // the slot holds its bit pattern
        case .u12Low: break // written with the high half, next
        case .u12High:
            writer.u24(UInt32(bitPattern: raw[index - 1]) & 0xFFF | (UInt32(bitPattern: value) & 0xFFF) << 12)
        default: writer.write(type, Int(value)) // in the type's range already
        }
    }
}
