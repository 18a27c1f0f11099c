import Foundation
import HTTPAPI
import Hummingbird
import HummingbirdTesting
import Ingest
import OpenAPIRuntime
import PipelineClient
import PipelineSync
import Store
import Testing

/// Issue 42: a phone's day, end to end. The real server (`buildApplication`, as `pipeline serve` runs it) listens on
/// an ephemeral loopback port over a generated store; two devices of one user and a device of a second user talk to
/// it through the generated client over its Linux transport (AsyncHTTPClient) and keep their mirrors with
/// `PipelineSync`. Between the syncs, the nightly runs in-process over the same store, bringing a patched and a
/// deleted workout record through its inbox as production does.
@Suite struct PhoneDayTests {
    @Test func twoDevicesOfOneUserConvergeOnWhatTheServerHoldsAndASecondUserSeesNoneOfIt() async throws {
        let day = try await PhoneDay()
        let runner = UserID(PhoneDay.runner)
        let generatedWorkouts = try await day.store.workouts(user: runner, includeDeleted: false)
        try #require(generatedWorkouts.count >= 2)
        let app = buildApplication(services: try day.services())
        try await app.test(.live) { live in
            let server = URL(string: "http://localhost:\(try #require(live.port))")!
            let phone = Client(serverURL: server, bearerToken: day.token(PhoneDay.runner), userAgent: "PhoneDay/1")
            let watch = Client(serverURL: server, bearerToken: day.token(PhoneDay.runner), userAgent: "PhoneDay/1")
            let other = Client(serverURL: server, bearerToken: day.token(PhoneDay.cyclist))
            let (phoneMirror, watchMirror, otherMirror) = (MemoryStore(), MemoryStore(), MemoryStore())
            let phoneSync = Synchronizer(client: phone, store: phoneMirror)
            let watchSync = Synchronizer(client: watch, store: watchMirror)
            let otherSync = Synchronizer(client: other, store: otherMirror)

            // Morning: the phone catches up with the generated two weeks, in pages of 7.
            let first = try await phoneSync.pull(pageSize: 7)
            #expect(first.pages > 1)
            let generatedSessions = try await phone.allSessions()
            #expect(phoneMirror.snapshot.sessions.count == generatedSessions.count)
            #expect(generatedSessions.count == day.manifest.users[0].sessions.count)

            // The phone uploads two sessions; the watch uploads one of them again (a duplicate: a success for the
            // app), a third session, and a FIT file of a run.
            let morning = try day.session(1, hour: 7, minutes: 40)
            let noon = try day.session(2, hour: 9, minutes: 25)
            let evening = try day.session(3, hour: 10, minutes: 30)
            let upload = try await phoneSync.upload([morning, noon])
            #expect(upload.successCount == 2 && upload.duplicateCount == 0 && upload.failedSessions.isEmpty)
            let again = try await watchSync.upload([noon, evening])
            #expect(again.successCount == 1 && again.duplicateCount == 1 && again.failedSessions.isEmpty)
            let fit = try await watchSync.uploadFile(
                Data(contentsOf: PhoneDayTests.fixture("real/garmin-fenix-5-run.fit")), name: "fenix-run.fit")
            #expect(fit.status == .imported)
            #expect(fit.activities.stored == 1)

            // The cyclist's device, beside them.
            let cyclistSession = try day.session(9, hour: 8, minutes: 60)
            #expect(try await otherSync.upload([cyclistSession]).successCount == 1)

            // Night: the nightly measures the new recordings and reads its inbox, where the runner's workout
            // source sent a new version of one record and the deletion of another.
            let (patched, deleted) = (generatedWorkouts[0], generatedWorkouts[1])
            let patchedDistance = (patched.distanceM ?? 5000) + 1234
            let version = max(patched.updatedAt, deleted.updatedAt) + 60_000
            let inbox = try day.inbox(
                named: "night",
                workouts: [
                    PhoneDayTests.workoutLine(patched, distance: patchedDistance, updatedAt: version),
                    #"{"id":"\#(deleted.workoutID.rawValue)","user_id":"\#(PhoneDay.runner)","source":"\#(deleted.source.rawValue)","updated_at":"\#(RFC3339.format(millis: version))","deleted":true}"#,
                ])
            let night = try await day.nightly(inbox: inbox)
            #expect(night.ingest.workouts.stored == 2)
            #expect(night.sessionsAnalyzed == 4) // the three sessions of the day and the cyclist's
            #expect(night.workoutsAnalyzed >= 2) // the FIT run and the patched record

            // Both devices sync; the phone fails in the middle of a page once and resumes.
            // The phone's store throws on the second change of the second page: the first page stays saved.
            let savedBefore = phoneMirror.savedCursors.count
            phoneMirror.failOnApply = 6
            await #expect(throws: MemoryStore.Failure.self) { try await phoneSync.pull(pageSize: 4) }
            #expect(phoneMirror.savedCursors.count == savedBefore + 1)
            let resumed = try await phoneSync.pull(pageSize: 4)
            #expect(resumed.applied >= 1 && !resumed.restartedFromBeginning)
            try await watchSync.pull()
            try await otherSync.pull()

            // The two mirrors are the same, and they are what the server holds.
            let mirror = phoneMirror.snapshot
            #expect(mirror == watchMirror.snapshot)
            let served = try await phone.allSessions()
            #expect(served.count == generatedSessions.count + 3)
            #expect(Set(mirror.sessions.keys) == Set(served.keys))
            for (id, session) in served { #expect(mirror.sessions[id]?.summary == session, "session \(id)") }
            for upload in [morning, noon, evening] {
                #expect(mirror.sessions[upload.sessionId]?.metrics != nil, "the nightly's metrics reached the mirror")
            }
            let stored = try await day.store.workouts(user: runner, includeDeleted: false)
            #expect(Set(mirror.workouts.keys) == Set(stored.map(\.workoutID.rawValue)))
            #expect(mirror.workouts[deleted.workoutID.rawValue] == nil)
            #expect(mirror.workouts[patched.workoutID.rawValue]?.distanceM == patchedDistance)
            #expect(mirror.workouts.values.contains { $0.source == .garminFit })
            let stats = try await phone.getStats().ok.body.json
            #expect(mirror.stats == stats)
            #expect(stats.value1.workoutTotalCount > generatedSessions.count)
            let plan = try await phone.getPlan().ok.body.json
            #expect(mirror.planVersions.last == plan.version)
            let firstWeek = try await phone.getPlanWeek(path: .init(week: "1")).ok.body.json
            #expect(firstWeek.version == plan.version && firstWeek.index == 1 && firstWeek.weekCount >= 1)
            let report = try await phone.getReport().ok.body.html
            let html = try await String(collecting: report, upTo: 16 << 20)
            #expect(html.contains("<svg") && html.contains("</html>"))

            // The second user: only their own data, and the runner's cursor is refused.
            let theirs = otherMirror.snapshot
            let servedToThem = try await other.allSessions()
            #expect(Set(theirs.sessions.keys) == Set(servedToThem.keys))
            #expect(theirs.sessions[cyclistSession.sessionId] != nil)
            #expect(Set(theirs.sessions.keys).isDisjoint(with: mirror.sessions.keys))
            #expect(Set(theirs.workouts.keys).isDisjoint(with: mirror.workouts.keys))
            #expect(theirs.stats == (try await other.getStats().ok.body.json))
            #expect(theirs.stats != mirror.stats)
            #expect(theirs.planVersions.isEmpty) // the cyclist has no goal race: no plan, and not the runner's
            guard case .notFound(let noPlan) = try await other.getPlan() else {
                Issue.record("the cyclist was served a plan")
                return
            }
            #expect(try noPlan.body.json.error == "no_plan")
            let runnersCursor = try #require(phoneMirror.savedCursors.last)
            let refused = await #expect(throws: SyncError.self) {
                try await otherSync.changes(since: runnersCursor, size: 10)
            }
            #expect(refused?.code.rawValue == "invalid_cursor" && refused?.status == 400)
        }
    }

    static func fixture(_ path: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("WorkoutFilesTests/Fixtures/\(path)")
    }

    /// A workout record as its source sends a new version of it (docs/workout-records.md).
    static func workoutLine(_ w: WorkoutRecord, distance: Double, updatedAt: Int64) -> String {
        var fields = [
            #""id":"\#(w.workoutID.rawValue)""#, #""user_id":"\#(w.userID.rawValue)""#,
            #""source":"\#(w.source.rawValue)""#, #""updated_at":"\#(RFC3339.format(millis: updatedAt))""#,
            #""activity_type":"\#(w.activityType)""#, #""start":"\#(RFC3339.format(millis: w.startAt))""#,
            #""end":"\#(RFC3339.format(millis: w.endAt))""#, #""duration_s":\#(w.durationS)"#,
            #""distance_m":\#(distance)"#,
        ]
        if let energy = w.energyKcal { fields.append(#""energy_kcal":\#(energy)"#) }
        if let hr = w.avgHR { fields.append(#""avg_hr":\#(hr)"#) }
        if let zone = w.timeZone { fields.append(#""time_zone":"\#(zone)""#) }
        return "{" + fields.joined(separator: ",") + "}"
    }
}
