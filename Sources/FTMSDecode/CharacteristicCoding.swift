/// What every characteristic value type implements, so the dispatcher
/// (`CharacteristicDecoder`) can decode and render any of them the same way.
protocol CharacteristicCoding: Sendable {
    static var uuid: UInt16 { get }
    /// Contract name (`shared/specs/ftms-fields.md`), e.g. `"indoor_bike_data"`.
    static var characteristicName: String { get }
    /// Reads the value from the cursor (positioned at offset 0); trailing octets are left
    /// unread, and the caller reports them.
    static func read(_ cursor: inout ByteCursor) throws(DecodeError) -> Self
    /// Appends the contract fields in wire order. `payload` is the whole value (for the
    /// raw flags, which may include reserved bits the typed value does not keep).
    func appendFields(to fields: inout DecodedFields, payload: UnsafeRawBufferPointer)
}

extension CharacteristicCoding {
    static func decodeBytes(_ bytes: UnsafeRawBufferPointer) throws(DecodeError) -> Self {
        var cursor = ByteCursor(bytes)
        return try read(&cursor)
    }

    static func decodeArray(_ payload: [UInt8]) throws(DecodeError) -> Self {
        let result: Result<Self, DecodeError> = payload.withUnsafeBytes { bytes in
            do throws(DecodeError) { return .success(try decodeBytes(bytes)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Decodes and renders; trailing octets beyond the value are reported as
    /// `trailing_bytes` (ftms-fields.md, "Decoding rules" 3).
    static func decodedValue(_ bytes: UnsafeRawBufferPointer) -> DecodedValue {
        var cursor = ByteCursor(bytes)
        do {
            let value = try read(&cursor)
            var fields = DecodedFields()
            fields.reserve(24)
            value.appendFields(to: &fields, payload: bytes)
            if cursor.remaining > 0 { fields.append("trailing_bytes", .int(cursor.remaining)) }
            return DecodedValue(uuid: uuid, characteristic: characteristicName, ok: true, fields: fields)
        } catch {
            return DecodedValue(
                uuid: uuid, characteristic: characteristicName, ok: false,
                fields: DecodedFields(), error: error.description)
        }
    }
}

/// Expended Energy, the three-field group of every FTMS data characteristic
/// (FTMS 1.0 §4.4.1.x–§4.9.1.x "Expended Energy": Total Energy uint16 kcal, Energy Per
/// Hour uint16 kcal, Energy Per Minute uint8 kcal; the all-ones values mean "not available").
public struct ExpendedEnergy: Sendable, Equatable {
    public var totalKcal: Int
    public var perHourKcal: Int
    public var perMinuteKcal: Int

    @inlinable
    public init(totalKcal: Int, perHourKcal: Int, perMinuteKcal: Int) {
        self.totalKcal = totalKcal
        self.perHourKcal = perHourKcal
        self.perMinuteKcal = perMinuteKcal
    }
}

// Unit conversion at the boundary: raw integer → physical value. Division (not
// multiplication by 0.01) gives the double nearest the decimal value, so 2500 → 25.0 and
// 7 → 0.07 print as such.
@inlinable @inline(__always) func scaled(_ raw: UInt16, _ divisor: Double) -> Double { Double(raw) / divisor }
@inlinable @inline(__always) func scaled(_ raw: Int16, _ divisor: Double) -> Double { Double(raw) / divisor }
@inlinable @inline(__always) func scaled(_ raw: UInt8, _ divisor: Double) -> Double { Double(raw) / divisor }
