import Foundation
import Hummingbird
import HummingbirdTesting
import Store
import Testing

@testable import HTTPAPI
@testable import StoreSQLite

@Suite struct BatchUploadTests {
    @Test func answersInTheAppsExactShape() async throws {
        let h = try await APIHarness()
        try await h.withRouter { client in
            let body = batch([sessionJSON(id: sessionID(1)), sessionJSON(id: sessionID(2), duration: 0)])
            let response = try await client.send(.post, "/v1/sessions/batch_upload", h.auth(), json: body)
            #expect(response.status == .ok)
            let json = response.json
            #expect(Set(json.keys) == ["success_count", "duplicate_count", "failed_sessions", "updated_stats"])
            #expect(json["success_count"] as? Int == 1)
            #expect(json["duplicate_count"] as? Int == 0)
            let failed = try #require(json["failed_sessions"] as? [[String: Any]])
            #expect(failed.count == 1)
            #expect(failed[0]["session_id"] as? String == sessionID(2))
            #expect(failed[0]["error"] as? String == "validation_error")
            #expect(failed[0]["code"] as? String == "invalid_duration")
            let stats = try #require(json["updated_stats"] as? [String: Any])
            #expect(
                Set(stats.keys).isSuperset(of: [
                    "workout_total_count", "workout_total_energy", "workout_total_distance",
                    "workout_total_duration", "workout_streak", "last_workout_date",
                ]))
            #expect(stats["workout_total_count"] as? Int == 1)

            // The same batch again: the stored one is a duplicate (a success for the app).
            let again = try await client.send(.post, "/v1/sessions/batch_upload", h.auth(), json: body)
            #expect(again.json["success_count"] as? Int == 0)
            #expect(again.json["duplicate_count"] as? Int == 1)
        }
        // Same code path as the inbox: stored with source "api", the failure quarantined.
        let stored = try await h.store.session(user: APIHarness.alice, id: SessionID(uuidString: sessionID(1))!)
        #expect(stored?.source == "api")
        let quarantined = try await h.store.quarantined(reason: .rejected(.invalidDuration), offset: 0, limit: 10)
        #expect(!quarantined.isEmpty) // the same rejected payload twice is one row
        #expect(quarantined.allSatisfy { $0.source == "api" && $0.userID == APIHarness.alice })
        // updated_stats were stored too.
        #expect(try await h.store.userStats(APIHarness.alice)?.stats.workoutTotalCount == 1)
    }

    @Test func moreThan20SessionsIsRefusedAsAWhole() async throws {
        let h = try await APIHarness()
        try await h.withRouter { client in
            let body = batch((1...21).map { sessionJSON(id: sessionID($0)) })
            let response = try await client.send(.post, "/v1/sessions/batch_upload", h.auth(), json: body)
            #expect(response.status == .badRequest)
            #expect(response.errorCode == "batch_too_large")
            #expect((response.json["message"] as? String)?.contains("21") == true)
            let twenty = try await client.send(
                .post, "/v1/sessions/batch_upload", h.auth(),
                json: batch((1...20).map { sessionJSON(id: sessionID($0)) }))
            #expect(twenty.json["success_count"] as? Int == 20)
        }
        #expect(try await h.store.sessionCount(user: APIHarness.alice) == 20)
    }

    @Test func aBodyOverTheLimitIs413() async throws {
        let h = try await APIHarness { $0.maxBodyBytes = 2048 }
        try await h.withRouter { client in
            let big = batch((1...15).map { sessionJSON(id: sessionID($0)) })
            #expect(big.utf8.count > 2048)
            let response = try await client.send(.post, "/v1/sessions/batch_upload", h.auth(), json: big)
            #expect(response.status == .contentTooLarge)
            #expect(response.errorCode == "payload_too_large")
            // Without Content-Length the streamed bytes are counted.
            let patch = String(repeating: " ", count: 70_000) + "{}"
            let tooLongPatch = try await client.send(.patch, "/v1/me/stats", h.auth(), json: patch)
            #expect(tooLongPatch.status == .contentTooLarge)
        }
        #expect(try await h.store.sessionCount(user: APIHarness.alice) == 0)
    }

    @Test(arguments: [
        ("not json", "malformed_json"), (#"{"session": []}"#, "invalid_batch_shape"), ("[]", "invalid_batch_shape"),
    ])
    func malformedBatchesAre400(_ body: String, _ code: String) async throws {
        let h = try await APIHarness()
        try await h.withRouter { client in
            let response = try await client.send(.post, "/v1/sessions/batch_upload", h.auth(), json: body)
            #expect(response.status == .badRequest)
            #expect(response.errorCode == code)
        }
    }

    @Test func anotherUsersSessionIdNeverTouchesTheirSession() async throws {
        let h = try await APIHarness()
        try await h.withRouter { client in
            _ = try await client.send(
                .post, "/v1/sessions/batch_upload", h.auth(), json: batch([sessionJSON(id: sessionID(7))]))
            // Bob uploads a session with alice's session id and other content.
            let bob = try await client.send(
                .post, "/v1/sessions/batch_upload", h.auth(APIHarness.bob),
                json: batch([sessionJSON(id: sessionID(7), energy: 999)]))
            #expect(bob.json["success_count"] as? Int == 1)
            let aliceSessions = try await client.get("/v1/me/sessions", h.auth())
            let first = try #require((aliceSessions.json["sessions"] as? [[String: Any]])?.first)
            #expect(first["total_energy"] as? Double == 250)
        }
        #expect(
            try await h.store.session(user: APIHarness.alice, id: SessionID(uuidString: sessionID(7))!)?.totalEnergyKcal
                == 250)
    }

    @Test func uploadsAreRateLimitedPerUserWithRetryAfter() async throws {
        let h = try await APIHarness { $0.uploadRateLimit = RateLimit(requests: 2, window: .seconds(60)) }
        try await h.withRouter { client in
            let body = batch([sessionJSON()])
            #expect(try await client.send(.post, "/v1/sessions/batch_upload", h.auth(), json: body).status == .ok)
            h.clock.advance(seconds: 10)
            #expect(try await client.send(.post, "/v1/sessions/batch_upload", h.auth(), json: body).status == .ok)
            h.clock.advance(seconds: 5)
            let limited = try await client.send(.post, "/v1/sessions/batch_upload", h.auth(), json: body)
            #expect(limited.status == .tooManyRequests)
            #expect(limited.errorCode == "rate_limited")
            #expect(limited.headers[.retryAfter] == "45") // the first request leaves the window at +60 s
            // Another user has a window of their own.
            #expect(
                try await client.send(.post, "/v1/sessions/batch_upload", h.auth(APIHarness.bob), json: body).status
                    == .ok)
            h.clock.advance(seconds: 45)
            #expect(try await client.send(.post, "/v1/sessions/batch_upload", h.auth(), json: body).status == .ok)
            // Sliding, not fixed: the second request (at +10 s) is still in the window.
            let again = try await client.send(.post, "/v1/sessions/batch_upload", h.auth(), json: body)
            #expect(again.status == .tooManyRequests)
            #expect(again.headers[.retryAfter] == "10")
        }
    }

    @Test func slidingWindowNeverAllowsMoreThanTheLimitInAnyWindow() {
        let clock = TestWallClock(0)
        let limiter = SlidingWindowRateLimiter(
            limits: [.upload: RateLimit(requests: 3, window: .seconds(10))], now: { clock.now })
        var accepted: [Int64] = []
        for _ in 0..<200 {
            if case .allowed = limiter.acquire(user: APIHarness.alice, action: .upload) { accepted.append(clock.now) }
            clock.advance(seconds: 0.7)
        }
        for (i, t) in accepted.enumerated() {
            #expect(accepted[i...].prefix { $0 < t + 10_000 }.count <= 3)
        }
        #expect(accepted.count >= 3 * 13)
        // no limit configured
        #expect(limiter.acquire(user: APIHarness.bob, action: .recompute) == .allowed(remaining: .max))
    }
}

