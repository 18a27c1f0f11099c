import Foundation
import Testing

@testable import Pipeline

/// `jobs/crontab` and `jobs/systemd/*` must say what `JobDefinition.all` says: same jobs, schedules and commands.
@Suite struct JobDefinitionTests {
    static let jobsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("jobs")

    /// `$VAR`, `${VAR}` and `"$VAR"` are the same word.
    static func words(_ text: some StringProtocol) -> [String] {
        text.split(separator: " ").map {
            $0.replacingOccurrences(of: "\"", with: "").replacingOccurrences(of: "${", with: "$")
                .replacingOccurrences(of: "}", with: "")
        }
    }

    /// (schedule, job name, command) of every `run-job.sh` line of the crontab.
    static func crontabEntries() throws -> [(CronSchedule, String, [String])] {
        let text = try String(contentsOf: jobsDirectory.appendingPathComponent("crontab"), encoding: .utf8)
        var entries: [(CronSchedule, String, [String])] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") && line.contains("run-job.sh") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            let schedule = try CronSchedule(fields.prefix(5).joined(separator: " "))
            let call = words(line[line.range(of: "run-job.sh ")!.upperBound...])
            #expect(call[1] == "--")
            entries.append((schedule, call[0], Array(call.dropFirst(2))))
        }
        return entries
    }

    @Test func theCrontabRunsExactlyTheDefinedJobs() throws {
        let entries = try Self.crontabEntries()
        #expect(entries.map(\.1) == JobDefinition.all.map(\.name.rawValue))
        for (schedule, name, command) in entries {
            let job = try #require(JobDefinition.named(name))
            #expect(schedule == job.schedule, "\(name): crontab says \(schedule)")
            #expect(command == job.commandLine, "\(name): crontab runs \(command)")
        }
    }

    @Test(arguments: JobDefinition.all.map(\.name.rawValue))
    func eachJobHasASystemdTimerAndServiceThatAgree(name: String) throws {
        let job = try #require(JobDefinition.named(name))
        let dir = Self.jobsDirectory.appendingPathComponent("systemd")
        let timer = try String(contentsOf: dir.appendingPathComponent("pipeline-\(name).timer"), encoding: .utf8)
        let service = try String(contentsOf: dir.appendingPathComponent("pipeline-\(name).service"), encoding: .utf8)
        func value(_ key: String, in text: String) -> String? {
            text.split(separator: "\n").first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
        }
        #expect(value("OnCalendar", in: timer) == job.onCalendar)
        let exec = try #require(value("ExecStart", in: service))
        #expect(Self.words(exec) == ["/opt/pipeline/jobs/run-job.sh", name, "--"] + job.commandLine)
        #expect(value("SuccessExitStatus", in: service) == "75 143")
    }

    @Test func systemdHoldsNoOtherJobs() throws {
        let files = try FileManager.default.contentsOfDirectory(
            atPath: Self.jobsDirectory.appendingPathComponent("systemd").path)
        let expected = JobDefinition.all.flatMap { ["pipeline-\($0.name).service", "pipeline-\($0.name).timer"] }
        // Templates (`name@.service`, e.g. the shared-run workers an operator starts N of) are services, not scheduled jobs.
        #expect(Set(files.filter { !$0.contains("@.") }) == Set(expected))
        #expect(files.filter { $0.contains("@.") } == ["pipeline-worker@.service"])
    }

    @Test(arguments: [
        ("30 2 * * *", "*-*-* 02:30:00"), ("5 * * * *", "*-*-* *:05:00"), ("0 18 * * 0", "Sun *-*-* 18:00:00"),
        ("0,30 6-7 * * mon-fri", "Mon,Tue,Wed,Thu,Fri *-*-* 06,07:00,30:00"),
    ])
    func onCalendarMirrorsTheSchedule(schedule: String, expected: String) throws {
        let job = JobDefinition(name: "x", schedule: try CronSchedule(schedule), arguments: [], summary: "")
        #expect(job.onCalendar == expected)
        #expect(
            JobDefinition(name: "x", schedule: try CronSchedule("0 0 1 * *"), arguments: [], summary: "").onCalendar
                == nil)
    }

    @Test func nextRunsFollowTheSchedule() throws {
        let after = ISO8601DateFormatter().date(from: "2026-11-22T02:31:00Z")!
        let nightly = try #require(JobDefinition.named("nightly"))
        #expect(
            nightly.nextRuns(after: after, count: 2).map { ISO8601DateFormatter().string(from: $0) }
                == ["2026-11-23T02:30:00Z", "2026-11-24T02:30:00Z"])
        let hourly = try #require(JobDefinition.named("ingest-hourly"))
        #expect(
            hourly.nextRuns(after: after, count: 3).map { ISO8601DateFormatter().string(from: $0) }
                == ["2026-11-22T03:05:00Z", "2026-11-22T04:05:00Z", "2026-11-22T05:05:00Z"])
    }
}
