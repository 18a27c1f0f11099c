import Foundation
import Store
import StoreSQLite
import Testing

@testable import Pipeline

/// The real `pipeline` executable as a child process, killed and stopped at random moments: the store must end as
/// after runs that were never interrupted — no session lost, none counted twice.
@Suite(.serialized) struct KillAndRerunTests {
    /// Two nights (a full pass over the first stage of the inbox, then an incremental one over the rest), each run
    /// SIGKILLed at seeded random moments and started again until a run completes; at least 20 kills over several
    /// fresh databases, each compared with one clean run of the same two nights. Every run is as of the same instant
    /// (`--as-of`): stats and training load count from each user's today, which a real clock can move between the
    /// clean runs and the killed ones (it did once, at 23:00 UTC, midnight in Berlin).
    @Test func killedAtRandomMomentsAndRerunEndsAsCleanRuns() async throws {
        let fx = try await CLIFixture(users: 4, days: 14, seed: 8_808)
        let clock = ContinuousClock()

        // The clean reference, timing each night to place the kills.
        let clean = fx.newDatabase("clean")
        var durations: [Duration] = []
        for inbox in [fx.stage1, fx.stage2] {
            let t0 = clock.now
            let (child, _, _) = try fx.nightly(db: clean, inbox: inbox, asOf: CLIFixture.asOf)
            #expect(await child.wait() == ChildExit(status: 0, bySignal: false))
            durations.append(clock.now - t0)
        }
        let expected = try await CLIFixture.outcome(clean)
        #expect(expected.counts["sessions", default: 0] > 0)
        #expect(expected.pending == 0)

        var rng = SplitMix64(seed: 20_261_123)
        var kills = 0
        // kills that hit a run after it had recorded its start (the next run records it `abandoned`)
        var killedMidRun = 0
        var rounds = 0
        while kills < 20 {
            rounds += 1
            let db = fx.newDatabase("killed")
            for (inbox, duration) in zip([fx.stage1, fx.stage2], durations) {
                var attempt = 0
                while true {
                    attempt += 1
                    let (child, stdout, _) = try fx.nightly(db: db, inbox: inbox, asOf: CLIFixture.asOf)
                    // A kill somewhere in the length of a clean run; from the eighth attempt on, no kill (bounded).
                    if attempt < 8 {
                        let delay = Double.random(in: 0..<1, using: &rng) * (duration / .milliseconds(1))
                        try await Task.sleep(for: .milliseconds(delay))
                        if child.isRunning {
                            child.send(SIGKILL)
                            kills += 1
                        }
                    }
                    let exit = await child.wait()
                    if exit.bySignal { continue }
                    #expect(exit.status == 0, "a rerun failed: \(exit)")
                    // The completed run's report adds up (every record it saw ended in exactly one place).
                    let summary = try JSONDecoder().decode(NightlySummary.self, from: Data(contentsOf: stdout))
                    #expect(
                        summary.ingest.sessions.addsUp && summary.ingest.batches.addsUp
                            && summary.ingest.workouts.addsUp)
                    break
                }
            }
            let runs = try await SQLiteStore(path: db).jobRuns(NightlyJob.jobName, limit: 1_000)
            killedMidRun += runs.filter { $0.status == .abandoned }.count
            #expect(!runs.contains { $0.status == .running }, "a killed run is left running")
            let got = try await CLIFixture.outcome(db)
            #expect(got.digest == expected.digest, "round \(rounds): content differs from the clean runs")
            #expect(got.counts == expected.counts, "round \(rounds): row counts differ")
            #expect(got.pending == 0)
            #expect(got.lastRun?.status == .succeeded)
            #expect(got.lastRun?.watermark.flatMap(NightlyWatermark.init) != nil)
        }
        #expect(kills >= 20)
        // Most kills land inside the work, not before the run started.
        #expect(killedMidRun * 2 >= kills, "only \(killedMidRun) of \(kills) kills hit a started run")
    }

    /// SIGTERM: the run stops at the next safe point with exit code 143, the job run says `interrupted`, and the
    /// next run ends as one clean run.
    @Test func sigtermStopsCleanlyAndTheRerunFinishes() async throws {
        let fx = try await CLIFixture(users: 3, days: 10, seed: 8_809)
        let clean = fx.newDatabase("clean")
        #expect(
            try await fx.run(["nightly", "--db", clean, "--inbox", fx.stage2.path, "--as-of", CLIFixture.asOf])
                == ChildExit(status: 0, bySignal: false))
        let expected = try await CLIFixture.outcome(clean)

        let db = fx.newDatabase("terminated")
        let (child, _, stderr) = try fx.nightly(db: db, inbox: fx.stage2, asOf: CLIFixture.asOf)
        // Stop it once the run is under way (its start is logged after the job run is recorded).
        while child.isRunning,
            !((try? String(contentsOf: stderr, encoding: .utf8)) ?? "").contains("nightly run started")
        {
            try await Task.sleep(for: .milliseconds(5))
        }
        child.send(SIGTERM)
        #expect(await child.wait() == ChildExit(status: 143, bySignal: false))
        let stopped = try await CLIFixture.outcome(db)
        #expect(stopped.lastRun?.status == .interrupted)
        #expect(stopped.lastRun?.watermark == nil)

        #expect(
            try await fx.run(["nightly", "--db", db, "--inbox", fx.stage2.path, "--as-of", CLIFixture.asOf])
                == ChildExit(status: 0, bySignal: false))
        let got = try await CLIFixture.outcome(db)
        #expect(got.digest == expected.digest)
        #expect(got.counts == expected.counts)
        #expect(got.lastRun?.status == .succeeded)
    }
}
