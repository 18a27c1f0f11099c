import FTMSDecode

/// A characteristic value type as `CharacteristicDecoder` renders it: decoded (`CharacteristicCoding.read`), then its
/// contract fields appended in wire order.
protocol Rendered: CharacteristicCoding {
    /// Appends the contract fields in wire order. `payload` is the whole value (for the raw flags, which may include
    /// reserved bits the typed value does not keep).
    func appendFields(to fields: inout DecodedFields, payload: UnsafeRawBufferPointer)
}

// MARK: - The flagged records

/// A flagged record's layout as `pipeline decode` renders it: the flag bits that are values themselves
/// (`RecordLayout.flagOnlyBits`) as fields of their own, at their place.
protocol RenderedLayout: RecordLayout {
    /// Fields rendered from the flags alone, after `flags` (and `more_data`).
    static func appendFlagFields(to fields: inout DecodedFields, flags: UInt32)
    /// Fields rendered from the flags alone, right after `field`.
    static func appendFlagFields(after field: DataField, to fields: inout DecodedFields, flags: UInt32)
}

extension RenderedLayout {
    static func appendFlagFields(to fields: inout DecodedFields, flags: UInt32) {}
    static func appendFlagFields(after field: DataField, to fields: inout DecodedFields, flags: UInt32) {}
}

extension TreadmillLayout: RenderedLayout {}
extension StepClimberLayout: RenderedLayout {}
extension StairClimberLayout: RenderedLayout {}
extension RowerLayout: RenderedLayout {}
extension IndoorBikeLayout: RenderedLayout {}
extension CSCLayout: RenderedLayout {}

extension CrossTrainerLayout: RenderedLayout {
    /// Bit 15, the movement direction.
    static func appendFlagFields(to fields: inout DecodedFields, flags: UInt32) {
        fields.append("movement_direction", .string(flags & (1 << 15) != 0 ? "backward" : "forward"))
    }
}

extension CyclingPowerLayout: RenderedLayout {
    /// The flag-only bits, each after the field it qualifies (the indicator after the power).
    static func appendFlagFields(after field: DataField, to fields: inout DecodedFields, flags: UInt32) {
        switch field {
        case .powerW: fields.append("offset_compensation_indicator", .bool(flags & (1 << 12) != 0))
        case .pedalPowerBalancePct:
            fields.append("pedal_power_balance_reference", .string(flags & (1 << 1) != 0 ? "left" : "unknown"))
        case .accumulatedTorqueNm:
            fields.append("accumulated_torque_source", .string(flags & (1 << 3) != 0 ? "crank" : "wheel"))
        default: break
        }
    }
}

/// Renders a record as the walk reads it (`RecordLayout.visitFields`): `flags`, `more_data` (FTMS) and any flag-only
/// fields first, then the fields — integers as int, the rest as double in their units — each followed by the
/// flag-only fields the layout renders after it.
struct FieldRenderer<Layout: RenderedLayout>: FieldSink {
    var fields: DecodedFields
    var rawFlags: UInt32 = 0
    mutating func flags(_ raw: UInt32) {
        rawFlags = raw
        fields.append("flags", .int(Int(raw)))
        if Layout.invertedBits & 1 != 0 { fields.append("more_data", .bool(raw & 1 != 0)) }
        Layout.appendFlagFields(to: &fields, flags: raw)
    }
    mutating func field(slot: Int, _ field: DataField, _ type: WireType, raw: Int, divisor: Double) {
        fields.append(field.rawValue, divisor == 1 ? .int(raw) : .double(Double(raw) / divisor))
        Layout.appendFlagFields(after: field, to: &fields, flags: rawFlags)
    }
}

// MARK: - The other characteristics

