import Foundation
import Store
import Testing

/// The overlap rule's lean read (`activitySpans`, issue 15 item 3) gives what the full reads give, in the stats' order,
/// on both backends.
@Suite struct ActivitySpansTests {
    @Test(arguments: Backend.available) func spansEqualTheFullReads(_ backend: Backend) async throws {
        try await withTestStore(backend) { t in
            try await t.store.upsertUser(Fixtures.user())
            var noBlob = Fixtures.session(
                "0b7e6a52-5b0e-4f5e-9a43-2d7f0c6f1a21", start: 1_766_570_400_000 + 86_400_000, raw: nil)
            noBlob.blobStatus = .none
            noBlob.machine = nil
            var truncated = Fixtures.session(
                "0b7e6a52-5b0e-4f5e-9a43-2d7f0c6f1a22", start: 1_766_570_400_000 - 86_400_000)
            truncated.blobStatus = .truncated
            truncated.machine = "treadmill"
            let sessions = [Fixtures.session(), noBlob, truncated]
            _ = try await t.store.apply(
                IngestUnit(
                    sessions: sessions.map { SessionCandidate(session: $0, conflictQuarantine: Fixtures.quarantine()) })
            )
            var withSamples = Fixtures.workout("gf-1", version: 1)
            withSamples.source = .garminFit
            withSamples.samplesJSON = "[{\"t\":0,\"power_w\":200}]"
            withSamples.startAt -= 600_000
            var noDistance = Fixtures.workout("hk-2", version: 1)
            noDistance.distanceM = nil
            noDistance.energyKcal = nil
            noDistance.timeZone = nil
            for (i, w) in [
                Fixtures.workout("hk-1", version: 1), withSamples, noDistance,
                Fixtures.workout("hk-3", version: 1, deleted: true),
            ].enumerated() {
                _ = try await t.store.apply(
                    IngestUnit(workouts: [
                        WorkoutCandidate(workout: w, conflictQuarantine: Fixtures.quarantine(key: "w\(i)"))
                    ]))
            }
            let spans = try await t.store.activitySpans(user: Fixtures.alice)
            let summaries = try await t.store.sessionSummaries(user: Fixtures.alice, offset: 0, limit: 100)
            let workouts = try await t.store.workouts(user: Fixtures.alice, includeDeleted: false)
            #expect(spans.sessions == summaries.map(\.span))
            #expect(spans.workouts == workouts.map(\.span))
            // Values written by hand: newest session first; workouts by start, then id; the tombstone left out.
            #expect(spans.sessions.map(\.hasRecording) == [false, true, true])
            #expect(spans.sessions.map(\.activityType) == [nil, "indoorBike", "treadmill"])
            #expect(Set(spans.sessions.map(\.source)) == ["ftms"] && Set(spans.sessions.map(\.kind)) == [.session])
            #expect(spans.workouts.map(\.id) == ["gf-1", "hk-1", "hk-2"])
            #expect(spans.workouts.map(\.hasRecording) == [true, false, false])
            #expect(spans.workouts.map(\.source) == ["garmin_fit", "apple_health", "apple_health"])
            #expect(
                spans.workouts[2].distanceM == nil && spans.workouts[2].energyKcal == nil
                    && spans.workouts[2].timeZone == nil)
            #expect(spans.workouts[0].endMillis == 1_766_574_000_000)
            // The figures the stats sum are the lean read's of `activityFigures`.
            let figures = try await t.store.activityFigures(user: Fixtures.alice)
            #expect(spans.sessions.map(\.figures) == figures.sessions)
            #expect(spans.workouts.map(\.figures) == figures.workouts)
        }
    }
}
