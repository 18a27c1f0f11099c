/// What every characteristic value type implements: its UUID, contract name and reader, from which its decoders
/// follow (and `pipeline decode`'s renderer, in `FTMSRender`).
package protocol CharacteristicCoding: Sendable {
    static var uuid: UInt16 { get }
    /// Contract name (`docs/ftms-fields.md`), e.g. `"indoor_bike_data"`.
    static var characteristicName: String { get }
    /// Reads the value from the cursor (positioned at offset 0); trailing octets are left
    /// unread, and the caller reports them.
    static func read(_ cursor: inout ByteCursor) throws(DecodeError) -> Self
}

extension CharacteristicCoding {
    static func decodeBytes(_ bytes: UnsafeRawBufferPointer) throws(DecodeError) -> Self {
        var cursor = ByteCursor(bytes)
        return try read(&cursor)
    }

    static func decodeArray(_ payload: [UInt8]) throws(DecodeError) -> Self { try decoding(payload, decodeBytes) }
}

/// `decode` over the bytes of `payload` (a typed throw carried out of `withUnsafeBytes`).
func decoding<T>(_ payload: [UInt8], _ decode: (UnsafeRawBufferPointer) throws(DecodeError) -> T)
    throws(DecodeError) -> T
{
    let result: Result<T, DecodeError> = payload.withUnsafeBytes { bytes in
        do throws(DecodeError) { return .success(try decode(bytes)) } catch { return .failure(error) }
    }
    return try result.get()
}

/// The UTF-8 of `text`, cut at a character boundary to at most `budget` octets (a value fits
/// one 244-octet blob record).
func utf8(_ text: String, budget: Int) -> [UInt8] {
    var out: [UInt8] = []
    for ch in text {
        let utf8 = Array(String(ch).utf8)
        if out.count + utf8.count > budget { break }
        out.append(contentsOf: utf8)
    }
    return out
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