extension HeartRateMeasurement: Rendered {
    func appendFields(to f: inout DecodedFields, payload: UnsafeRawBufferPointer) {
        f.append("flags", .int(Int(payload[0])))
        f.append("heart_rate_bpm", .int(heartRateBpm))
        f.append("sensor_contact", .string(sensorContact.name))
        if let energyExpendedKJ { f.append("energy_expended_kj", .int(energyExpendedKJ)) }
        if let rrIntervals {
            f.append("rr_intervals_s", .list((0..<rrIntervals.count).map { .double(rrIntervals.seconds(at: $0)) }))
        }
    }
}

extension ControlPointMessage: Rendered {
    func appendFields(to f: inout DecodedFields, payload: UnsafeRawBufferPointer) {
        switch self {
        case .request(let request):
            f.append("op_code", .int(Int(request.opCode)))
            f.append("op_name", .string(ControlPointRequest.opName(request.opCode)))
            switch request {
            case .requestControl, .reset, .startOrResume, .reserved: break
            case .setTarget(let target): target.appendFields(to: &f)
            case .stopOrPause(let info): f.append("control_information", .int(info))
            case .spinDownControl(let control): f.append("spin_down_control", .int(control))
            }
        case .response(let response):
            f.append("op_code", .int(Int(ControlPointResponse.opCode)))
            f.append("op_name", .string("response_code"))
            f.append("request_op_code", .int(Int(response.requestOpCode)))
            f.append("request_op_name", .string(ControlPointRequest.opName(response.requestOpCode)))
            f.append("result_code", .int(Int(response.resultCode)))
            f.append("result_name", .string(ControlPointResponse.resultName(response.resultCode)))
            if let low = response.targetSpeedLowKmh { f.append("target_speed_low_kmh", .double(low)) }
            if let high = response.targetSpeedHighKmh { f.append("target_speed_high_kmh", .double(high)) }
        }
    }
}

extension FitnessMachineStatus: Rendered {
    func appendFields(to f: inout DecodedFields, payload: UnsafeRawBufferPointer) {
        let op = payload[0]
        f.append("op_code", .int(Int(op)))
        f.append("op_name", .string(Self.opName(op)))
        switch self {
        case .reset, .stoppedBySafetyKey, .startedOrResumedByUser, .controlPermissionLost, .reserved: break
        case .stoppedOrPausedByUser(let info): f.append("control_information", .int(info))
        case .targetChanged(let target): target.appendFields(to: &f)
        case .spinDownStatus(let status): f.append("spin_down_status", .int(status))
        }
    }
}

extension MachineTarget {
    /// The parameter's fields (`MachineTarget.slots`); the zones as one list.
    func appendFields(to f: inout DecodedFields) {
        if case .timeInHeartRateZones(let zones) = self {
            f.append("targeted_time_in_hr_zones_s", .list(zones.map { .int($0) }))
            return
        }
        for (field, value) in zip(Self.slots[slot].parameter, values) {
            f.append(field.name, field.divisor == 1 ? .int(Int(value)) : .double(value))
        }
    }
}

extension SupportedRange {
    func appendFields(to f: inout DecodedFields) {
        let (names, _, divisor) = kind.fields
        for (name, value) in zip(names, [minimum, maximum, minimumIncrement]) {
            f.append(name, divisor == 1 ? .int(Int(value)) : .double(value))
        }
    }
}

extension TrainingStatus: Rendered {
    func appendFields(to f: inout DecodedFields, payload: UnsafeRawBufferPointer) {
        f.append("flags", .int(Int(payload[0])))
        f.append("training_status", .int(Int(status)))
        f.append("training_status_name", .string(statusName))
        f.append("extended_string", .bool(extendedString))
        if let statusString { f.append("training_status_string", .string(statusString)) }
    }
}

extension FitnessMachineFeature: Rendered {
    func appendFields(to f: inout DecodedFields, payload: UnsafeRawBufferPointer) {
        f.append("machine_features", .int(Int(machineFeatures)))
        f.append("target_setting_features", .int(Int(targetSettingFeatures)))
        f.append("machine_feature_names", .list(machineFeatureNames.map { .string($0) }))
        f.append("target_setting_names", .list(targetSettingNames.map { .string($0) }))
    }
}
