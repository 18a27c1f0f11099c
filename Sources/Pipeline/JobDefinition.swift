import Foundation

/// The name a job runs and is recorded under (`job_runs.job`, the lock and log file of `jobs/run-job.sh`).
public struct JobName: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public var description: String { rawValue }
}

/// One scheduled job as an operator installs it: its name, when it runs (in the server's zone, UTC) and the
/// `pipeline` command it runs. `jobs/crontab` and `jobs/systemd/*` are checked against `JobDefinition.all` by a
/// test, and `pipeline jobs` lists the next runs from it.
public struct JobDefinition: Sendable {
    public var name: JobName
    public var schedule: CronSchedule
    /// The `pipeline` arguments; `$VAR` stands for a value from /etc/pipeline/pipeline.env.
    public var arguments: [String]
    public var summary: String

    public init(name: JobName, schedule: CronSchedule, arguments: [String], summary: String) {
        self.name = name; self.schedule = schedule; self.arguments = arguments; self.summary = summary
    }

    /// Every job of `jobs/`, in the order of the crontab.
    public static let all: [JobDefinition] = [
        JobDefinition(
            name: "nightly", schedule: try! CronSchedule("30 2 * * *"),
            arguments: ["nightly", "--inbox", "$PIPELINE_INBOX"],
            summary:
                "ingest the inbox, analyse new sessions, recompute the users they touch (incremental, from its watermark)"
        ),
        JobDefinition(
            name: "ingest-hourly", schedule: try! CronSchedule("5 * * * *"),
            arguments: ["ingest", "--inbox", "$PIPELINE_INBOX"],
            summary: "ingest the inbox only, so the apps' data is at most an hour behind"),
        JobDefinition(
            name: "upstream", schedule: try! CronSchedule("20 * * * *"),
            arguments: ["ingest", "--upstream", "$PIPELINE_UPSTREAM_URL"],
            summary: "pull HealthKit/Garmin workout records changed since the last watermark"),
        JobDefinition(
            name: JobName(rawValue: WeeklyPlanJob.jobName), schedule: try! CronSchedule("45 * * * *"),
            arguments: ["plans", "--due"],
            summary:
                "generate or adapt the plans of the runners whose Sunday 18:00 (their zone) passed since the last run"),
        JobDefinition(
            name: JobName(rawValue: DeletionRetryJob.jobName), schedule: try! CronSchedule("50 3 * * *"),
            arguments: ["deletions", "--retry-failed"],
            summary: "retry the GDPR deletions that failed and are still owed (deletion itself is immediate)"),
        JobDefinition(
            name: "quarantine-purge", schedule: try! CronSchedule("10 4 * * *"), arguments: ["quarantine", "purge"],
            summary:
                "remove quarantined records older than the retention ($PIPELINE_QUARANTINE_RETENTION_DAYS, 90 days)"),
    ]

    public static func named(_ name: String) -> JobDefinition? { all.first { $0.name.rawValue == name } }

    /// The next `count` runs after `date` in `zone` (UTC for the server's jobs).
    public func nextRuns(after date: Date, count: Int, in zone: TimeZone = TimeZone(identifier: "UTC")!) -> [Date] {
        var runs: [Date] = []
        var from = date
        while runs.count < count, let next = schedule.next(after: from, in: zone) {
            runs.append(next)
            from = next
        }
        return runs
    }

    /// The systemd `OnCalendar=` expression of the schedule, or nil when it restricts the day of month or month
    /// (none of the jobs does).
    public var onCalendar: String? {
        guard !schedule.dayOfMonthRestricted, schedule.months.count == 12 else { return nil }
        func list(_ values: Set<Int>, all: Int) -> String {
            values.count == all ? "*" : values.sorted().map { String(format: "%02d", $0) }.joined(separator: ",")
        }
        let names = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let days =
            schedule.dayOfWeekRestricted
            ? schedule.daysOfWeek.sorted().map { names[$0] }.joined(separator: ",") + " " : ""
        return "\(days)*-*-* \(list(schedule.hours, all: 24)):\(list(schedule.minutes, all: 60)):00"
    }

    /// The command line as `jobs/run-job.sh` runs it: `pipeline ARG…`.
    public var commandLine: [String] { ["pipeline"] + arguments }
}
