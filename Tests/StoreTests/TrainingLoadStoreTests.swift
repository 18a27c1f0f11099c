import Foundation
import Store
import Testing

/// Migration 0004 on every backend: workout-record metrics follow the record's version and its tombstone; the
/// training-load series is replaced from a day on, read back whole or by range, and goes with the user.
@Suite struct TrainingLoadStoreTests {
    static func day(_ date: String, load: Double, ctl: Double, ramp: Double? = nil) -> TrainingLoadRecord {
        TrainingLoadRecord(
            userID: Fixtures.alice, date: LocalDate(iso: date)!, dailyLoad: load, ctl: ctl, atl: ctl / 2, tsb: -1.5,
            ramp7d: ramp,
            acwrRolling: nil, acwrUncoupled: nil, acwrEwma: 0.25, convention: "exp",
            stateJSON: "{\"date\":\"\(date)\"}", computedAt: 7)
    }

    static func metrics(_ w: WorkoutRecord, tss: Double?) -> WorkoutMetricsRecord {
        WorkoutMetricsRecord(
            userID: w.userID, workoutID: w.workoutID, workoutUpdatedAt: w.updatedAt,
            localDate: LocalDate(iso: "2025-12-24")!,
            activityType: w.activityType, basis: .summary, durationS: w.durationS, distanceM: w.distanceM,
            energyKcal: w.energyKcal, avgHRBpm: w.avgHR, tss: tss, metricsJSON: "{}", computedAt: 3)
    }

    @Test(arguments: Backend.available) func workoutMetricsFollowTheRecordsVersionAndTombstone(_ backend: Backend)
        async throws
    {
        try await withTestStore(backend) { t in
            try await t.store.upsertUser(Fixtures.user())
            func apply(_ w: WorkoutRecord) async throws {
                _ = try await t.store.apply(
                    IngestUnit(workouts: [WorkoutCandidate(workout: w, conflictQuarantine: Fixtures.quarantine())]))
            }
            let v1 = Fixtures.workout(version: 100)
            try await apply(v1)
            #expect(try await t.store.workoutsToMeasure(limit: 10).map(\.updatedAt) == [100])
            let m1 = Self.metrics(v1, tss: 80.5)
            try await t.store.putWorkoutMetrics(m1)
            #expect(try await t.store.workoutsToMeasure(limit: 10).isEmpty)
            #expect(try await t.store.workoutMetrics(user: Fixtures.alice) == [m1])

            // A newer version: the old figures no longer count and the record is to be measured again.
            let v2 = Fixtures.workout(version: 200, distance: 9000)
            try await apply(v2)
            #expect(try await t.store.workoutMetrics(user: Fixtures.alice).isEmpty)
            #expect(try await t.store.workoutsToMeasure(limit: 10).map(\.distanceM) == [9000])
            let m2 = Self.metrics(v2, tss: 70)
            try await t.store.putWorkoutMetrics(m2)
            #expect(try await t.store.workoutMetrics(user: Fixtures.alice) == [m2])
            #expect(try await t.store.pruneWorkoutMetrics() == 0)

            // A tombstone: no figures, nothing to measure, and pruning leaves no row behind on either backend.
            try await apply(Fixtures.workout(version: 300, deleted: true))
            #expect(try await t.store.workoutMetrics(user: Fixtures.alice).isEmpty)
            #expect(try await t.store.workoutsToMeasure(limit: 10).isEmpty)
            _ = try await t.store.pruneWorkoutMetrics()
            #expect(try await t.store.footprint(user: Fixtures.alice).workoutMetrics == 0)
        }
    }

