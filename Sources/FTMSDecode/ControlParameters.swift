/// Parameter formats shared by the Fitness Machine Control Point (FTMS 1.0 §4.16.1,
/// Table 4.15) and the Fitness Machine Status (FTMS 1.0 §4.17, Table 4.24): a status op
/// code carries the same parameter as the request that would have caused it.

/// Indoor Bike Simulation Parameters (FTMS 1.0 §4.16.2.18): wind speed sint16 0.001 m/s,
/// grade sint16 0.01 %, rolling resistance coefficient uint8 0.0001, wind resistance
/// coefficient uint8 0.01 kg/m.
public struct BikeSimulationParameters: Sendable, Equatable {
    public var windSpeedMps: Double
    public var gradePct: Double
    public var crr: Double
    public var cwKgPerM: Double

    public init(windSpeedMps: Double, gradePct: Double, crr: Double, cwKgPerM: Double) {
        self.windSpeedMps = windSpeedMps
        self.gradePct = gradePct
        self.crr = crr
        self.cwKgPerM = cwKgPerM
    }

    static func read(_ c: inout ByteCursor) throws(DecodeError) -> BikeSimulationParameters {
        let wind = scaled(try c.s16("wind_speed_mps"), 1000)
        let grade = scaled(try c.s16("grade_pct"), 100)
        let crr = scaled(try c.u8("crr"), 10000)
        let cw = scaled(try c.u8("cw_kg_per_m"), 100)
        return BikeSimulationParameters(windSpeedMps: wind, gradePct: grade, crr: crr, cwKgPerM: cw)
    }

    func write(_ w: inout ByteWriter) {
        w.s16(rawValue(windSpeedMps, divisor: 1000))
        w.s16(rawValue(gradePct, divisor: 100))
        w.u8(rawValue(crr, divisor: 10000))
        w.u8(rawValue(cwKgPerM, divisor: 100))
    }

    func appendFields(to f: inout DecodedFields) {
        f.append("wind_speed_mps", .double(windSpeedMps))
        f.append("grade_pct", .double(gradePct))
        f.append("crr", .double(crr))
        f.append("cw_kg_per_m", .double(cwKgPerM))
    }
}

/// The targeted time in 2, 3 or 5 heart-rate zones: `count` uint16 seconds.
func readZones(_ c: inout ByteCursor, count: Int) throws(DecodeError) -> [Int] {
    try c.need(2 * count, "targeted_time_in_hr_zones_s")
    var zones: [Int] = []
    zones.reserveCapacity(count)
    for _ in 0..<count { zones.append(Int(try c.u16("targeted_time_in_hr_zones_s"))) }
    return zones
}

/// Zones normalised to 2, 3 or 5 entries (padded with 0, extra entries dropped), and the
/// index 0/1/2 of that size.
func normalisedZones(_ zones: [Int]) -> (zones: [Int], sizeIndex: Int) {
    let size = zones.count <= 2 ? 2 : zones.count == 3 ? 3 : 5
    var out = Array(zones.prefix(size))
    while out.count < size { out.append(0) }
    return (out, size == 2 ? 0 : size == 3 ? 1 : 2)
}

func zonesField(_ zones: [Int]) -> FieldValue { .list(zones.map { .int($0) }) }
