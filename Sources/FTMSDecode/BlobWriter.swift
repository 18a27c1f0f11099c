/// Writes raw BLE session blobs, version 1 (`docs/raw-ble-blob.md`), for tests
/// and the synthetic generator. Reproduces the spec's example byte for byte.
public struct BlobWriter: Sendable {
    public private(set) var bytes: [UInt8]
    /// Records appended so far.
    public private(set) var recordCount = 0

    /// Starts a blob with the 16-byte header: magic `SFRB`, version 1, machine, reserved
    /// zeros, start (Unix epoch ms, signed, little-endian).
    public init(machine: MachineType, startMillis: Int64) {
        self.init(machineRaw: machine.rawValue, startMillis: startMillis)
    }

    /// Same with a raw machine byte (for tests of unlisted values).
    public init(machineRaw: UInt8, startMillis: Int64, reservingCapacity capacity: Int = 256) {
        var writer = ByteWriter(capacity: max(capacity, BlobReader.headerLength))
        for byte in BlobReader.magic { writer.u8(byte) }
        writer.u8(BlobReader.version)
        writer.u8(machineRaw)
        writer.u16(UInt16(0))
        writer.u64(UInt64(bitPattern: startMillis))
        bytes = writer.bytes
    }

    /// Reserves room for `count` more bytes (for very large generated blobs).
    public mutating func reserveCapacity(_ count: Int) {
        bytes.reserveCapacity(bytes.count + count)
    }

    /// Appends one record. The payload must be 0…244 octets (the format cannot carry more;
    /// a longer payload is a programming error and traps). Times should be non-decreasing;
    /// the writer does not reorder them (tests write out-of-order times on purpose).
    public mutating func append(timeMillis: UInt32, uuid: UInt16, kind: RecordKind, payload: [UInt8]) {
        append(timeMillis: timeMillis, uuid: uuid, kindRaw: kind.rawValue, payload: payload)
    }

    /// Same with a raw kind byte.
    public mutating func append(timeMillis: UInt32, uuid: UInt16, kindRaw: UInt8, payload: [UInt8]) {
        precondition(
            payload.count <= BlobReader.maxPayloadLength,
            "BLE payload of \(payload.count) octets exceeds \(BlobReader.maxPayloadLength)")
        bytes.append(UInt8(truncatingIfNeeded: timeMillis))
        bytes.append(UInt8(truncatingIfNeeded: timeMillis >> 8))
        bytes.append(UInt8(truncatingIfNeeded: timeMillis >> 16))
        bytes.append(UInt8(truncatingIfNeeded: timeMillis >> 24))
        bytes.append(UInt8(truncatingIfNeeded: uuid))
        bytes.append(UInt8(truncatingIfNeeded: uuid >> 8))
        bytes.append(kindRaw)
        bytes.append(UInt8(payload.count))
        bytes.append(contentsOf: payload)
        recordCount += 1
    }

    /// Appends an owned record.
    public mutating func append(_ record: BlobRecord) {
        append(timeMillis: record.timeMillis, uuid: record.uuid, kindRaw: record.kindRaw, payload: record.payload)
    }
}
