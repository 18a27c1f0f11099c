import Foundation

/// One decoded FIT data message: the first element of each valid numeric field, string fields, and the developer
/// fields that a `field_description` named. Invalid values (per base type) are absent.
struct FITMessage {
    var global: UInt16
    /// The message's timestamp (field 253, or from a compressed timestamp header), FIT seconds.
    var timestamp: UInt32?
    var numbers: [(field: UInt8, value: Double)] = []
    var strings: [(field: UInt8, value: String)] = []
    var developer: [(name: String, value: Double)] = []

    func number(_ field: UInt8) -> Double? {
        for entry in numbers where entry.field == field { return entry.value }
        return nil
    }

    /// The field as an integer when it is one that fits (any base type can carry any field, so never trust it).
    func integer(_ field: UInt8) -> Int? {
        guard let v = number(field), abs(v) < 9_007_199_254_740_992 else { return nil }
        return Int(exactly: v)
    }

    func string(_ field: UInt8) -> String? {
        for entry in strings where entry.field == field { return entry.value }
        return nil
    }
}

/// Where the decoder delivers what it reads: each file of a chain starting, each data message, and (the fast path)
/// each `record` message straight as a sample, without a `FITMessage` in between.
protocol FITSink {
    mutating func fileStart(_ index: Int)
    mutating func message(_ message: FITMessage)
    /// A `record` with a timestamp (records without one are dropped, as `FITReader.sample` drops them).
    mutating func record(_ sample: consuming Sample)
    /// About `count` records may follow (the rest of the data divided by the size of a record message).
    mutating func expectRecords(_ count: Int)
}

/// Decodes the FIT protocol's framing: file headers (12 or 14 bytes, with or without header CRC), definition and
/// data messages, 16 local message types, little and big endian definitions, compressed timestamp headers,
/// developer data fields and chained files. Damage never throws once a header is valid: a record that runs past the
/// end stops the file with `fit_truncated` (complete records kept), a CRC mismatch is flagged and reading goes on.
struct FITDecoder {
    struct FieldDefinition {
        var number: UInt8
        var size: Int
        var baseType: FITBaseType?
    }

    struct DeveloperFieldDefinition {
        var number: UInt8
        var size: Int
        var index: UInt8
    }

    /// A definition message (a class: a data message refers to it without copying its arrays).
    final class Definition {
        let global: UInt16
        let bigEndian: Bool
        let fields: [FieldDefinition]
        let developerFields: [DeveloperFieldDefinition]
        let size: Int
        /// For a `record` (global 20): the fields a sample uses, in definition order, with their offsets.
        let recordPlan: [RecordField]
        /// `recordPlan` in a buffer of its own, read by `readRecord` without closures, retains or access checks.
        let plan: UnsafeMutableBufferPointer<RecordField>

        init(
            global: UInt16, bigEndian: Bool, fields: [FieldDefinition], developerFields: [DeveloperFieldDefinition],
            size: Int
        ) {
            self.global = global
            self.bigEndian = bigEndian
            self.fields = fields
            self.developerFields = developerFields
            self.size = size
            recordPlan = global == 20 ? FITDecoder.recordPlan(fields, bigEndian: bigEndian) : []
            plan = .allocate(capacity: recordPlan.count)
            _ = plan.initialize(from: recordPlan)
        }

        deinit { plan.deallocate() }
    }

    /// A field of a `record` definition that a sample uses: where it is, how to read it, what it is. `readRecord`
    /// reads every integer base type the same way (its `width` bytes, the `invalid` pattern, sign extension by
    /// `signShift`), so that a field costs no switch on its base type.
    struct RecordField {
        var offset: Int
        var size: Int
        var type: FITBaseType
        var slot: RecordSlot
        var kind: Kind
        /// Bytes the base type reads (1, 2, 4 or 8; 3 for `compressed_speed_distance`).
        var width: Int
        /// The raw invalid value (`width` bytes, as a number in the definition's byte order).
        var invalid: UInt64
        /// 64 − 8 × width for a signed integer type (a left then arithmetic right shift sign-extends it), else 0.
        var signShift: UInt64
        /// The low `width` bytes of a little-endian load.
        var mask: UInt64
        /// Big endian (not `compressed_speed_distance`, a byte array): the value is the top `width` bytes of the
        /// byte-swapped load (shifted down by `swapShift`).
        var swap: Bool
        var swapShift: UInt64
        /// The slot's bit in `readRecord`'s `present`.
        var bit: UInt32

