/// Stair Climber Data (0x2AD0), Fitness Machine Service 1.0 §4.7: uint16 flags, then the
/// flagged fields in ascending bit order. Bit 0 "More Data" is inverted: Floors is present
/// when it is 0. Elevation gain 1 m, stride count resolution 1.
public struct StairClimberData: Sendable, Equatable, CharacteristicCoding {
    public static let uuid: UInt16 = 0x2AD0
    public static let characteristicName = "stair_climber_data"

    /// Flags bit 0 = 0; uint16.
    public var floors: Int?
    /// Bit 1; uint16, 1 /min.
    public var stepsPerMin: Int?
    /// Bit 2; uint16, 1 /min.
    public var averageStepRateStepsPerMin: Int?
    /// Bit 3; uint16, 1 m.
    public var positiveElevationGainM: Int?
    /// Bit 4; uint16, 1.
    public var strideCount: Int?
    /// Bit 5.
    public var energy: ExpendedEnergy?
    /// Bit 6; uint8 bpm.
    public var heartRateBpm: Int?
    /// Bit 7; uint8, 0.1 MET.
    public var metabolicEquivalent: Double?
    /// Bit 8; uint16 s.
    public var elapsedTimeS: Int?
    /// Bit 9; uint16 s.
    public var remainingTimeS: Int?

    public init(
        floors: Int? = nil, stepsPerMin: Int? = nil, averageStepRateStepsPerMin: Int? = nil,
        positiveElevationGainM: Int? = nil, strideCount: Int? = nil, energy: ExpendedEnergy? = nil,
        heartRateBpm: Int? = nil, metabolicEquivalent: Double? = nil, elapsedTimeS: Int? = nil,
        remainingTimeS: Int? = nil
    ) {
        self.floors = floors
        self.stepsPerMin = stepsPerMin
        self.averageStepRateStepsPerMin = averageStepRateStepsPerMin
        self.positiveElevationGainM = positiveElevationGainM
        self.strideCount = strideCount
        self.energy = energy
        self.heartRateBpm = heartRateBpm
        self.metabolicEquivalent = metabolicEquivalent
        self.elapsedTimeS = elapsedTimeS
        self.remainingTimeS = remainingTimeS
    }

    public var moreData: Bool { floors == nil }

    public var flags: UInt16 {
        var flags: UInt16 = floors == nil ? 1 : 0
        if stepsPerMin != nil { flags |= 1 << 1 }
        if averageStepRateStepsPerMin != nil { flags |= 1 << 2 }
        if positiveElevationGainM != nil { flags |= 1 << 3 }
        if strideCount != nil { flags |= 1 << 4 }
        if energy != nil { flags |= 1 << 5 }
        if heartRateBpm != nil { flags |= 1 << 6 }
        if metabolicEquivalent != nil { flags |= 1 << 7 }
        if elapsedTimeS != nil { flags |= 1 << 8 }
        if remainingTimeS != nil { flags |= 1 << 9 }
        return flags
    }

    public static func decode(_ payload: [UInt8]) throws(DecodeError) -> StairClimberData { try decodeArray(payload) }
    public static func decode(bytes: UnsafeRawBufferPointer) throws(DecodeError) -> StairClimberData { try decodeBytes(bytes) }

    static func read(_ c: inout ByteCursor) throws(DecodeError) -> StairClimberData {
        let flags = try c.u16("flags")
        var v = StairClimberData()
        if !isSet(flags, 0) { v.floors = Int(try c.u16("floors")) }
        if isSet(flags, 1) { v.stepsPerMin = Int(try c.u16("steps_per_min")) }
        if isSet(flags, 2) { v.averageStepRateStepsPerMin = Int(try c.u16("average_step_rate_steps_per_min")) }
        if isSet(flags, 3) { v.positiveElevationGainM = Int(try c.u16("positive_elevation_gain_m")) }
        if isSet(flags, 4) { v.strideCount = Int(try c.u16("stride_count")) }
        if isSet(flags, 5) { v.energy = try ExpendedEnergy.read(&c) }
        if isSet(flags, 6) { v.heartRateBpm = Int(try c.u8("heart_rate_bpm")) }
        if isSet(flags, 7) { v.metabolicEquivalent = scaled(try c.u8("metabolic_equivalent"), 10) }
        if isSet(flags, 8) { v.elapsedTimeS = Int(try c.u16("elapsed_time_s")) }
        if isSet(flags, 9) { v.remainingTimeS = Int(try c.u16("remaining_time_s")) }
        return v
    }

    public func encode() -> [UInt8] {
        var w = ByteWriter(capacity: 24)
        w.u16(flags)
        if let floors { w.u16(floors) }
        if let stepsPerMin { w.u16(stepsPerMin) }
        if let averageStepRateStepsPerMin { w.u16(averageStepRateStepsPerMin) }
        if let positiveElevationGainM { w.u16(positiveElevationGainM) }
        if let strideCount { w.u16(strideCount) }
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
        if let floors { f.append("floors", .int(floors)) }
        if let stepsPerMin { f.append("steps_per_min", .int(stepsPerMin)) }
        if let averageStepRateStepsPerMin { f.append("average_step_rate_steps_per_min", .int(averageStepRateStepsPerMin)) }
        if let positiveElevationGainM { f.append("positive_elevation_gain_m", .int(positiveElevationGainM)) }
        if let strideCount { f.append("stride_count", .int(strideCount)) }
        energy?.appendFields(to: &f)
        if let heartRateBpm { f.append("heart_rate_bpm", .int(heartRateBpm)) }
        if let metabolicEquivalent { f.append("metabolic_equivalent", .double(metabolicEquivalent)) }
        if let elapsedTimeS { f.append("elapsed_time_s", .int(elapsedTimeS)) }
        if let remainingTimeS { f.append("remaining_time_s", .int(remainingTimeS)) }
    }
}
