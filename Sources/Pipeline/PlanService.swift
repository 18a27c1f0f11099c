import CivilDate
import Foundation
import PlanEngine
import Store

/// Generates and adapts each runner's marathon plan from their profile and what they actually did, and keeps
/// every version in the store.
public struct PlanService: ClockedService {
    public var store: any PipelineStore
    /// The run time it dates what it writes by (`PipelineClock.now`).
    public var clock: PipelineClock
    var now: @Sendable () -> Int64 { clock.now }
    public init(store: any PipelineStore, clock: PipelineClock = .system) {
        self.store = store; self.clock = clock
    }

    public enum Outcome: String, Sendable, Codable {
        /// No goal race in the profile: nothing to plan.
        case noGoal = "no_goal"
        case generated, adapted
        /// The engine refused (error document stored, e.g. RACE_TOO_SOON).
        case refused
        /// The plan did not change.
        case unchanged
    }

    /// Workouts and sessions as the plan engine sees them: running (outdoor, treadmill) and cross-training — each
    /// activity once, however many sources recorded it (`ActivityDuplicates`): the baseline counts the primary, with
    /// its group's distance when it has none.
    public func completedRuns(_ user: User) async throws -> [CompletedRun] {
        let zone = TimeZone(identifier: user.timeZone) ?? TimeZone(identifier: "UTC")!
        let duplicates = try await ActivityDuplicates.resolve(store: store, user: user.id)
        var runs: [CompletedRun] = []
        for w in try await store.workouts(user: user.id, includeDeleted: false)
        where !duplicates.isLinked(workout: w.workoutID) {
            let sport = ActivityType(rawValue: w.activityType)?.planSport ?? w.activityType
            runs.append(
                CompletedRun(
                    start: Date(epochMillis: w.startAt),
                    timeZone: w.timeZone.flatMap(TimeZone.init(identifier:)) ?? zone,
                    distanceM: duplicates.distanceM(of: .workout(w.workoutID), own: w.distanceM) ?? 0,
                    durationS: w.durationS, avgHr: w.avgHR, sport: sport))
        }
        let count = try await store.sessionCount(user: user.id)
        for s in try await store.sessionSummaries(user: user.id, offset: 0, limit: max(count, 1))
        where !duplicates.isLinked(session: s.sessionID) {
            let sport = (s.machine.flatMap(MachineKind.init(rawValue:)) ?? .unknown).planSport
            runs.append(
                CompletedRun(
                    start: Date(epochMillis: s.startedAt), timeZone: zone,
                    distanceM: duplicates.distanceM(of: .session(s.sessionID), own: s.totalDistanceM) ?? 0,
                    durationS: s.durationS, sport: sport))
        }
        return runs.sorted { $0.date < $1.date }
    }

    /// The request the engine gets for this user today, or nil without a goal race.
    public func request(for user: User, runs: [CompletedRun], today: LocalDate) -> PlanRequest? {
        guard let goal = user.profile.goalRace else { return nil }
        let raceDate = goal.date
        let evidence = BaselineEstimator.evidence(from: runs, asOf: today)
        let days = user.profile.availableDays
        let runner = PlanRequest.Runner(
            availableDays: days, maxRunDays: user.profile.maxRunDays,
            longRunDay: user.profile.longRunDay,
            experience: user.profile.experience.flatMap { PlanRequest.Experience(rawValue: $0.rawValue) },
            baseline: evidence.baseline, fitness: evidence.fitness)
        return PlanRequest(
            generatedAt: today, timezone: user.timeZone, startDate: today.adding(days: 1),
            race: .init(date: raceDate, distanceM: goal.distanceM, goalTimeS: goal.goalTimeS), runner: runner)
    }

    /// Today's local date in the user's zone.
    public func today(_ user: User) -> LocalDate {
        LocalDate.today(
            in: TimeZone(identifier: user.timeZone) ?? TimeZone(identifier: "UTC")!, now: Date(epochMillis: now()))
    }