        /// How the raw bits become a value: `FITBaseType.number`'s conversions.
        enum Kind: UInt8 {
            /// Any integer type of up to 64 bits whose values are those of an `Int64` (all but `uint64`, `uint64z`).
            case integer
            case unsigned64, float32, float64
            case compressedSpeedDistance
        }

        init(offset: Int, size: Int, type: FITBaseType, slot: RecordSlot, bigEndian: Bool) {
            self.offset = offset
            self.size = size
            self.type = type
            self.slot = slot
            width = type.size
            signShift = 0
            switch type {
            case .enumeration, .uint8, .byte: (kind, invalid) = (.integer, 0xFF)
            case .uint8z, .uint16z, .uint32z: (kind, invalid) = (.integer, 0)
            case .sint8: (kind, invalid, signShift) = (.integer, 0x7F, 56)
            case .uint16: (kind, invalid) = (.integer, 0xFFFF)
            case .sint16: (kind, invalid, signShift) = (.integer, 0x7FFF, 48)
            case .uint32: (kind, invalid) = (.integer, 0xFFFF_FFFF)
            case .sint32: (kind, invalid, signShift) = (.integer, 0x7FFF_FFFF, 32)
            case .sint64: (kind, invalid) = (.integer, 0x7FFF_FFFF_FFFF_FFFF)
            case .uint64: (kind, invalid) = (.unsigned64, UInt64.max)
            case .uint64z: (kind, invalid) = (.unsigned64, 0)
            case .float32: (kind, invalid) = (.float32, 0xFFFF_FFFF)
            case .float64: (kind, invalid) = (.float64, UInt64.max)
            case .string: (kind, invalid) = (.compressedSpeedDistance, 0) // (only `compressed_speed_distance`)
            }
            if slot == .compressedSpeedDistance {
                // A byte array of 3 (whatever its declared type); all 0xFF is invalid.
                (kind, width, invalid, signShift) = (.compressedSpeedDistance, 3, 0xFF_FFFF, 0)
            }
            mask = width == 8 ? UInt64.max : (UInt64(1) << (8 * UInt64(width))) - 1
            swap = bigEndian && kind != .compressedSpeedDistance
            swapShift = 64 - 8 * UInt64(width)
            bit = UInt32(1) << slot.rawValue
        }
    }

    /// The `record` fields a sample is made of (FIT profile field numbers in the comments).
    enum RecordSlot: UInt8 {
        case timestamp // 253
        case latitude, longitude // 0, 1
        case altitude, enhancedAltitude // 2, 78
        case heartRate, cadence, fractionalCadence // 3, 4, 53
        case distance, speed, enhancedSpeed // 5, 6, 73
        case power, temperature // 7, 13
        case compressedSpeedDistance // 8

        init?(field: UInt8) {
            switch field {
            case 253: self = .timestamp
            case 0: self = .latitude
            case 1: self = .longitude
            case 2: self = .altitude
            case 78: self = .enhancedAltitude
            case 3: self = .heartRate
            case 4: self = .cadence
            case 53: self = .fractionalCadence
            case 5: self = .distance
            case 6: self = .speed
            case 73: self = .enhancedSpeed
            case 7: self = .power
            case 13: self = .temperature
            case 8: self = .compressedSpeedDistance
            default: return nil
            }
        }
    }

    /// The plan of a `record` definition: the fields a sample uses that can hold a value (a known numeric base type
    /// no larger than the field; `compressed_speed_distance` needs its 3 bytes).
    static func recordPlan(_ fields: [FieldDefinition], bigEndian: Bool) -> [RecordField] {
        var plan: [RecordField] = []
        var offset = 0
        for field in fields {
            defer { offset += field.size }
            guard let slot = RecordSlot(field: field.number), let type = field.baseType else { continue }
            if slot == .compressedSpeedDistance {
                if field.size >= 3 {
                    plan.append(
                        RecordField(offset: offset, size: field.size, type: type, slot: slot, bigEndian: bigEndian))
                }
                continue
            }
            guard type != .string, field.size >= type.size else { continue }
            plan.append(RecordField(offset: offset, size: field.size, type: type, slot: slot, bigEndian: bigEndian))
        }
        return plan
    }

