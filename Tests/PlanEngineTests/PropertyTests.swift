import Foundation
import Testing
@testable import PlanEngine

@Suite struct PropertyTests {
    /// Every generated runner gets either the refusal the rules demand or a plan satisfying every rule.
    @Test func everyPlanErrorsRightOrSatisfiesEveryRule() throws {
        var rng = SeededRandom(seed: 20_260_601)
        var failures: [String] = []
        var plans = 0, refusals: [PlanError.Code: Int] = [:]
        for n in 0..<400 {
            let req = RunnerGen.request(&rng)
            let doc = PlanEngine.generate(req)
            if let e = doc.error { refusals[e.code, default: 0] += 1 } else { plans += 1 }
            let v = PlanRules.violations(of: doc)
            if !v.isEmpty {
                let json = String(data: try JSONEncoder().encode(req), encoding: .utf8)!
                failures.append("#\(n) \(json)\n  " + v.prefix(6).joined(separator: "\n  "))
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of 400 failed:\n\(failures.prefix(8).joined(separator: "\n"))")
        #expect(plans > 200)
        #expect(refusals.count >= 3)
    }
}
