import ArgumentParser
import Foundation
import Pipeline
import Store

struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract:
            "Write one user's training report as a single self-contained HTML file (inline SVG and CSS, no script).",
        discussion: """
            From the stored data only (run `pipeline nightly` first): the Performance Management Chart (daily load, CTL, \
            ATL, TSB), planned weeks beside done once a plan exists, weekly volume by sport and intensity, a year calendar \
            of training days with the current and longest streaks, the 90-day power curve with CP/W′, VDOT trend and \
            Daniels paces, the plan's next two weeks and the stats as the apps get them. Dates are in the user's zone; the \
            window defaults to the 84 days ending today there. The same page is served at GET /v1/me/report. \
            Exit codes: 0 written; 1 failed; 64 usage (bad date); 66 unknown user.
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var logging: LogOptions
    @Option(help: "User id.") var user: String
    @Option(help: "First day, YYYY-MM-DD in the user's zone (default: 83 days before --to).") var from: String?
    @Option(help: "Last day, YYYY-MM-DD in the user's zone (default: today in the user's zone).") var to: String?
    @Option(help: "The HTML file to write ('-' for standard output).") var out: String

    func run() async throws {
        try await runReportingErrors {
            _ = logging.bootstrap(label: "pipeline.report")
            let store = try await store.open()
            let html: String
            do {
                html = try await ReportService(store: store).html(UserID(user), from: from, to: to)
            } catch ReportService.ReportError.unknownUser {
                throw CLIError.notFound("unknown user: \(user)")
            } catch let error as ReportService.ReportError {
                throw CLIError.usage(error.description)
            }
            if out == "-" { print(html, terminator: ""); return }
            let url = URL(fileURLWithPath: out)
            try Data(html.utf8).write(to: url, options: .atomic)
            FileHandle.standardError.write(
                Data("report for \(user) written to \(out) (\(html.utf8.count) bytes)\n".utf8))
        }
    }
}
