/// Step Climber Data (0x2ACF), Fitness Machine Service 1.0 §4.6: uint16 flags, then the
/// flagged fields in ascending bit order. Bit 0 "More Data" is inverted: Floors and Step
/// Count are present when it is 0. Elevation gain 1 m.
public struct StepClimberData: Sendable, Equatable, CharacteristicCoding {
    public static let uuid: UInt16 = 0x2ACF
    public static let characteristicName = "step_climber_data"

    /// Flags bit 0 = 0 (with `stepCount`); uint16. A missing partner encodes as 0.
    public var floors: Int?
    /// Flags bit 0 = 0 (with `floors`); uint16.
    public var stepCount: Int?
    /// Bit 1; uint16, 1 /min.
    public var stepsPerMin: Int?
    /// Bit 2; uint16, 1 /min.
    public var averageStepRateStepsPerMin: Int?
    /// Bit 3; uint16, 1 m.
    public var positiveElevationGainM: Int?
    /// Bit 4.
    public var energy: ExpendedEnergy?
    /// Bit 5; uint8 bpm.
    public var heartRateBpm: Int?
    /// Bit 6; uint8, 0.1 MET.
    public var metabolicEquivalent: Double?
    /// Bit 7; uint16 s.
    public var elapsedTimeS: Int?
    /// Bit 8; uint16 s.
    public var remainingTimeS: Int?

    public init(
        floors: Int? = nil, stepCount: Int? = nil, stepsPerMin: Int? = nil, averageStepRateStepsPerMin: Int? = nil,
        positiveElevationGainM: Int? = nil, energy: ExpendedEnergy? = nil, heartRateBpm: Int? = nil,
        metabolicEquivalent: Double? = nil, elapsedTimeS: Int? = nil, remainingTimeS: Int? = nil
    ) {
        self.floors = floors
        self.stepCount = stepCount
        self.stepsPerMin = stepsPerMin
        self.averageStepRateStepsPerMin = averageStepRateStepsPerMin
        self.positiveElevationGainM = positiveElevationGainM
        self.energy = energy
        self.heartRateBpm = heartRateBpm
        self.metabolicEquivalent = metabolicEquivalent
        self.elapsedTimeS = elapsedTimeS
        self.remainingTimeS = remainingTimeS
    }

    public var moreData: Bool { floors == nil && stepCount == nil }

    public var flags: UInt16 {
        var flags: UInt16 = moreData ? 1 : 0
        if stepsPerMin != nil { flags |= 1 << 1 }
        if averageStepRateStepsPerMin != nil { flags |= 1 << 2 }
        if positiveElevationGainM != nil { flags |= 1 << 3 }
        if energy != nil { flags |= 1 << 4 }
        if heartRateBpm != nil { flags |= 1 << 5 }
        if metabolicEquivalent != nil { flags |= 1 << 6 }
        if elapsedTimeS != nil { flags |= 1 << 7 }
        if remainingTimeS != nil { flags |= 1 << 8 }
        return flags
    }

    public static func decode(_ payload: [UInt8]) throws(DecodeError) -> StepClimberData { try decodeArray(payload) }
    public static func decode(bytes: UnsafeRawBufferPointer) throws(DecodeError) -> StepClimberData { try decodeBytes(bytes) }

    static func read(_ c: inout ByteCursor) throws(DecodeError) -> StepClimberData {
        let flags = try c.u16("flags")
        var v = StepClimberData()
        if !isSet(flags, 0) {
            v.floors = Int(try c.u16("floors"))
            v.stepCount = Int(try c.u16("step_count"))
        }
        if isSet(flags, 1) { v.stepsPerMin = Int(try c.u16("steps_per_min")) }
        if isSet(flags, 2) { v.averageStepRateStepsPerMin = Int(try c.u16("average_step_rate_steps_per_min")) }
        if isSet(flags, 3) { v.positiveElevationGainM = Int(try c.u16("positive_elevation_gain_m")) }
        if isSet(flags, 4) { v.energy = try ExpendedEnergy.read(&c) }
        if isSet(flags, 5) { v.heartRateBpm = Int(try c.u8("heart_rate_bpm")) }
        if isSet(flags, 6) { v.metabolicEquivalent = scaled(try c.u8("metabolic_equivalent"), 10) }
        if isSet(flags, 7) { v.elapsedTimeS = Int(try c.u16("elapsed_time_s")) }
        if isSet(flags, 8) { v.remainingTimeS = Int(try c.u16("remaining_time_s")) }
        return v
    }

    public func encode() -> [UInt8] {
        var w = ByteWriter(capacity: 24)
        w.u16(flags)
        if !moreData {
            w.u16(floors ?? 0)
            w.u16(stepCount ?? 0)
        }
        if let stepsPerMin { w.u16(stepsPerMin) }
        if let averageStepRateStepsPerMin { w.u16(averageStepRateStepsPerMin) }
        if let positiveElevationGainM { w.u16(positiveElevationGainM) }
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
        if let stepCount { f.append("step_count", .int(stepCount)) }
        if let stepsPerMin { f.append("steps_per_min", .int(stepsPerMin)) }
        if let averageStepRateStepsPerMin { f.append("average_step_rate_steps_per_min", .int(averageStepRateStepsPerMin)) }
        if let positiveElevationGainM { f.append("positive_elevation_gain_m", .int(positiveElevationGainM)) }
        energy?.appendFields(to: &f)
        if let heartRateBpm { f.append("heart_rate_bpm", .int(heartRateBpm)) }
        if let metabolicEquivalent { f.append("metabolic_equivalent", .double(metabolicEquivalent)) }
        if let elapsedTimeS { f.append("elapsed_time_s", .int(elapsedTimeS)) }
        if let remainingTimeS { f.append("remaining_time_s", .int(remainingTimeS)) }
    }
}