@Suite struct RecomputeTests {
    @Test func recomputeAnalysesNewSessionsAndJoinsPerUser() async throws {
        let h = try await APIHarness()
        try await h.withRouter { client in
            _ = try await client.send(.post, "/v1/sessions/batch_upload", h.auth(), json: batch(dailySessions(3)))
            let response = try await client.execute(uri: "/v1/me/recompute", method: .post, headers: h.auth())
            #expect(response.status == .ok)
            #expect(response.json["sessions_analysed"] as? Int == 3)
            #expect(response.json["workout_records_analysed"] as? Int == 0)
            #expect((response.json["stats"] as? [String: Any])?["workout_total_count"] as? Int == 3)
            let again = try await client.execute(uri: "/v1/me/recompute", method: .post, headers: h.auth())
            #expect(again.json["sessions_analysed"] as? Int == 0)
        }
        #expect(try await h.store.sessionMetrics(user: APIHarness.alice).count == 3)
        #expect(h.services.taskManager.runningTaskIDs.isEmpty)
    }

    /// Issue 43: a session whose stored recording cannot be read back (a damaged frame) is stepped over by the API's
    /// recompute and counted in `sessions_unreadable`; the other sessions are measured and the stats stored.
    @Test func recomputeStepsOverAnUnreadableRecording() async throws {
        let h = try await APIHarness()
        try await h.withRouter { client in
            _ = try await client.send(.post, "/v1/sessions/batch_upload", h.auth(), json: batch(dailySessions(3)))
            let damaged = try #require(
                try await h.store.sessionSummaries(user: APIHarness.alice, offset: 0, limit: 10).first)
            try await h.store.writer.write { db in
                try db.execute(
                    // The uploads carry no recording: give this one a stored frame whose header is damaged.
                    sql: "UPDATE sessions SET raw_blob = ?, raw_size = 1000 WHERE user_id = ? AND session_id = ?",
                    arguments: [
                        Data(StoredRecording.magic + [StoredRecording.formatZstd, 1, 2, 3, 4, 5, 6, 7, 8]),
                        damaged.userID.rawValue, damaged.sessionID.rawValue,
                    ])
            }
            let response = try await client.execute(uri: "/v1/me/recompute", method: .post, headers: h.auth())
            #expect(response.status == .ok)
            #expect(response.json["sessions_analysed"] as? Int == 2)
            #expect(response.json["sessions_unreadable"] as? Int == 1)
            #expect((response.json["stats"] as? [String: Any])?["workout_total_count"] as? Int == 3)
            let ids = Set(try await h.store.sessionMetrics(user: APIHarness.alice).map(\.sessionID))
            #expect(ids.count == 2 && !ids.contains(damaged.sessionID))
        }
    }

    /// A workout record (Apple Health) that has no metrics yet is measured by the API's recompute, as by `pipeline
    /// recompute` and the nightly (`UserPipeline`), and its load goes into the training-load series; the plan is
    /// left alone (the nightly and the weekly plan job own it), and so is the pending-recompute mark that stands for it.
    @Test func recomputeMeasuresWorkoutRecordsAndLeavesThePlan() async throws {
        let h = try await APIHarness()
        let alice = APIHarness.alice
        // WorkoutAnalyzerTests' runner: female, HR 52/188, LTHR 172; a goal race other than the stored plan's, so a plan
        // refresh would store a new version.
        try await h.store.upsertUser(
            User(
                id: alice, timeZone: "Europe/Berlin",
                profile: TrainingProfile(
                    sex: .female, maxHR: 188, restingHR: 52,
                    goalRace: GoalRace(date: LocalDate(iso: "2026-06-14")!, goalTimeS: 14_400),
                    lthr: 172),
                boundDeviceID: "phone-a", createdAt: 0))
        let plan = try await h.store.appendPlan(user: alice, generatedAt: 1, state: .ready, documentJSON: planDocument)
        // 45 min at 160 bpm, 9 km, summary only, on 23 December in Berlin (the day before the harness's today).
        let start = APIHarness.start - 26 * 3_600_000 // 2025-12-23T10:00:00Z
        _ = try await h.store.apply(
            IngestUnit(workouts: [
                WorkoutCandidate(
                    workout: WorkoutRecord(
                        userID: alice, workoutID: WorkoutID("hk-1"), source: .appleHealth, activityType: "running",
                        startAt: start, endAt: start + 2_700_000, durationS: 2700, distanceM: 9000, energyKcal: 550,
                        avgHR: 160, maxHR: 181, elevationGainM: nil, timeZone: "Europe/Berlin", samplesJSON: nil,
                        updatedAt: 5, deleted: false, contentHash: "h1"),
                    conflictQuarantine: QuarantineRecord(
                        userID: alice, source: "test", sourceKey: "w", recordID: "hk-1",
                        reasonCode: .rejected(.conflict),
                        message: "m", payload: [], receivedAt: 0, quarantinedAt: 0))
            ]))
        #expect(try await h.store.workoutMetrics(user: alice).isEmpty)
        #expect(try await h.store.usersPendingRecompute().contains(alice)) // marked with the record's arrival

        try await h.withRouter { client in
            let response = try await client.execute(uri: "/v1/me/recompute", method: .post, headers: h.auth())
            #expect(response.status == .ok)
            #expect(
                Set(response.json.keys) == [
                    "sessions_analysed", "sessions_unreadable", "workout_records_analysed", "stats",
                ])
            #expect(response.json["sessions_analysed"] as? Int == 0)
            #expect(response.json["sessions_unreadable"] as? Int == 0)
            #expect(response.json["workout_records_analysed"] as? Int == 1)
            // Measured once: the next recompute finds nothing new.
            let again = try await client.execute(uri: "/v1/me/recompute", method: .post, headers: h.auth())
            #expect(again.status == .ok)
            #expect(again.json["workout_records_analysed"] as? Int == 0)
        }
        let metrics = try #require(try await h.store.workoutMetrics(user: alice).first)
        #expect(metrics.workoutID == WorkoutID("hk-1") && metrics.workoutUpdatedAt == 5 && metrics.basis == .summary)
        #expect(metrics.localDate == LocalDate(iso: "2025-12-23"))
        // HRSS of 45 min at 160 (TRIMP 115.7569127, computed by hand in WorkoutAnalyzerTests).
        let hrss = 58.251780395131945
        #expect(abs((metrics.tss ?? 0) - hrss) < 1e-9)
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(metrics.metricsJSON.utf8)) as? [String: Any])
        #expect((document["metrics"] as? [String: Any])?["avg_pace_s_per_km"] as? Double == 300)
        // The training load has it: that day's load is the record's HRSS, and the series runs through today.
        let load = try await h.store.trainingLoad(user: alice, from: nil, to: nil)
        #expect(load.map(\.date.iso) == ["2025-12-23", "2025-12-24"])
        #expect(abs((load.first?.dailyLoad ?? 0) - hrss) < 1e-9)
        #expect(load.last?.dailyLoad == 0)
        // The plan is untouched: the same single version, generated at 1.
        let versions = try await h.store.planVersions(user: alice)
        #expect(versions.map(\.version) == [plan])
        #expect(try await h.store.latestPlan(user: alice)?.generatedAt == 1)
        // The mark stays for the nightly (it also stands for the plan refresh that was not done here).
        #expect(try await h.store.usersPendingRecompute().contains(alice))
    }

    @Test func concurrentRecomputesAllSucceed() async throws {
        let h = try await APIHarness { $0.recomputeRateLimit = RateLimit(requests: 100, window: .seconds(60)) }
        try await h.withRouter { client in
            _ = try await client.send(.post, "/v1/sessions/batch_upload", h.auth(), json: batch(dailySessions(4)))
            let statuses = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        let r = try await client.execute(uri: "/v1/me/recompute", method: .post, headers: h.auth())
                        return (r.status.code, r.json["sessions_analysed"] as? Int ?? -1)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0.0 == 200 })
            // Joined runs report the same analysis; later runs find nothing new. Never analysed twice:
            #expect(statuses.map(\.1).filter { $0 > 0 }.allSatisfy { $0 == 4 })
        }
        #expect(try await h.store.sessionMetrics(user: APIHarness.alice).count == 4)
    }

    @Test func recomputeIsRateLimited() async throws {
        let h = try await APIHarness { $0.recomputeRateLimit = RateLimit(requests: 1, window: .seconds(30)) }
        try await h.withRouter { client in
            #expect(try await client.execute(uri: "/v1/me/recompute", method: .post, headers: h.auth()).status == .ok)
            let limited = try await client.execute(uri: "/v1/me/recompute", method: .post, headers: h.auth())
            #expect(limited.status == .tooManyRequests)
            #expect(limited.headers[.retryAfter] == "30")
        }
    }

    @Test func afterShutdownRecomputeAnswers503() async throws {
        let h = try await APIHarness()
        await h.services.taskManager.shutdown()
        try await h.withRouter { client in
            let response = try await client.execute(uri: "/v1/me/recompute", method: .post, headers: h.auth())
            #expect(response.status == .serviceUnavailable)
            #expect(response.errorCode == "unavailable")
        }
    }
}
