/// Indoor Bike Data (0x2AD2), Fitness Machine Service 1.0 §4.9, as deployed
/// (`shared/specs/ftms-fields.md`): uint16 flags, then the flagged fields in ascending bit
/// order. Bit 0 "More Data" is inverted: Instantaneous Speed is present when it is 0.
/// Resistance Level is sint16 with resolution 1 (the later uint8 text is not what devices send).
public struct IndoorBikeData: Sendable, Equatable, CharacteristicCoding {
    public static let uuid: UInt16 = 0x2AD2
    public static let characteristicName = "indoor_bike_data"

    /// Flags bit 0 = 0; uint16, 0.01 km/h.
    public var speedKmh: Double?
    /// Bit 1; uint16, 0.01 km/h.
    public var averageSpeedKmh: Double?
    /// Bit 2; uint16, 0.5 rpm.
    public var cadenceRpm: Double?
    /// Bit 3; uint16, 0.5 rpm.
    public var averageCadenceRpm: Double?
    /// Bit 4; uint24, 1 m.
    public var totalDistanceM: Int?
    /// Bit 5; sint16, 1 (unitless level).
    public var resistanceLevel: Int?
    /// Bit 6; sint16, 1 W.
    public var powerW: Int?
    /// Bit 7; sint16, 1 W.
    public var averagePowerW: Int?
    /// Bit 8; uint16 + uint16 + uint8 kcal.
    public var energy: ExpendedEnergy?
    /// Bit 9; uint8, 1 bpm.
    public var heartRateBpm: Int?
    /// Bit 10; uint8, 0.1 MET.
    public var metabolicEquivalent: Double?
    /// Bit 11; uint16, 1 s.
    public var elapsedTimeS: Int?
    /// Bit 12; uint16, 1 s.
    public var remainingTimeS: Int?

    public init(
        speedKmh: Double? = nil, averageSpeedKmh: Double? = nil, cadenceRpm: Double? = nil,
        averageCadenceRpm: Double? = nil, totalDistanceM: Int? = nil, resistanceLevel: Int? = nil,
        powerW: Int? = nil, averagePowerW: Int? = nil, energy: ExpendedEnergy? = nil,
        heartRateBpm: Int? = nil, metabolicEquivalent: Double? = nil, elapsedTimeS: Int? = nil,
        remainingTimeS: Int? = nil
    ) {
        self.speedKmh = speedKmh
        self.averageSpeedKmh = averageSpeedKmh
        self.cadenceRpm = cadenceRpm
        self.averageCadenceRpm = averageCadenceRpm
        self.totalDistanceM = totalDistanceM
        self.resistanceLevel = resistanceLevel
        self.powerW = powerW
        self.averagePowerW = averagePowerW
        self.energy = energy
        self.heartRateBpm = heartRateBpm
        self.metabolicEquivalent = metabolicEquivalent
        self.elapsedTimeS = elapsedTimeS
        self.remainingTimeS = remainingTimeS
    }

    /// Flags bit 0 as sent: true when Instantaneous Speed is absent.
    public var moreData: Bool { speedKmh == nil }

    /// The flags `encode()` writes: one bit per non-nil field, bit 0 inverted.
    public var flags: UInt16 {
        var flags: UInt16 = speedKmh == nil ? 1 : 0
        if averageSpeedKmh != nil { flags |= 1 << 1 }
        if cadenceRpm != nil { flags |= 1 << 2 }
        if averageCadenceRpm != nil { flags |= 1 << 3 }
        if totalDistanceM != nil { flags |= 1 << 4 }
        if resistanceLevel != nil { flags |= 1 << 5 }
        if powerW != nil { flags |= 1 << 6 }
        if averagePowerW != nil { flags |= 1 << 7 }
        if energy != nil { flags |= 1 << 8 }
        if heartRateBpm != nil { flags |= 1 << 9 }
        if metabolicEquivalent != nil { flags |= 1 << 10 }
        if elapsedTimeS != nil { flags |= 1 << 11 }
        if remainingTimeS != nil { flags |= 1 << 12 }
        return flags
    }

    /// Decodes one notification. Throws when the payload ends before a flagged field;
    /// trailing octets and reserved flag bits (13–15) are ignored.
    public static func decode(_ payload: [UInt8]) throws(DecodeError) -> IndoorBikeData { try decodeArray(payload) }
    /// Zero-copy variant.
    public static func decode(bytes: UnsafeRawBufferPointer) throws(DecodeError) -> IndoorBikeData { try decodeBytes(bytes) }