    /// What the loop over a file's messages needs of each local message type, without reference counting: a `record`
    /// definition's size, byte order and plan (the plan's buffer belongs to the `Definition` in `definitions`, which
    /// is replaced together with this).
    struct LocalType {
        var size = 0
        var isRecord = false
        var hasDeveloper = false
        var plan = UnsafeBufferPointer<RecordField>(start: nil, count: 0)
        /// The plan's fields are all integers and no two fill the same slot (`readRecord`'s branch-free loop).
        var simple = false
        /// The bytes from a record's start that the branch-free loop's 8-byte loads read.
        var loadEnd = 0
        /// The plan's timestamp field, for the branch-free loop (which reads it again as an integer).
        var timestamp: RecordField? = nil

        init() {}

        init(size: Int, isRecord: Bool, hasDeveloper: Bool, plan: UnsafeBufferPointer<RecordField>) {
            self.size = size
            self.isRecord = isRecord
            self.hasDeveloper = hasDeveloper
            self.plan = plan
            var slots: UInt32 = 0
            simple = true
            for field in plan {
                if field.kind != .integer || slots & field.bit != 0 { simple = false }
                slots |= field.bit
                loadEnd = max(loadEnd, field.offset + 8)
                if field.slot == .timestamp { timestamp = field }
            }
        }
    }

    struct DeveloperFieldDescription {
        var name: String
        var baseType: FITBaseType?
        var scale: Double
        var offset: Double
    }

    static let headerSignature: [UInt8] = Array(".FIT".utf8)

    /// True when `bytes` start with a FIT file header.
    static func looksLikeFIT(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 12, bytes[0] >= 12 else { return false }
        return bytes[8] == 0x2E && bytes[9] == 0x46 && bytes[10] == 0x49 && bytes[11] == 0x54
    }

    /// Decodes every file of a chain. `onFileStart` is called with the file's index before its first message,
    /// `onMessage` with each data message.
    static func decode<Sink: FITSink>(
        _ b: UnsafeRawBufferPointer, issues: inout IssueLog,
        sink: inout Sink
    ) throws(WorkoutFileError) {
        var pos = 0
        var fileIndex = 0
        while pos < b.count {
            guard looksLikeFIT(UnsafeRawBufferPointer(rebasing: b[pos...])), pos + Int(b[pos]) <= b.count else {
                if fileIndex == 0 {
                    throw WorkoutFileError(code: .fitBadHeader, detail: "no FIT file header", offset: pos)
                }
                issues.add(
                    .fitTrailingBytes, "\(b.count - pos) bytes after the last FIT file are not a FIT file", offset: pos)
                return
            }
            let headerSize = Int(b[pos])
            let dataSize = Int(
                UInt32(b[pos + 4]) | UInt32(b[pos + 5]) << 8 | UInt32(b[pos + 6]) << 16 | UInt32(b[pos + 7]) << 24)
            if headerSize >= 14 {
                let stored = UInt16(b[pos + 12]) | UInt16(b[pos + 13]) << 8
                if stored != 0, FITCRC.checksum(UnsafeRawBufferPointer(rebasing: b[pos..<pos + 12])) != stored {
                    issues.add(.fitBadHeaderCRC, "header CRC does not match", offset: pos)
                }
            }
            let dataStart = pos + headerSize
            let dataEnd = dataStart + dataSize
            var complete = true
            if dataEnd + 2 > b.count {
                complete = false
                issues.add(.fitTruncated, "file ends at \(b.count), header announces \(dataEnd + 2)", offset: b.count)
            } else {
                let stored = UInt16(b[dataEnd]) | UInt16(b[dataEnd + 1]) << 8
                if FITCRC.checksum(UnsafeRawBufferPointer(rebasing: b[pos..<dataEnd])) != stored {
                    issues.add(.fitBadCRC, "file CRC does not match", offset: dataEnd)
                }
            }
            sink.fileStart(fileIndex)
            var state = FITDecoder()
            let end = min(dataEnd, b.count)
            state.decodeRecords(b, from: dataStart, to: end, complete: complete, issues: &issues, sink: &sink)
            pos = dataEnd + 2
            fileIndex += 1
        }
    }

    var definitions = [Definition?](repeating: nil, count: 16)
    var descriptions: [UInt16: DeveloperFieldDescription] = [:]
    var lastTimestamp: UInt32?
    var undescribedReported = Set<UInt16>()
    /// `compressed_speed_distance`'s distance component: 12 bits accumulated over the file (FIT SDK accumulator:
    /// each value adds its difference to the last one modulo 2¹²), in 1/16 m.
    var compressedDistance: (last: UInt32, total: UInt64) = (0, 0)
    var recordsExpected = false

