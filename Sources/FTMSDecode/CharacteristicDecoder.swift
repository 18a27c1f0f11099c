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
    /// Every UUID this module decodes, with its contract name.
    public static let knownCharacteristics: [(uuid: UInt16, name: String)] =
        [
            (TreadmillData.uuid, TreadmillData.characteristicName),
            (CrossTrainerData.uuid, CrossTrainerData.characteristicName),
            (StepClimberData.uuid, StepClimberData.characteristicName),
            (StairClimberData.uuid, StairClimberData.characteristicName),
            (RowerData.uuid, RowerData.characteristicName),
            (IndoorBikeData.uuid, IndoorBikeData.characteristicName),
            (FitnessMachineFeature.uuid, FitnessMachineFeature.characteristicName),
            (TrainingStatus.uuid, TrainingStatus.characteristicName),
        ] + SupportedRange.Kind.allCases.map { ($0.rawValue, $0.characteristicName) } + [
            (ControlPointMessage.uuid, ControlPointMessage.characteristicName),
            (FitnessMachineStatus.uuid, FitnessMachineStatus.characteristicName),
            (HeartRateMeasurement.uuid, HeartRateMeasurement.characteristicName),
            (CyclingPowerMeasurement.uuid, CyclingPowerMeasurement.characteristicName),
            (CSCMeasurement.uuid, CSCMeasurement.characteristicName),
        ] + DeviceInformationString.Kind.allCases.map { ($0.rawValue, $0.characteristicName) }

    /// The contract name for a UUID, `"unknown"` for others.
    public static func characteristicName(uuid: UInt16) -> String {
        knownCharacteristics.first { $0.uuid == uuid }?.name ?? "unknown"
    }

    /// True when this module decodes `uuid`.
    public static func isKnown(uuid: UInt16) -> Bool {
        knownCharacteristics.contains { $0.uuid == uuid }
    }

    /// Decodes one value. `kind` is informational (a Control Point value is a request or a
    /// response by its op code, whichever direction it travelled).
    public static func decode(uuid: UInt16, kind: RecordKind?, payload: [UInt8]) -> DecodedValue {
        payload.withUnsafeBytes { decode(uuid: uuid, kind: kind, bytes: $0) }
    }

    /// Zero-copy variant (e.g. over a `BlobRecordView.payload`).
    public static func decode(uuid: UInt16, kind: RecordKind?, bytes: UnsafeRawBufferPointer) -> DecodedValue {
        switch uuid {
        case TreadmillData.uuid: return TreadmillData.decodedValue(bytes)
        case CrossTrainerData.uuid: return CrossTrainerData.decodedValue(bytes)
        case StepClimberData.uuid: return StepClimberData.decodedValue(bytes)
        case StairClimberData.uuid: return StairClimberData.decodedValue(bytes)
        case RowerData.uuid: return RowerData.decodedValue(bytes)
        case IndoorBikeData.uuid: return IndoorBikeData.decodedValue(bytes)
        case FitnessMachineFeature.uuid: return FitnessMachineFeature.decodedValue(bytes)
        case TrainingStatus.uuid: return TrainingStatus.decodedValue(bytes)
        case 0x2AD4...0x2AD8: return SupportedRange.decodedValue(kind: SupportedRange.Kind(rawValue: uuid)!, bytes)
        case ControlPointMessage.uuid: return ControlPointMessage.decodedValue(bytes)
        case FitnessMachineStatus.uuid: return FitnessMachineStatus.decodedValue(bytes)
        case HeartRateMeasurement.uuid: return HeartRateMeasurement.decodedValue(bytes)
        case CyclingPowerMeasurement.uuid: return CyclingPowerMeasurement.decodedValue(bytes)
        case CSCMeasurement.uuid: return CSCMeasurement.decodedValue(bytes)
        case 0x2A29, 0x2A24, 0x2A26: return DeviceInformationString.decodedValue(kind: .init(rawValue: uuid)!, bytes)
        default:
            var f = DecodedFields()
            f.append("length", .int(bytes.count))
            f.append("hex", .string(hexString(bytes)))
            return DecodedValue(uuid: uuid, characteristic: "unknown", ok: true, fields: f)
        }
    }

    /// Decodes every record of a blob, in order.
    public static func decodeAll(_ blob: Blob) -> [DecodedValue] {
        blob.records.map { $0.decoded() }
    }
}
