/// Device Information Service 1.1 strings read from the machine: Manufacturer Name String
/// (0x2A29), Model Number String (0x2A24), Firmware Revision String (0x2A26). UTF-8, the
/// whole value; trailing NUL padding (sent by some devices) is dropped. An empty value is
/// `ok: false` like every other characteristic (docs/ftms-fields.md, "Decoding rules" 1).
public struct DeviceInformationString: Sendable, Equatable {
    public enum Kind: UInt16, Sendable, CaseIterable {
        case manufacturerName = 0x2A29
        case modelNumber = 0x2A24
        case firmwareRevision = 0x2A26

        public var characteristicName: String { fieldName + "_string" }

        /// The single field's name.
        public var fieldName: String {
            switch self {
            case .manufacturerName: "manufacturer_name"
            case .modelNumber: "model_number"
            case .firmwareRevision: "firmware_revision"
            }
        }
    }

    public var kind: Kind
    public var value: String

    public init(kind: Kind, value: String) {
        self.kind = kind
        self.value = value
    }

    public static func decode(kind: Kind, _ payload: [UInt8]) throws(DecodeError) -> DeviceInformationString {
        try decoding(payload) { bytes throws(DecodeError) in try read(kind: kind, bytes) }
    }

    package static func read(kind: Kind, _ bytes: UnsafeRawBufferPointer) throws(DecodeError) -> DeviceInformationString
    {
        if bytes.isEmpty { throw DecodeError(field: kind.fieldName, expected: 1, offset: 0, found: 0) }
        var end = bytes.count
        while end > 0 && bytes[end - 1] == 0 { end -= 1 }
        return DeviceInformationString(kind: kind, value: String(decoding: bytes[0..<end], as: UTF8.self))
    }

    /// UTF-8 of the value (truncated to 244 octets at a character boundary).
    public func encode() -> [UInt8] { utf8(value, budget: BlobReader.maxPayloadLength) }
}
