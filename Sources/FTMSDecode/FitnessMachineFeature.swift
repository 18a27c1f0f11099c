/// Fitness Machine Feature (0x2ACC), Fitness Machine Service 1.0 §4.3: uint32 Fitness
/// Machine Features then uint32 Target Setting Features (8 octets). Bits 17–31 of each are
/// reserved and not named.
public struct FitnessMachineFeature: Sendable, Equatable, CharacteristicCoding {
    public static let uuid: UInt16 = 0x2ACC
    public static let characteristicName = "fitness_machine_feature"

    /// Names of machine feature bits 0–16 (FTMS 1.0 §4.3.1.1, Table 4.2).
    public static let machineFeatureNames = [
        "average_speed", "cadence", "total_distance", "inclination", "elevation_gain", "pace",
        "step_count", "resistance_level", "stride_count", "expended_energy", "heart_rate_measurement",
        "metabolic_equivalent", "elapsed_time", "remaining_time", "power_measurement",
        "force_on_belt_and_power_output", "user_data_retention",
    ]
    /// Names of target setting feature bits 0–16 (FTMS 1.0 §4.3.1.2, Table 4.3).
    public static let targetSettingNames = [
        "speed_target", "inclination_target", "resistance_target", "power_target", "heart_rate_target",
        "targeted_expended_energy", "targeted_step_number", "targeted_stride_number", "targeted_distance",
        "targeted_training_time", "targeted_time_in_two_hr_zones", "targeted_time_in_three_hr_zones",
        "targeted_time_in_five_hr_zones", "indoor_bike_simulation_parameters", "wheel_circumference",
        "spin_down_control", "targeted_cadence",
    ]

    public var machineFeatures: UInt32
    public var targetSettingFeatures: UInt32

    public init(machineFeatures: UInt32, targetSettingFeatures: UInt32) {
        self.machineFeatures = machineFeatures
        self.targetSettingFeatures = targetSettingFeatures
    }

    /// Names of the set, defined machine feature bits, ascending.
    public var machineFeatureNames: [String] { Self.names(machineFeatures, Self.machineFeatureNames) }
    /// Names of the set, defined target setting bits, ascending.
    public var targetSettingNames: [String] { Self.names(targetSettingFeatures, Self.targetSettingNames) }

    static func names(_ bits: UInt32, _ table: [String]) -> [String] {
        table.indices.filter { bits & (1 << UInt32($0)) != 0 }.map { table[$0] }
    }

    public static func decode(_ payload: [UInt8]) throws(DecodeError) -> FitnessMachineFeature {
        try decodeArray(payload)
    }
    public static func decode(bytes: UnsafeRawBufferPointer) throws(DecodeError) -> FitnessMachineFeature {
        try decodeBytes(bytes)
    }

    package static func read(_ c: inout ByteCursor) throws(DecodeError) -> FitnessMachineFeature {
        try c.need(8, "machine_features")
        let machine = try c.u32("machine_features")
        let target = try c.u32("target_setting_features")
        return FitnessMachineFeature(machineFeatures: machine, targetSettingFeatures: target)
    }

    public func encode() -> [UInt8] {
        var w = ByteWriter(capacity: 8)
        w.u32(machineFeatures)
        w.u32(targetSettingFeatures)
        return w.bytes
    }
}
