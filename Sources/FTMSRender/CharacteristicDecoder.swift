import FTMSDecode

/// Decodes one characteristic value by UUID into the contract fields of
/// `docs/ftms-fields.md` — what `pipeline decode` prints per record.
///
/// Rules ("Decoding rules"): an empty or too-short payload gives `ok: false` with the
/// evidence in `error`; trailing octets are ignored (reported as `trailing_bytes`); reserved
/// flag bits read nothing; reserved op/result/status codes decode as `"reserved"`; no
/// "data not available" mapping (0xFFFF stays 655.35 km/h here); every notification is
/// decoded on its own. UUIDs outside the spec give `characteristic: "unknown"`, `ok: true`,
/// with the payload's `length` and `hex`.
public enum CharacteristicDecoder {
    /// Every characteristic `FTMSDecode` decodes, once: its UUID, contract name and renderer.
    static let entries: [Entry] =
        [
            Entry(TreadmillData.self), Entry(CrossTrainerData.self), Entry(StepClimberData.self),
            Entry(StairClimberData.self), Entry(RowerData.self), Entry(IndoorBikeData.self),
            Entry(FitnessMachineFeature.self), Entry(TrainingStatus.self),
        ]
        + SupportedRange.Kind.allCases.map { kind in
            Entry(uuid: kind.rawValue, name: kind.characteristicName) { c, f throws(DecodeError) in
                try SupportedRange.read(kind: kind, &c).appendFields(to: &f)
            }
        }
        + [
            Entry(ControlPointMessage.self), Entry(FitnessMachineStatus.self), Entry(HeartRateMeasurement.self),
            Entry(CyclingPowerMeasurement.self), Entry(CSCMeasurement.self),
        ]
        + DeviceInformationString.Kind.allCases.map { kind in
            Entry(uuid: kind.rawValue, name: kind.characteristicName) { c, f throws(DecodeError) in
                f.append(kind.fieldName, .string(try DeviceInformationString.read(kind: kind, c.rest()).value))
            }
        }

    /// One characteristic: the fields `render` reads from the cursor (positioned at offset 0) into the contract's.
    struct Entry: Sendable {
        let uuid: UInt16
        let name: String
        let render: @Sendable (inout ByteCursor, inout DecodedFields) throws(DecodeError) -> Void

        init(
            uuid: UInt16, name: String,
            render: @escaping @Sendable (inout ByteCursor, inout DecodedFields) throws(DecodeError) -> Void
        ) {
            (self.uuid, self.name, self.render) = (uuid, name, render)
        }

        /// A value type: decoded, then its fields appended.
        init<T: Rendered>(_ type: T.Type) {
            self.init(uuid: T.uuid, name: T.characteristicName) { c, fields throws(DecodeError) in
                try T.read(&c).appendFields(to: &fields, payload: c.bytes)
            }
        }

        /// A flagged record: its field list walked once, each field rendered as it is read.
        init<Layout: RenderedLayout>(_ type: FlaggedRecord<Layout>.Type) {
            self.init(uuid: Layout.uuid, name: Layout.characteristicName) { c, fields throws(DecodeError) in
                var renderer = FieldRenderer<Layout>(fields: fields)
                try Layout.visitFields(&c, &renderer)
                fields = renderer.fields
            }
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
        guard let entry = entryByUUID[uuid] else {
            var f = DecodedFields()
            f.append("length", .int(bytes.count))
            f.append("hex", .string(hexString(bytes)))
            return DecodedValue(uuid: uuid, characteristic: "unknown", ok: true, fields: f)
        }
        return rendered(uuid: uuid, entry.name, bytes, entry.render)
    }

    /// Decodes every record of a blob, in order.
    public static func decodeAll(_ blob: Blob) -> [DecodedValue] {
        blob.records.map { $0.decoded() }
    }

    /// One value as `pipeline decode` prints it: the fields `render` reads from the cursor, then
    /// any octets left over as `trailing_bytes` (docs/ftms-fields.md, "Decoding rules" 3); or, when
    /// the value is short, `ok: false` with the error.
    static func rendered(
        uuid: UInt16, _ name: String, _ bytes: UnsafeRawBufferPointer,
        _ render: (inout ByteCursor, inout DecodedFields) throws(DecodeError) -> Void
    ) -> DecodedValue {
        var cursor = ByteCursor(bytes)
        var fields = DecodedFields()
        fields.reserve(24)
        do throws(DecodeError) {
            try render(&cursor, &fields)
        } catch {
            return DecodedValue(
                uuid: uuid, characteristic: name, ok: false, fields: DecodedFields(), error: error.description)
        }
        if cursor.remaining > 0 { fields.append("trailing_bytes", .int(cursor.remaining)) }
        return DecodedValue(uuid: uuid, characteristic: name, ok: true, fields: fields)
    }
}

extension BlobRecord {
    /// Decodes this record's payload (`CharacteristicDecoder.decode`).
    public func decoded() -> DecodedValue {
        CharacteristicDecoder.decode(uuid: uuid, kind: kind, payload: payload)
    }
}
