import ArgumentParser
import Foundation
import Pipeline
import Store

struct QuarantineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quarantine",
        abstract: "Inspect rejected inputs kept with their reason and original payload.",
        subcommands: [List.self, Show.self, Retry.self, Purge.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List quarantined records, oldest first.")
        @OptionGroup var store: StoreOptions
        @Option(help: "Only this reason code (e.g. invalid_duration).") var reason: String?
        @Option(help: "At most this many records.") var limit = 50
        @Option(help: "Skip this many records.") var offset = 0
        @Flag(help: "One JSON object per line.") var json = false

        func run() async throws {
            try await runReportingErrors {
                let store = try await store.open()
                let records = try await store.quarantined(
                    reason: reason.map(QuarantineReason.init(rawValue:)), offset: offset, limit: limit)
                if json {
                    for r in records { try printLine(QuarantineView(r)) }
                } else {
                    let counts = try await store.quarantineCountsByReason()
                    print(
                        "quarantine: "
                            + counts.sorted { $0.key < $1.key }.map { "\($0.key.rawValue) \($0.value)" }.joined(
                                separator: ", "))
                    for r in records {
                        // Ids, file names and messages come from the inputs: printed escaped (`TerminalText`).
                        let e = TerminalText.escaped
                        print(
                            "#\(r.id ?? 0) \(e(r.reasonCode.rawValue)) [\(e(r.source)) \(e(r.sourceKey))] \(e(r.recordID ?? "-")): \(e(r.message)) (\(r.payload.count) bytes)"
                        )
                    }
                }
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Print one quarantined record with its payload, as JSON.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The record's id (from `quarantine list`).") var id: Int64

        func run() async throws {
            try await runReportingErrors {
                let store = try await store.open()
                guard let record = try await store.quarantineRecord(id: id) else {
                    throw CLIError.notFound("no quarantine record \(id)")
                }
                var view = QuarantineView(record)
                view.payload = String(decoding: record.payload, as: UTF8.self)
                try printJSON(view)
            }
        }
    }
}

extension QuarantineCommand {
    struct Retry: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "retry",
            abstract: "Replay quarantined records after a fix; what now passes is stored and leaves the quarantine.",
            discussion: "Exits 0 even when records still fail (they stay, with their reason).")
        @OptionGroup var store: StoreOptions
        @Option(help: "Only this record.") var id: Int64?
        @Option(help: "Only records with this reason code.") var reason: String?
        @Flag(help: "One JSON object per record.") var json = false

        func run() async throws {
            try await runReportingErrors {
                let store = try await store.open()
                let results = try await QuarantineService(store: store).retry(
                    reason: reason.map(QuarantineReason.init(rawValue:)), id: id)
                if json {
                    for r in results { try printLine(r) }
                } else {
                    var tally: [String: Int] = [:]
                    for r in results { tally[r.outcome.rawValue, default: 0] += 1 }
                    print(
                        "retried \(results.count): "
                            + tally.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
                }
            }
        }
    }
}

extension QuarantineCommand {
    struct Purge: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "purge",
            abstract: "Remove quarantined records older than the retention (what is kept of rejected inputs ages out).",
            discussion: """
                Retention in days from --older-than-days, else $PIPELINE_QUARANTINE_RETENTION_DAYS, else 90. Run daily \
                (jobs/crontab). Prints how many records went; exit 0 also when none did.
                """)
        @OptionGroup var store: StoreOptions
        @Option(name: .customLong("older-than-days"), help: "Remove records quarantined more than this many days ago.")
        var days: Int?
        @Flag(help: "Print the result as one JSON object.") var json = false

        func validate() throws {
            if let days, days < 0 { throw ValidationError("--older-than-days must be 0 or more") }
        }

        func run() async throws {
            try await runReportingErrors {
                let environment = ProcessInfo.processInfo.environment["PIPELINE_QUARANTINE_RETENTION_DAYS"].flatMap(
                    Int.init)
                let retention = days ?? environment ?? 90
                let store = try await store.open()
                let before = Date().epochMillis - Int64(retention) * 86_400_000
                let removed = try await store.purgeQuarantine(before: before)
                if json {
                    try printJSON(["removed": removed, "retention_days": retention])
                } else {
                    print("quarantine: \(removed) records older than \(retention) days removed")
                }
            }
        }
    }
}

struct QuarantineView: Encodable {
    var id: Int64?
    var userID: String?
    var source: String
    var sourceKey: String
    var recordID: String?
    var reason: String
    var message: String
    var payloadBytes: Int
    var payload: String?
    var receivedAt: String
    init(_ r: QuarantineRecord) {
        id = r.id; userID = r.userID?.rawValue; source = r.source; sourceKey = r.sourceKey; recordID = r.recordID
        reason = r.reasonCode.rawValue; message = r.message; payloadBytes = r.payload.count
        receivedAt = ISO8601DateFormatter().string(from: Date(epochMillis: r.receivedAt))
    }
    enum CodingKeys: String, CodingKey {
        case id, userID = "user_id", source, sourceKey = "source_key", recordID = "record_id", reason, message
        case payloadBytes = "payload_bytes", payload, receivedAt = "received_at"
    }
}

/// One JSON line: compact, keys sorted, `/` unescaped (`SortedJSON.encoderText(escapingSlashes: false)`, the bytes
/// `JSONEncoder` wrote with those options).
func printLine(_ value: some Encodable) throws {
    print(try SortedJSONEncoder.encode(value, numbers: .asEncoded).encoderText(escapingSlashes: false))
}