    /// What `refresh` may do to a plan that exists for the same goal race.
    public enum RefreshPolicy: Sendable {
        /// Adapt it to what was done (once per plan week).
        case generateOrAdapt
        /// Leave it: only a missing plan or a changed goal race gets a plan generated (the incremental nightly run;
        /// adaptation is the weekly job's).
        case generateOnly
    }

    /// Generates a plan when there is none (or the goal race changed), otherwise adapts the current one to what was
    /// done (with `.generateOrAdapt`); stores a new version only when the plan changed.
    @discardableResult
    public func refresh(_ userID: UserID, policy: RefreshPolicy = .generateOrAdapt) async throws -> Outcome {
        guard let user = try await store.user(userID) else { throw StatsService.StatsError.unknownUser }
        guard let goal = user.profile.goalRace else { return .noGoal }
        let today = today(user)
        let previous = try await store.latestPlan(user: userID).flatMap {
            try? PlanDocument.decode(Data($0.documentJSON.utf8))
        }
        let adapting = previous.map { $0.plan != nil && $0.request.race.date == goal.date } ?? false
        if adapting, policy == .generateOnly { return .unchanged }
        if adapting, let previous {
            // Plans are adapted week by week (the seed's WeeklyPlan): once per plan week, on its first run. Decided
            // before reading the runner's history, since most nightly runs fall mid-week.
            let last = previous.plan?.adaptation?.asOf ?? previous.request.generatedAt ?? previous.request.startDate
            if last >= today { return .unchanged }
            if let lastWeek = PlanEngine.weekIndex(of: last, in: previous),
                PlanEngine.weekIndex(of: today, in: previous) == lastWeek
            {
                return .unchanged
            }
        }
        let runs = try await completedRuns(user)
        guard let request = request(for: user, runs: runs, today: today) else { return .noGoal }
        let document: PlanDocument
        let outcome: Outcome
        if adapting, let previous {
            document = PlanAdapter.adapt(previous: previous, completed: runs, asOf: today)
            outcome = .adapted
        } else {
            document = PlanEngine.generate(request)
            outcome = document.error == nil ? .generated : .refused
        }
        if let previous, Self.sameSchedule(previous, document) { return .unchanged }
        // The screen's state (`error` for a refusal); a document with neither a plan nor an error is stored as ready.
        let state: PlanState =
            switch PlanScreen.of(document, today: today) {
            case .plan(let state): state
            case .noPlan: .ready
            }
        let json = try Self.documentJSON(document)
        _ = try await store.appendPlan(user: userID, generatedAt: now(), state: state, documentJSON: json)
        return outcome
    }

    /// `PlanDocument.jsonText()`: pretty, sorted keys, slashes unescaped, written by the package's JSON writer
    /// (`SortedJSON.prettyText`; `JSONEncoder` was 80 % of the nightly's plans phase). The bytes `JSONEncoder` wrote
    /// (`SortedJSONTests`: every plan of a generated data set, and random values, against `JSONEncoder`).
    static func documentJSON(_ document: PlanDocument) throws -> String { try document.jsonText() }

    /// Whether two plan documents prescribe the same thing: same refusal (with the same base plan), or the same weeks,
    /// paces and warnings
    /// (an adaptation that changes nothing only bumps its bookkeeping: version, history, `as_of`).
    static func sameSchedule(_ a: PlanDocument, _ b: PlanDocument) -> Bool {
        guard a.error == b.error, a.basePlan == b.basePlan else { return false }
        guard let p = a.plan, let q = b.plan else { return a.plan == nil && b.plan == nil }
        return p.allWeeks == q.allWeeks && p.paces == q.paces && p.warnings == q.warnings
            && p.trainingVdot == q.trainingVdot
    }

    /// The stored current plan, decoded.
    public func current(_ userID: UserID) async throws -> PlanDocument? {
        try await store.latestPlan(user: userID).flatMap { try PlanDocument.decode(Data($0.documentJSON.utf8)) }
    }
}
