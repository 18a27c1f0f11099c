import Testing

@testable import FTMSDecode

/// The accessors declared once for several characteristics (`SpeedFields`, `PowerFields`, ...,
/// and every `FTMSDataLayout`) read their field through the layout's list: each conforming
/// layout must list every field of its groups, with divisor 1 for the `Int?` properties.
@Suite("Accessors shared between characteristics")
struct SharedFieldsTests {
    /// `field`'s divisor in `L`'s list, nil when the list does not have it.
    static func divisor<L: RecordLayout>(_ layout: L.Type, _ field: DataField) -> Double? {
        var spec = FieldSpec(field)
        L.fields(&spec)
        return spec.slot >= 0 ? spec.divisor : nil
    }

    static func check<L: RecordLayout>(_ layout: L.Type, ints: [DataField], doubles: [DataField]) -> [String] {
        var problems: [String] = []
        for field in ints where divisor(layout, field) != 1 {
            problems.append("\(L.characteristicName) \(field.rawValue): \(String(describing: divisor(layout, field)))")
        }
        for field in doubles where divisor(layout, field) == nil {
            problems.append("\(L.characteristicName) \(field.rawValue): missing")
        }
        return problems
    }

    static func common<L: FTMSDataLayout>(_ l: L.Type) -> [String] {
        check(l, ints: [.heartRateBpm, .elapsedTimeS, .remainingTimeS], doubles: [.metabolicEquivalent])
            + check(l, ints: [.totalEnergyKcal, .energyPerHourKcal, .energyPerMinuteKcal], doubles: [])
    }
    static func speed<L: SpeedFields>(_ l: L.Type) -> [String] {
        check(l, ints: [], doubles: [.speedKmh, .averageSpeedKmh])
    }
    static func distance<L: DistanceFields>(_ l: L.Type) -> [String] { check(l, ints: [.totalDistanceM], doubles: []) }
    static func power<L: PowerFields>(_ l: L.Type) -> [String] {
        check(l, ints: [.powerW, .averagePowerW], doubles: [])
    }
    static func stepRate<L: StepRateFields>(_ l: L.Type) -> [String] {
        check(l, ints: [.stepsPerMin, .averageStepRateStepsPerMin, .positiveElevationGainM], doubles: [])
    }
    static func inclination<L: InclinationFields>(_ l: L.Type) -> [String] {
        check(l, ints: [], doubles: [.inclinationPct, .rampAngleDeg])
    }
    static func climb<L: ClimbFields>(_ l: L.Type) -> [String] { check(l, ints: [.floors], doubles: []) }
    static func revolutions<L: RevolutionFields>(_ l: L.Type) -> [String] {
        check(
            l, ints: [.cumulativeWheelRevolutions, .cumulativeCrankRevolutions],
            doubles: [.lastWheelEventTimeS, .lastCrankEventTimeS])
    }

    @Test("every layout lists the fields of the groups it conforms to")
    func groups() {
        var problems: [String] = []
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
        #expect(problems == [])
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
