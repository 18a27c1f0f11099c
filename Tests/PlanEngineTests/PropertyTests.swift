import Foundation
import PlanCheckKit
import Testing

@testable import PlanEngine

@Suite struct PropertyTests {
    /// Every generated runner gets either the refusal the rules demand or a plan satisfying every rule.
    @Test func everyPlanErrorsRightOrSatisfiesEveryRule() throws {
        // PLAN_SEED / PLAN_RUNNERS explore further seeds locally; CI runs the fixed 400.
        let env = ProcessInfo.processInfo.environment
        var rng = SeededRandom(seed: env["PLAN_SEED"].flatMap(UInt64.init) ?? 20_260_601)
        let count = env["PLAN_RUNNERS"].flatMap(Int.init) ?? 400
        var failures: [String] = []
        var plans = 0, refusals: [PlanError.Code: Int] = [:]
        for n in 0..<count {
            let req = RunnerGen.request(&rng)
            let doc = PlanEngine.generate(req)
            if let e = doc.error { refusals[e.code, default: 0] += 1 } else { plans += 1 }
            let v = PlanRules.violations(of: doc)
            if !v.isEmpty {
                let json = String(data: try JSONEncoder().encode(req), encoding: .utf8)!
                failures.append("#\(n) \(json)\n  " + v.prefix(6).joined(separator: "\n  "))
            }
        }
        #expect(
            failures.isEmpty, "\(failures.count) of \(count) failed:\n\(failures.prefix(8).joined(separator: "\n"))")
        #expect(plans > count / 2)
        #expect(refusals.count >= 3)
    }
}
