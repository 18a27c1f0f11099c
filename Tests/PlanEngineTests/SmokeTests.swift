import Testing
@testable import PlanEngine

@Test func moduleLoads() { #expect(String(describing: PlanEngineModule.self) == "PlanEngineModule") }