    mutating func decodeRecords<Sink: FITSink>(
        _ b: UnsafeRawBufferPointer, from start: Int, to end: Int, complete: Bool,
        issues: inout IssueLog, sink: inout Sink
    ) {
        withUnsafeTemporaryAllocation(of: LocalType.self, capacity: 16) { locals in
            _ = locals.initialize(from: repeatElement(LocalType(), count: 16))
            withUnsafeTemporaryAllocation(of: Double.self, capacity: RecordSlots.count) { slots in
                _ = slots.initialize(from: repeatElement(0, count: RecordSlots.count))
                decodeRecords(
                    b, from: start, to: end, complete: complete, locals: locals,
                    slots: RecordSlots(values: slots.baseAddress!), issues: &issues, sink: &sink)
            }
        }
    }

    private mutating func decodeRecords<Sink: FITSink>(
        _ b: UnsafeRawBufferPointer, from start: Int, to end: Int, complete: Bool,
        locals: UnsafeMutableBufferPointer<LocalType>, slots: RecordSlots, issues: inout IssueLog, sink: inout Sink
    ) {
        var p = start
        func truncated(_ what: String, at offset: Int) {
            // When the file was complete by its header, a record running past the data size is damage of another kind:
            // the data size is wrong. Both lose the tail, so both are `fit_truncated`.
            if complete || !issues.contains(.fitTruncated) {
                issues.add(.fitTruncated, "\(what) runs past the end of the data", offset: offset)
            }
        }
        while p < end {
            let recordStart = p
            let header = b[p]
            p += 1
            if header & 0xC0 == 0x40 {
                let local = Int(header & 0x0F)
                let hasDeveloper = header & 0x20 != 0
                guard end - p >= 5 else { truncated("definition message", at: recordStart); return }
                let bigEndian = b[p + 1] == 1
                let g0 = UInt16(b[p + 2]), g1 = UInt16(b[p + 3])
                let global = bigEndian ? g0 << 8 | g1 : g1 << 8 | g0
                let count = Int(b[p + 4])
                p += 5
                guard end - p >= 3 * count else { truncated("definition message", at: recordStart); return }
                var fields: [FieldDefinition] = []
                fields.reserveCapacity(count)
                var size = 0
                for i in 0..<count {
                    let q = p + 3 * i
                    fields.append(
                        FieldDefinition(number: b[q], size: Int(b[q + 1]), baseType: FITBaseType(byte: b[q + 2])))
                    size += Int(b[q + 1])
                }
                p += 3 * count
                var developerFields: [DeveloperFieldDefinition] = []
                if hasDeveloper {
                    guard end - p >= 1 else { truncated("definition message", at: recordStart); return }
                    let devCount = Int(b[p])
                    p += 1
                    guard end - p >= 3 * devCount else { truncated("definition message", at: recordStart); return }
                    for i in 0..<devCount {
                        let q = p + 3 * i
                        developerFields.append(
                            DeveloperFieldDefinition(number: b[q], size: Int(b[q + 1]), index: b[q + 2]))
                        size += Int(b[q + 1])
                    }
                    p += 3 * devCount
                }
                let definition = Definition(
                    global: global, bigEndian: bigEndian, fields: fields,
                    developerFields: developerFields, size: size)
                if global == 20 {
                    if !recordsExpected {
                        recordsExpected = true
                        sink.expectRecords((end - p) / (size + 1))
                    }
                }
                definitions[local] = definition
                locals[local] = LocalType(
                    size: size, isRecord: global == 20, hasDeveloper: !developerFields.isEmpty,
                    plan: UnsafeBufferPointer(definition.plan))
                continue
            }
            // A data message: a normal header (local type in bits 0–3), or a compressed timestamp header (local type in
            // bits 5–6, seconds offset in bits 0–4).
            let compressed = header & 0x80 != 0
            var timestamp: UInt32? = nil
            let local: Int
            if compressed {
                local = Int((header >> 5) & 0x3)
                let offset = UInt32(header & 0x1F)
                if let last = lastTimestamp {
                    let base = last & ~UInt32(0x1F)
                    timestamp = offset >= (last & 0x1F) ? base &+ offset : base &+ offset &+ 0x20
                    lastTimestamp = timestamp
                }
            } else {
                local = Int(header & 0x0F)
            }
            let type = locals[local]
            if type.isRecord {
                guard end - p >= type.size else { truncated("data message", at: recordStart); return }
                readRecord(
                    b, at: p, type, local: local, slots: slots, compressedTimestamp: timestamp, issues: &issues,
                    sink: &sink)
                p += type.size
                continue
            }
            guard let definition = definitions[local] else {
                issues.add(
                    .fitUndefinedLocalMessage, "data for local message type \(local) before its definition",
                    offset: recordStart)
                return
            }
            guard end - p >= definition.size else { truncated("data message", at: recordStart); return }
            var message = readData(b, at: p, definition, issues: &issues)
            p += definition.size
            if compressed {
                if message.timestamp == nil { message.timestamp = timestamp }
            } else if let t = message.timestamp {
                lastTimestamp = t
            }
            deliver(message, &sink)
        }
    }

