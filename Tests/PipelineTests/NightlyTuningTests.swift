import Foundation
import Testing

/// `pipeline nightly --groups-in-flight N --parallel-commits B`: knobs for benchmarks, which change how the ingest's
/// work overlaps and never what it stores; values outside their range are refused as usage errors.
@Suite struct NightlyTuningTests {
    @Test func everySettingStoresTheSame() async throws {
        let fx = try await CLIFixture(users: 3, days: 6, seed: 4_242)
        let reference = fx.newDatabase("tuning-default")
        #expect(try await fx.run(["nightly", "--db", reference, "--inbox", fx.stage2.path]).status == 0)
        let expected = try await CLIFixture.outcome(reference)
        #expect(expected.counts["sessions", default: 0] > 0)
        for (inFlight, parallel) in [("1", "true"), ("3", "false"), ("8", "true")] {
            let db = fx.newDatabase("tuning-\(inFlight)-\(parallel)")
            let exit = try await fx.run([
                "nightly", "--db", db, "--inbox", fx.stage2.path, "--groups-in-flight", inFlight,
                "--parallel-commits", parallel,
            ])
            #expect(exit.status == 0)
            let outcome = try await CLIFixture.outcome(db)
            #expect(outcome.digest == expected.digest, "groups in flight \(inFlight), parallel \(parallel)")
            #expect(outcome.counts == expected.counts)
        }
    }

    @Test(arguments: [
        ["--groups-in-flight", "0"], ["--groups-in-flight", "9"], ["--groups-in-flight", "two"],
        ["--parallel-commits", "maybe"],
    ])
    func outOfRangeIsAUsageError(_ extra: [String]) async throws {
        let fx = try await CLIFixture(users: 1, days: 2, seed: 4_243)
        let db = fx.newDatabase("tuning-bad")
        #expect(try await fx.run(["nightly", "--db", db, "--inbox", fx.stage2.path] + extra).status == 64)
    }
}