    @Test(arguments: Backend.available) func pruningOneUsersWorkoutMetricsLeavesOtherUsersRows(_ backend: Backend)
        async throws
    {
        try await withTestStore(backend) { t in
            let bob = UserID("bob")
            try await t.store.upsertUser(Fixtures.user())
            try await t.store.upsertUser(Fixtures.user(bob))
            // Each user has figures of a version that a newer one (not yet measured) has replaced: stored after the newer
            // version arrived, as a measurement racing an ingest does (on SQLite a new version's row replaces the old one
            // and its figures cascade away, so they are put afterwards to leave a stale row on both backends). The same
            // workout id for both users, so only the user filter tells the rows apart.
            for user in [Fixtures.alice, bob] {
                func apply(_ w: WorkoutRecord) async throws {
                    _ = try await t.store.apply(
                        IngestUnit(workouts: [
                            WorkoutCandidate(workout: w, conflictQuarantine: Fixtures.quarantine(user: user))
                        ]))
                }
                let v1 = Fixtures.workout(version: 100, user: user)
                try await apply(v1)
                try await apply(Fixtures.workout(version: 200, distance: 9000, user: user))
                try await t.store.putWorkoutMetrics(Self.metrics(v1, tss: 80.5))
            }
            #expect(try await t.store.footprint(user: Fixtures.alice).workoutMetrics == 1)
            #expect(try await t.store.footprint(user: bob).workoutMetrics == 1)

            #expect(try await t.store.pruneWorkoutMetrics(user: Fixtures.alice) == 1)
            #expect(try await t.store.footprint(user: Fixtures.alice).workoutMetrics == 0)
            #expect(try await t.store.footprint(user: bob).workoutMetrics == 1)
            #expect(try await t.store.pruneWorkoutMetrics(user: Fixtures.alice) == 0)
            // The all-users prune still takes the rest.
            #expect(try await t.store.pruneWorkoutMetrics() == 1)
            #expect(try await t.store.footprint(user: bob).workoutMetrics == 0)
        }
    }