    static func read(_ c: inout ByteCursor) throws(DecodeError) -> IndoorBikeData {
        let flags = try c.u16("flags")
        var v = IndoorBikeData()
        if !isSet(flags, 0) { v.speedKmh = scaled(try c.u16("speed_kmh"), 100) }
        if isSet(flags, 1) { v.averageSpeedKmh = scaled(try c.u16("average_speed_kmh"), 100) }
        if isSet(flags, 2) { v.cadenceRpm = scaled(try c.u16("cadence_rpm"), 2) }
        if isSet(flags, 3) { v.averageCadenceRpm = scaled(try c.u16("average_cadence_rpm"), 2) }
        if isSet(flags, 4) { v.totalDistanceM = Int(try c.u24("total_distance_m")) }
        if isSet(flags, 5) { v.resistanceLevel = Int(try c.s16("resistance_level")) }
        if isSet(flags, 6) { v.powerW = Int(try c.s16("power_w")) }
        if isSet(flags, 7) { v.averagePowerW = Int(try c.s16("average_power_w")) }
        if isSet(flags, 8) { v.energy = try ExpendedEnergy.read(&c) }
        if isSet(flags, 9) { v.heartRateBpm = Int(try c.u8("heart_rate_bpm")) }
        if isSet(flags, 10) { v.metabolicEquivalent = scaled(try c.u8("metabolic_equivalent"), 10) }
        if isSet(flags, 11) { v.elapsedTimeS = Int(try c.u16("elapsed_time_s")) }
        if isSet(flags, 12) { v.remainingTimeS = Int(try c.u16("remaining_time_s")) }
        return v
    }

    /// The notification payload: flags, then each non-nil field at its resolution
    /// (rounded to the nearest step, saturated to the field's range).
    public func encode() -> [UInt8] {
        var w = ByteWriter(capacity: 32)
        w.u16(flags)
        if let speedKmh { w.u16(rawValue(speedKmh, divisor: 100)) }
        if let averageSpeedKmh { w.u16(rawValue(averageSpeedKmh, divisor: 100)) }
        if let cadenceRpm { w.u16(rawValue(cadenceRpm, divisor: 2)) }
        if let averageCadenceRpm { w.u16(rawValue(averageCadenceRpm, divisor: 2)) }
        if let totalDistanceM { w.u24(totalDistanceM) }
        if let resistanceLevel { w.s16(resistanceLevel) }
        if let powerW { w.s16(powerW) }
        if let averagePowerW { w.s16(averagePowerW) }
        if let energy { energy.write(&w) }
        if let heartRateBpm { w.u8(heartRateBpm) }
        if let metabolicEquivalent { w.u8(rawValue(metabolicEquivalent, divisor: 10)) }
        if let elapsedTimeS { w.u16(elapsedTimeS) }
        if let remainingTimeS { w.u16(remainingTimeS) }
        return w.bytes
    }

    func appendFields(to f: inout DecodedFields, payload: UnsafeRawBufferPointer) {
        let flags = flags16(payload)
        f.append("flags", .int(Int(flags)))
        f.append("more_data", .bool(isSet(flags, 0)))
        if let speedKmh { f.append("speed_kmh", .double(speedKmh)) }
        if let averageSpeedKmh { f.append("average_speed_kmh", .double(averageSpeedKmh)) }
        if let cadenceRpm { f.append("cadence_rpm", .double(cadenceRpm)) }
        if let averageCadenceRpm { f.append("average_cadence_rpm", .double(averageCadenceRpm)) }
        if let totalDistanceM { f.append("total_distance_m", .int(totalDistanceM)) }
        if let resistanceLevel { f.append("resistance_level", .int(resistanceLevel)) }
        if let powerW { f.append("power_w", .int(powerW)) }
        if let averagePowerW { f.append("average_power_w", .int(averagePowerW)) }
        energy?.appendFields(to: &f)
        if let heartRateBpm { f.append("heart_rate_bpm", .int(heartRateBpm)) }
        if let metabolicEquivalent { f.append("metabolic_equivalent", .double(metabolicEquivalent)) }
        if let elapsedTimeS { f.append("elapsed_time_s", .int(elapsedTimeS)) }
        if let remainingTimeS { f.append("remaining_time_s", .int(remainingTimeS)) }
    }
}
