import Testing

@testable import FTMSDecode

/// The properties named once for several characteristics (`SpeedFields`, `PowerFields`, ..., and `FTMSDataFields`
/// for every FTMS data characteristic) find their field in the layout's list: each layout whose `Fields` conform to a
/// group must list every field of it, with divisor 1 for the integer properties.
@Suite("Properties shared between characteristics")
struct SharedFieldsTests {
    /// What is wrong with property `name` of `L`'s records, nil when its field is in the list with a divisor its type
    /// can carry.
    static func problem<L: RecordLayout, V>(_ layout: L.Type, _ name: KeyPath<L.Fields, Field<V>>) -> String? {
        let field = L.Fields()[keyPath: name].id
        var spec = FieldSpec(field)
        L.fields(&spec)
        if spec.slot < 0 { return "\(L.characteristicName) \(field.rawValue): missing" }
        if V.isInteger && spec.divisor != 1 { return "\(L.characteristicName) \(field.rawValue): \(spec.divisor)" }
        return nil
    }

    static func common<L: FTMSDataLayout>(_ l: L.Type) -> [String?] {
        [
            problem(l, \.heartRateBpm), problem(l, \.metabolicEquivalent), problem(l, \.elapsedTimeS),
            problem(l, \.remainingTimeS),
        ]
    }
    static func speed<L: RecordLayout>(_ l: L.Type) -> [String?] where L.Fields: SpeedFields {
        [problem(l, \.speedKmh), problem(l, \.averageSpeedKmh)]
    }
    static func distance<L: RecordLayout>(_ l: L.Type) -> [String?] where L.Fields: DistanceFields {
        [problem(l, \.totalDistanceM)]
    }
    static func power<L: RecordLayout>(_ l: L.Type) -> [String?] where L.Fields: PowerFields {
        [problem(l, \.powerW), problem(l, \.averagePowerW)]
    }
    static func stepRate<L: RecordLayout>(_ l: L.Type) -> [String?] where L.Fields: StepRateFields {
        [problem(l, \.stepsPerMin), problem(l, \.averageStepRateStepsPerMin), problem(l, \.positiveElevationGainM)]
    }
    static func inclination<L: RecordLayout>(_ l: L.Type) -> [String?] where L.Fields: InclinationFields {
        [problem(l, \.inclinationPct), problem(l, \.rampAngleDeg)]
    }
    static func climb<L: RecordLayout>(_ l: L.Type) -> [String?] where L.Fields: ClimbFields {
        [problem(l, \.floors)]
    }
    static func revolutions<L: RecordLayout>(_ l: L.Type) -> [String?] where L.Fields: RevolutionFields {
        [
            problem(l, \.cumulativeWheelRevolutions), problem(l, \.lastWheelEventTimeS),
            problem(l, \.cumulativeCrankRevolutions), problem(l, \.lastCrankEventTimeS),
        ]
    }

    @Test("every layout lists the fields of the groups its names conform to")
    func groups() {
        var problems: [String?] = []
        problems += Self.common(IndoorBikeLayout.self) + Self.common(CrossTrainerLayout.self)
        problems += Self.common(TreadmillLayout.self) + Self.common(RowerLayout.self)
        problems += Self.common(StairClimberLayout.self) + Self.common(StepClimberLayout.self)
        problems += Self.speed(IndoorBikeLayout.self) + Self.speed(CrossTrainerLayout.self)
        problems += Self.speed(TreadmillLayout.self)
        problems += Self.distance(IndoorBikeLayout.self) + Self.distance(CrossTrainerLayout.self)
        problems += Self.distance(TreadmillLayout.self) + Self.distance(RowerLayout.self)
        problems += Self.power(IndoorBikeLayout.self) + Self.power(CrossTrainerLayout.self)
        problems += Self.power(RowerLayout.self)
        problems += Self.stepRate(CrossTrainerLayout.self) + Self.stepRate(StairClimberLayout.self)
        problems += Self.stepRate(StepClimberLayout.self)
        problems += Self.inclination(TreadmillLayout.self) + Self.inclination(CrossTrainerLayout.self)
        problems += Self.climb(StairClimberLayout.self) + Self.climb(StepClimberLayout.self)
        problems += Self.revolutions(CyclingPowerLayout.self) + Self.revolutions(CSCLayout.self)
        #expect(problems.count == 63)
        #expect(problems.compactMap { $0 } == [])
    }

    @Test("a shared accessor reads and writes the characteristic's own field")
    func accessors() throws {
        var bike = IndoorBikeData()
        bike.powerW = 250
        bike.heartRateBpm = 140
        #expect(try IndoorBikeData.decode(bike.encode()) == bike)
        #expect(bike.powerW == 250 && bike.heartRateBpm == 140 && bike.averagePowerW == nil)
        var csc = CSCMeasurement()
        csc.cumulativeWheelRevolutions = 0xFFFF_FFFF
        #expect(csc.cumulativeWheelRevolutions == 0xFFFF_FFFF && csc.lastWheelEventTimeS == 0)
        #expect(try CSCMeasurement.decode(csc.encode()) == csc)
    }
}
