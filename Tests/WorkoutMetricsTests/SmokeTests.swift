import Testing
@testable import WorkoutMetrics

@Test func moduleLoads() { #expect(String(describing: WorkoutMetricsModule.self) == "WorkoutMetricsModule") }
