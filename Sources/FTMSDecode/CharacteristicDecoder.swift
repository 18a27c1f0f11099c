/// Decodes one characteristic value by UUID into the contract fields of
/// `shared/specs/ftms-fields.md` — what `pipeline decode` prints per record.
///
/// Rules ("Decoding rules"): an empty or too-short payload gives `ok: false` with the
/// evidence in `error`; trailing octets are ignored (reported as `trailing_bytes`); reserved
/// flag bits read nothing; reserved op/result/status codes decode as `"reserved"`; no
/// "data not available" mapping (0xFFFF stays 655.35 km/h here); every notification is
/// decoded on its own. UUIDs outside the spec give `characteristic: "unknown"`, `ok: true`,
/// with the payload's `length` and `hex`.
public enum CharacteristicDecoder {
    /// Every characteristic this module decodes, once: its UUID, contract name and renderer.
    static let entries: [Entry] =
        [
            Entry(TreadmillData.self), Entry(CrossTrainerData.self), Entry(StepClimberData.self),
            Entry(StairClimberData.self), Entry(RowerData.self), Entry(IndoorBikeData.self),
            Entry(FitnessMachineFeature.self), Entry(TrainingStatus.self),
        ]
        + SupportedRange.Kind.allCases.map { kind in
            Entry(uuid: kind.rawValue, name: kind.characteristicName) { SupportedRange.decodedValue(kind: kind, $0) }
        }
        + [
            Entry(ControlPointMessage.self), Entry(FitnessMachineStatus.self), Entry(HeartRateMeasurement.self),
            Entry(CyclingPowerMeasurement.self), Entry(CSCMeasurement.self),
        ]
        + DeviceInformationString.Kind.allCases.map { kind in
            Entry(uuid: kind.rawValue, name: kind.characteristicName) {
                DeviceInformationString.decodedValue(kind: kind, $0)
            }
        }

    struct Entry: Sendable {
        let uuid: UInt16
        let name: String
        let render: @Sendable (UnsafeRawBufferPointer) -> DecodedValue
        init(uuid: UInt16, name: String, render: @escaping @Sendable (UnsafeRawBufferPointer) -> DecodedValue) {
            self.uuid = uuid; self.name = name; self.render = render
        }
        init<T: CharacteristicCoding>(_ type: T.Type) {
            self.init(uuid: T.uuid, name: T.characteristicName, render: { T.decodedValue($0) })
        }
    }

    static let entryByUUID = Dictionary(uniqueKeysWithValues: entries.map { ($0.uuid, $0) })

    /// Every UUID this module decodes, with its contract name.
    public static let knownCharacteristics: [(uuid: UInt16, name: String)] = entries.map { ($0.uuid, $0.name) }

    /// The contract name for a UUID, `"unknown"` for others.
    public static func characteristicName(uuid: UInt16) -> String { entryByUUID[uuid]?.name ?? "unknown" }

    /// True when this module decodes `uuid`.
    public static func isKnown(uuid: UInt16) -> Bool { entryByUUID[uuid] != nil }

    /// Decodes one value. `kind` is informational (a Control Point value is a request or a
    /// response by its op code, whichever direction it travelled).
    public static func decode(uuid: UInt16, kind: RecordKind?, payload: [UInt8]) -> DecodedValue {
        payload.withUnsafeBytes { decode(uuid: uuid, kind: kind, bytes: $0) }
    }

    /// Zero-copy variant (e.g. over a `BlobRecordView.payload`).
    public static func decode(uuid: UInt16, kind: RecordKind?, bytes: UnsafeRawBufferPointer) -> DecodedValue {
        if let entry = entryByUUID[uuid] { return entry.render(bytes) }
        var f = DecodedFields()
        f.append("length", .int(bytes.count))
        f.append("hex", .string(hexString(bytes)))
        return DecodedValue(uuid: uuid, characteristic: "unknown", ok: true, fields: f)
    }

    /// Decodes every record of a blob, in order.
    public static func decodeAll(_ blob: Blob) -> [DecodedValue] {
        blob.records.map { $0.decoded() }
    }
}