    @Test(arguments: Backend.available) func trainingLoadIsReplacedFromADayOnAndReadByRange(_ backend: Backend)
        async throws
    {
        try await withTestStore(backend) { t in
            try await t.store.upsertUser(Fixtures.user())
            try await t.store.upsertUser(Fixtures.user(UserID("bob")))
            let days = [
                Self.day("2024-02-28", load: 50, ctl: 1.2), Self.day("2024-02-29", load: 0, ctl: 1.1, ramp: 0.5),
                Self.day("2024-03-01", load: 20.25, ctl: 1.5),
            ]
            try await t.store.replaceTrainingLoad(user: Fixtures.alice, from: LocalDate(iso: "2024-02-28")!, days: days)
            #expect(try await t.store.trainingLoad(user: Fixtures.alice, from: nil, to: nil) == days)
            #expect(
                try await t.store.trainingLoad(
                    user: Fixtures.alice, from: LocalDate(iso: "2024-02-29")!, to: LocalDate(iso: "2024-02-29")!) == [
                        days[1]
                    ])
            #expect(
                try await t.store.trainingLoad(user: Fixtures.alice, from: LocalDate(iso: "2024-02-29")!, to: nil)
                    == Array(days[1...]))
            #expect(try await t.store.latestTrainingLoad(user: Fixtures.alice, before: nil) == days[2])
            #expect(
                try await t.store.latestTrainingLoad(user: Fixtures.alice, before: LocalDate(iso: "2024-03-01")!)
                    == days[1])
            #expect(
                try await t.store.latestTrainingLoad(user: Fixtures.alice, before: LocalDate(iso: "2024-02-28")!) == nil
            )
            #expect(try await t.store.trainingLoad(user: UserID("bob"), from: nil, to: nil).isEmpty)

            // From the 29th on: the 28th stays, later days are replaced (and one more appended).
            let redo = [
                Self.day("2024-02-29", load: 80, ctl: 3), Self.day("2024-03-01", load: 0, ctl: 2.9),
                Self.day("2024-03-02", load: 0, ctl: 2.8),
            ]
            try await t.store.replaceTrainingLoad(user: Fixtures.alice, from: LocalDate(iso: "2024-02-29")!, days: redo)
            #expect(try await t.store.trainingLoad(user: Fixtures.alice, from: nil, to: nil) == [days[0]] + redo)
            // Removing days only.
            try await t.store.replaceTrainingLoad(user: Fixtures.alice, from: LocalDate(iso: "2024-03-02")!, days: [])
            #expect(
                try await t.store.trainingLoad(user: Fixtures.alice, from: nil, to: nil).map(\.date.iso) == [
                    "2024-02-28", "2024-02-29", "2024-03-01",
                ])
            // A day before the start is refused, and nothing changes.
            await #expect(throws: StoreError.self) {
                try await t.store.replaceTrainingLoad(
                    user: Fixtures.alice, from: LocalDate(iso: "2024-03-01")!,
                    days: [Self.day("2024-02-01", load: 1, ctl: 1)])
            }
            #expect(try await t.store.footprint(user: Fixtures.alice).trainingLoad == 3)
        }
    }

    /// A `local_date` that is not a calendar day (the columns' checks let `2024-02-30` through) is read as the error
    /// `InvalidStoredDate` naming the column and the text — never a crash, another day or a skipped row.
    @Test(arguments: Backend.available) func anImpossibleStoredDayIsASpecificError(_ backend: Backend) async throws {
        try await withTestStore(backend) { t in
            try await t.store.upsertUser(Fixtures.user())
            let w = Fixtures.workout(version: 1)
            _ = try await t.store.apply(
                IngestUnit(workouts: [WorkoutCandidate(workout: w, conflictQuarantine: Fixtures.quarantine())]))
            try await t.store.putWorkoutMetrics(Self.metrics(w, tss: 10))
            let day = Self.day("2024-02-28", load: 10, ctl: 0.2)
            try await t.store.replaceTrainingLoad(user: Fixtures.alice, from: day.date, days: [day])
            #expect(try await t.store.trainingLoad(user: Fixtures.alice, from: nil, to: nil) == [day])
            #expect(try await t.store.loadEntries(user: Fixtures.alice).map(\.localDate.iso) == ["2025-12-24"])

            try await t.executeRaw("UPDATE training_load SET local_date = '2024-02-30'")
            let badDay = InvalidStoredDate(column: "training_load.local_date", text: "2024-02-30")
            await #expect(throws: badDay) { try await t.store.trainingLoad(user: Fixtures.alice, from: nil, to: nil) }
            await #expect(throws: badDay) { try await t.store.latestTrainingLoad(user: Fixtures.alice, before: nil) }

            try await t.executeRaw("UPDATE workout_metrics SET local_date = '2025-13-01'")
            await #expect(throws: InvalidStoredDate(column: "workout_metrics.local_date", text: "2025-13-01")) {
                try await t.store.workoutMetrics(user: Fixtures.alice)
            }
            await #expect(throws: InvalidStoredDate(column: "local_date", text: "2025-13-01")) {
                try await t.store.loadEntries(user: Fixtures.alice)
            }
        }
    }

    @Test(arguments: Backend.available) func deletingTheUserDeletesTheirSeriesAndWorkoutMetrics(_ backend: Backend)
        async throws
    {
        try await withTestStore(backend) { t in
            try await t.store.upsertUser(Fixtures.user())
            let w = Fixtures.workout(version: 1)
            _ = try await t.store.apply(
                IngestUnit(workouts: [WorkoutCandidate(workout: w, conflictQuarantine: Fixtures.quarantine())]))
            // The digest covers both new tables: each write changes it.
            let digest0 = try await t.store.contentDigest()
            try await t.store.putWorkoutMetrics(Self.metrics(w, tss: 10))
            let digest1 = try await t.store.contentDigest()
            try await t.store.replaceTrainingLoad(
                user: Fixtures.alice, from: LocalDate(iso: "2025-12-24")!,
                days: [Self.day("2025-12-24", load: 10, ctl: 0.2)])
            #expect(digest1 != digest0)
            #expect(try await t.store.contentDigest() != digest1)
            let before = try await t.store.footprint(user: Fixtures.alice)
            #expect(before.workoutMetrics == 1 && before.trainingLoad == 1)
            _ = try await t.store.deleteUser(
                Fixtures.alice, userHash: String(repeating: "d", count: 64), requestedAt: 1, completedAt: 2)
            #expect(try await t.store.footprint(user: Fixtures.alice).total == 0)
            #expect(try await t.textCellsEqual(to: "alice") == 0)
        }
    }
}