    private mutating func deliver<Sink: FITSink>(_ message: FITMessage, _ sink: inout Sink) {
        if message.global == 206, let index = message.integer(0).flatMap(UInt8.init(exactly:)),
            let number = message.integer(1).flatMap(UInt8.init(exactly:))
        {
            // field_description: names a developer field (developer_data_index, field_definition_number).
            let key = UInt16(index) << 8 | UInt16(number)
            let name = message.string(3) ?? "developer_\(Int(index))_\(Int(number))"
            descriptions[key] = DeveloperFieldDescription(
                name: name,
                baseType: message.integer(2).flatMap(UInt8.init(exactly:)).flatMap { FITBaseType(byte: $0) },
                scale: message.number(6).map { $0 == 0 ? 1 : $0 } ?? 1, offset: message.number(7) ?? 0)
        }
        sink.message(message)
    }

    /// A `record` data message straight into a sample: the first valid value of each field a sample uses (as
    /// `FITMessage.number` gives it), the timestamp from field 253 (the last valid one, as `readData`) or else the
    /// compressed header's, and the developer fields that a `field_description` named; given to the sink when it has
    /// a timestamp. Each field is one load (8 bytes where the buffer has them, cut to the field's width), one compare
    /// with its invalid pattern and one conversion (the same as `FITBaseType.number`'s); the values go into a fixed
    /// array of slots with a bit per slot for "has a value", and the sample is built in its stored form.
    @inline(__always)
    private mutating func readRecord<Sink: FITSink>(
        _ b: UnsafeRawBufferPointer, at start: Int, _ type: LocalType, local: Int, slots: RecordSlots,
        compressedTimestamp: UInt32?, issues: inout IssueLog, sink: inout Sink
    ) {
        guard let base = b.baseAddress else { return }
        let count = b.count
        var timestamp: UInt32? = nil
        var present: UInt32 = 0
        var compressed: UInt32? = nil
        if type.simple, count - start >= type.loadEnd {
            // Integers only, each slot once: every field stored, its bit set where it is valid, no branch (a field
            // that is valid in one record and not in the next costs no misprediction). The same values as below.
            for field in type.plan {
                let w = UInt64(littleEndian: (base + (start + field.offset)).loadUnaligned(as: UInt64.self))
                let raw = field.swap ? w.byteSwapped &>> field.swapShift : w & field.mask
                slots[field.slot] = Double(Int64(bitPattern: raw &<< field.signShift) &>> Int64(field.signShift))
                present |= raw != field.invalid ? field.bit : 0
            }
            // The timestamp as below: its integer again, `UInt32(exactly:)`.
            if present & 1 != 0, let field = type.timestamp {
                let w = UInt64(littleEndian: (base + (start + field.offset)).loadUnaligned(as: UInt64.self))
                let raw = field.swap ? w.byteSwapped &>> field.swapShift : w & field.mask
                if let t = UInt32(exactly: Int64(bitPattern: raw &<< field.signShift) &>> Int64(field.signShift)) {
                    timestamp = t
                    lastTimestamp = t
                }
            }
        } else {
            readFields(
                b, at: start, type.plan, present: &present, slots: slots, timestamp: &timestamp,
                compressed: &compressed)
        }
        var compressedSpeed: Double? = nil, compressedDistanceM: Double? = nil
        if let bits = compressed {
            let raw = (bits >> 12) & 0xFFF
            compressedDistance.total += UInt64((raw &- compressedDistance.last) & 0xFFF)
            compressedDistance.last = raw
            compressedSpeed = Double(bits & 0xFFF) / 100
            compressedDistanceM = Double(compressedDistance.total) / 16
        }
        var developer = [String: Double]()
        if type.hasDeveloper, let definition = definitions[local] {
            // Sized once for the fields (no growing per record).
            developer = Dictionary(minimumCapacity: definition.developerFields.count)
            var p = start + definition.size - definition.developerFields.reduce(0) { $0 + $1.size }
            for field in definition.developerFields {
                defer { p += field.size }
                if let (name, value) = developerValue(
                    field, b, at: p, bigEndian: definition.bigEndian, issues: &issues)
                {
                    developer[name] = value
                }
            }
        }
        guard let t = timestamp ?? compressedTimestamp else { return }
        @inline(__always) func has(_ slot: RecordSlot) -> Bool { present & (UInt32(1) << slot.rawValue) != 0 }
        // `Sample`'s stored form: a value where its bit is set, 0 where not (as `Sample.init` stores nil).
        var bits: UInt16 = 0
        var latitude = 0.0, longitude = 0.0
        // A position field declared with another base type can hold anything: keep only a position on Earth.
        if has(.latitude), has(.longitude) {
            let semicircle = 180.0 / 2_147_483_648.0
            let la = slots[.latitude] * semicircle, lo = slots[.longitude] * semicircle
            if abs(la) <= 90, abs(lo) <= 180 {
                latitude = la
                longitude = lo
                bits |= Sample.latitudeBit | Sample.longitudeBit
            }
        }
        var altitude = 0.0
        if has(.enhancedAltitude) {
            altitude = slots[.enhancedAltitude] / 5 - 500
            bits |= Sample.altitudeBit
        } else if has(.altitude) {
            altitude = slots[.altitude] / 5 - 500
            bits |= Sample.altitudeBit
        }
        var distance = 0.0
        if has(.distance) {
            distance = slots[.distance] / 100
            bits |= Sample.distanceBit
        } else if let d = compressedDistanceM {
            distance = d
            bits |= Sample.distanceBit
        }
        var speed = 0.0
        if has(.enhancedSpeed) {
            speed = slots[.enhancedSpeed] / 1000
            bits |= Sample.speedBit
        } else if has(.speed) {
            speed = slots[.speed] / 1000
            bits |= Sample.speedBit
        } else if let s = compressedSpeed {
            speed = s
            bits |= Sample.speedBit
        }
        var power = 0.0, heartRate = 0.0, cadence = 0.0, temperature = 0.0
        if has(.power) {
            power = slots[.power]
            bits |= Sample.powerBit
        }
        if has(.heartRate) {
            heartRate = slots[.heartRate]
            bits |= Sample.heartRateBit
        }
        if has(.cadence) {
            cadence = slots[.cadence] + (has(.fractionalCadence) ? slots[.fractionalCadence] / 128 : 0)
            bits |= Sample.cadenceBit
        }
        if has(.temperature) {
            temperature = slots[.temperature]
            bits |= Sample.temperatureBit
        }
        sink.record(
            Sample(
                time: FITReader.date(Double(t)), present: bits, latitude: latitude, longitude: longitude,
                altitudeM: altitude, distanceM: distance, speedMps: speed, powerW: power, heartRateBpm: heartRate,
                cadenceRpm: cadence, temperatureC: temperature, developer: consume developer))
    }

