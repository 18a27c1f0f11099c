import Foundation
import Ingest
import Testing

/// `pipeline nightly --groups-in-flight N --parallel-commits B`: knobs for benchmarks, which change how the ingest's
/// work overlaps and never what it stores; values outside their range are refused as usage errors. `--as-of T`: the
/// run's clock starts at T, so what counts from the users' today is the same whenever the run happens.
@Suite struct NightlyTuningTests {
    @Test func everySettingStoresTheSame() async throws {
        let fx = try await CLIFixture(users: 3, days: 6, seed: 4_242)
        let reference = fx.newDatabase("tuning-default")
        #expect(
            try await fx.run(["nightly", "--db", reference, "--inbox", fx.stage2.path, "--as-of", CLIFixture.asOf])
                .status == 0)
        let expected = try await CLIFixture.outcome(reference)
        #expect(expected.counts["sessions", default: 0] > 0)
        for (inFlight, parallel) in [("1", "true"), ("3", "false"), ("8", "true")] {
            let db = fx.newDatabase("tuning-\(inFlight)-\(parallel)")
            let exit = try await fx.run([
                "nightly", "--db", db, "--inbox", fx.stage2.path, "--groups-in-flight", inFlight,
                "--parallel-commits", parallel, "--as-of", CLIFixture.asOf,
            ])
            #expect(exit.status == 0)
            let outcome = try await CLIFixture.outcome(db)
            #expect(outcome.digest == expected.digest, "groups in flight \(inFlight), parallel \(parallel)")
            #expect(outcome.counts == expected.counts)
        }
    }

    @Test(arguments: [
        ["--groups-in-flight", "0"], ["--groups-in-flight", "9"], ["--groups-in-flight", "two"],
        ["--parallel-commits", "maybe"], ["--as-of", "yesterday"], ["--as-of", "2026-11-21"],
    ])
    func outOfRangeIsAUsageError(_ extra: [String]) async throws {
        let fx = try await CLIFixture(users: 1, days: 2, seed: 4_243)
        let db = fx.newDatabase("tuning-bad")
        #expect(try await fx.run(["nightly", "--db", db, "--inbox", fx.stage2.path] + extra).status == 64)
    }

    @Test func asOfSetsTheRunsDay() async throws {
        let fx = try await CLIFixture(users: 2, days: 6, seed: 4_244)
        func run(asOf: String) async throws -> (digest: String, counts: [String: Int], started: Int64?) {
            let db = fx.newDatabase("as-of")
            #expect(try await fx.run(["nightly", "--db", db, "--inbox", fx.stage2.path, "--as-of", asOf]).status == 0)
            let outcome = try await CLIFixture.outcome(db)
            return (outcome.digest, outcome.counts, outcome.lastRun?.startedAt)
        }
        let first = try await run(asOf: CLIFixture.asOf)
        let again = try await run(asOf: CLIFixture.asOf)
        #expect(again.digest == first.digest)
        // The job run starts on the run's clock: at the instant, give or take the time the process took to get there.
        let instant = try #require(RFC3339.parseMillis(CLIFixture.asOf))
        let started = try #require(first.started)
        #expect(started >= instant && started < instant + 60_000)
        // Ten days later: the same data, ten more days of training load for each of the two users.
        let later = try await run(asOf: "2026-12-01T12:00:00Z")
        #expect(later.digest != first.digest)
        #expect(later.counts["training_load", default: 0] == first.counts["training_load", default: 0] + 2 * 10)
    }
}
