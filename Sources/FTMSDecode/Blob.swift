/// Types of the raw BLE session blob, version 1 (`docs/raw-ble-blob.md`).

/// The machine byte of the blob header ("Header", offset 5).
public enum MachineType: UInt8, Sendable, CaseIterable {
    case unknown = 0, indoorBike = 1, rower = 2, treadmill = 3, crossTrainer = 4, stepClimber = 5, stairClimber = 6

    /// snake_case name used in JSON output.
    public var name: String {
        switch self {
        case .unknown: "unknown"
        case .indoorBike: "indoor_bike"
        case .rower: "rower"
        case .treadmill: "treadmill"
        case .crossTrainer: "cross_trainer"
        case .stepClimber: "step_climber"
        case .stairClimber: "stair_climber"
        }
    }
}

/// The kind byte of a record ("Record", offset 6).
public enum RecordKind: UInt8, Sendable, CaseIterable {
    case notification = 0, indication = 1, readResponse = 2, write = 3

    /// snake_case name used in JSON output.
    public var name: String {
        switch self {
        case .notification: "notification"
        case .indication: "indication"
        case .readResponse: "read_response"
        case .write: "write"
        }
    }
}

/// The 16-byte blob header ("Header").
public struct BlobHeader: Sendable, Equatable {
    /// Format version; the reader accepts only 1.
    public var version: UInt8
    /// The machine byte as stored (values above 6 are kept here, `machine` says `.unknown`).
    public var machineRaw: UInt8
    /// Capture start, Unix epoch milliseconds.
    public var startMillis: Int64

    /// The machine, `.unknown` for values the spec does not list.
    public var machine: MachineType { MachineType(rawValue: machineRaw) ?? .unknown }

    public init(version: UInt8 = 1, machineRaw: UInt8, startMillis: Int64) {
        self.version = version
        self.machineRaw = machineRaw
        self.startMillis = startMillis
    }

    public init(machine: MachineType, startMillis: Int64) {
        self.init(version: 1, machineRaw: machine.rawValue, startMillis: startMillis)
    }
}

/// One record ("Record"): a characteristic value with its time and direction.
public struct BlobRecord: Sendable, Equatable {
    /// Milliseconds since the header's `startMillis`.
    public var timeMillis: UInt32
    /// 16-bit Bluetooth UUID of the characteristic.
    public var uuid: UInt16
    /// The kind byte as stored; `kind` is nil for values the spec does not list.
    public var kindRaw: UInt8
    /// The characteristic value exactly as it went over the air (0…244 octets).
    public var payload: [UInt8]

    public var kind: RecordKind? { RecordKind(rawValue: kindRaw) }

    public init(timeMillis: UInt32, uuid: UInt16, kindRaw: UInt8, payload: [UInt8]) {
        self.timeMillis = timeMillis
        self.uuid = uuid
        self.kindRaw = kindRaw
        self.payload = payload
    }

    public init(timeMillis: UInt32, uuid: UInt16, kind: RecordKind, payload: [UInt8]) {
        self.init(timeMillis: timeMillis, uuid: uuid, kindRaw: kind.rawValue, payload: payload)
    }
}

/// How reading a blob ended ("Reading rules").
public enum BlobEnd: Sendable, Equatable, CustomStringConvertible {
    /// Every byte belonged to a complete record.
    case complete
    /// The record starting at `offset` runs past the end of the blob; the records before
    /// it were kept.
    case truncated(offset: Int)
    /// The record starting at `offset` has a time before the previous record's or a
    /// length above 244; the records before it were kept, the rest is not trusted.
    case corrupted(offset: Int, reason: String)

    public var description: String {
        switch self {
        case .complete: "complete"
        case .truncated(let offset): "truncated at byte offset \(offset)"
        case .corrupted(let offset, let reason): "corrupted at byte offset \(offset): \(reason)"
        }
    }

    /// `"complete"`, `"truncated"` or `"corrupted"`.
    public var name: String {
        switch self {
        case .complete: "complete"
        case .truncated: "truncated"
        case .corrupted: "corrupted"
        }
    }
}

/// A decoded blob: header, the records that could be trusted, and how reading ended.
public struct Blob: Sendable, Equatable {
    public var header: BlobHeader
    public var records: [BlobRecord]
    public var end: BlobEnd

    public init(header: BlobHeader, records: [BlobRecord], end: BlobEnd) {
        self.header = header
        self.records = records
        self.end = end
    }
}

/// Why a blob was rejected as a whole ("Reading rules", first rule).
public enum BlobError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Fewer than the 16 header bytes.
    case tooShort(length: Int)
    /// The first four bytes are not `SFRB`.
    case badMagic([UInt8])
    /// The version byte is not 1.
    case unsupportedVersion(UInt8)

    public var description: String {
        switch self {
        case .tooShort(let length):
            "blob too short: \(length) bytes, the header alone needs \(BlobReader.headerLength)"
        case .badMagic(let magic):
            "bad magic: expected 53 46 52 42 (\"SFRB\"), found \(hexString(magic, separator: " "))"
        case .unsupportedVersion(let version):
            "unsupported blob version \(version): this reader supports version \(BlobReader.version)"
        }
    }
}

/// Upper-case hex of bytes, e.g. "53 46" with a space separator.
package func hexString<C: Collection>(_ bytes: C, separator: String = "") -> String where C.Element == UInt8 {
    let digits: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "E", "F"]
    var out = ""
    out.reserveCapacity(bytes.count * (2 + separator.count))
    var first = true
    for byte in bytes {
        if !first { out += separator }
        first = false
        out.append(digits[Int(byte >> 4)])
        out.append(digits[Int(byte & 0x0F)])
    }
    return out
}