    /// `readRecord`'s fields in general (any base type, repeated slots, the end of the buffer): the first valid value
    /// of each slot, the last valid timestamp, the first valid `compressed_speed_distance`.
    private mutating func readFields(
        _ b: UnsafeRawBufferPointer, at start: Int, _ plan: UnsafeBufferPointer<RecordField>, present: inout UInt32,
        slots: RecordSlots, timestamp: inout UInt32?, compressed: inout UInt32?
    ) {
        guard let base = b.baseAddress else { return }
        let count = b.count
        for field in plan {
            let at = start + field.offset
            var raw: UInt64
            if count - at >= 8 {
                let w = UInt64(littleEndian: (base + at).loadUnaligned(as: UInt64.self))
                raw = field.swap ? w.byteSwapped &>> field.swapShift : w & field.mask
            } else {
                // The last bytes of the buffer: the field's bytes one by one.
                raw = 0
                for i in 0..<field.width {
                    let byte = UInt64(b[at + i])
                    raw = field.swap ? raw << 8 | byte : raw | byte << (8 * UInt64(i))
                }
            }
            if raw == field.invalid { continue }
            let v: Double
            switch field.kind {
            case .integer:
                let i = Int64(bitPattern: raw &<< field.signShift) &>> Int64(field.signShift)
                if field.slot == .timestamp {
                    // `UInt32(exactly: Double(i))` without the conversion (an integer of more than 53 bits is beyond
                    // UInt32 either way).
                    if let t = UInt32(exactly: i) {
                        timestamp = t
                        lastTimestamp = t
                    }
                    continue
                }
                v = Double(i)
            case .unsigned64: v = Double(raw)
            case .float32:
                let f = Float(bitPattern: UInt32(truncatingIfNeeded: raw))
                if !f.isFinite { continue }
                v = Double(f)
            case .float64:
                let f = Double(bitPattern: raw)
                if !f.isFinite { continue }
                v = f
            case .compressedSpeedDistance:
                // Speed (12 bits, 1/100 m/s), distance (12 bits, 1/16 m, accumulated); the first valid one counts.
                if compressed == nil { compressed = UInt32(truncatingIfNeeded: raw) }
                continue
            }
            if field.slot == .timestamp {
                if let t = UInt32(exactly: v) {
                    timestamp = t
                    lastTimestamp = t
                }
            } else {
                let bit = UInt32(1) << field.slot.rawValue
                if present & bit == 0 {
                    present |= bit
                    slots[field.slot] = v
                }
            }
        }
    }

    /// The values of a record's slots, by `RecordSlot` raw value (valid where the slot's bit is set): 16 doubles
    /// that the file's records share (a record reads only the slots it wrote, so nothing is cleared between them).
    struct RecordSlots {
        static let count = 16
        let values: UnsafeMutablePointer<Double>

        @inline(__always)
        subscript(_ slot: RecordSlot) -> Double {
            get { values[Int(slot.rawValue)] }
            nonmutating set { values[Int(slot.rawValue)] = newValue }
        }
    }

    private mutating func readData(
        _ b: UnsafeRawBufferPointer, at start: Int, _ definition: Definition,
        issues: inout IssueLog
    ) -> FITMessage {
        var message = FITMessage(global: definition.global)
        message.numbers.reserveCapacity(definition.fields.count)
        var p = start
        for field in definition.fields {
            defer { p += field.size }
            guard let type = field.baseType else { continue }
            if type == .string {
                var length = 0
                while length < field.size, b[p + length] != 0 { length += 1 }
                if length > 0 {
                    message.strings.append(
                        (
                            field.number,
                            String(decoding: UnsafeRawBufferPointer(rebasing: b[p..<p + length]), as: UTF8.self)
                        ))
                }
                continue
            }
            // A field smaller than its base type cannot hold a value; an array gives its first element.
            guard field.size >= type.size else { continue }
            if let value = type.number(b, at: p, bigEndian: definition.bigEndian) {
                if field.number == 253, let t = UInt32(exactly: value) {
                    message.timestamp = t
                    lastTimestamp = t
                }
                message.numbers.append((field.number, value))
            }
        }
        for field in definition.developerFields {
            defer { p += field.size }
            if let named = developerValue(field, b, at: p, bigEndian: definition.bigEndian, issues: &issues) {
                message.developer.append(named)
            }
        }
        return message
    }

    /// A developer field's value, named and scaled by its `field_description`; nil (and one issue per undescribed
    /// field) when no description names it, or when it is text or shorter than its base type.
    private mutating func developerValue(
        _ field: DeveloperFieldDefinition, _ b: UnsafeRawBufferPointer, at p: Int,
        bigEndian: Bool, issues: inout IssueLog
    ) -> (String, Double)? {
        let key = UInt16(field.index) << 8 | UInt16(field.number)
        guard let description = descriptions[key] else {
            if undescribedReported.insert(key).inserted {
                issues.add(
                    .fitUndescribedDeveloperField,
                    "developer field \(field.number) of developer \(field.index) has no field_description; skipped")
            }
            return nil
        }
        guard let type = description.baseType, type != .string, field.size >= type.size,
            let raw = type.number(b, at: p, bigEndian: bigEndian)
        else { return nil }
        return (description.name, raw / description.scale - description.offset)
    }
}
