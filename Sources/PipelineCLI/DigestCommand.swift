import ArgumentParser
import Foundation
import Pipeline
import Store

/// `pipeline digest`: the content digest of the store, to compare two runs (one worker against several, a rerun).
struct DigestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "digest",
        abstract: "Print a SHA-256 of the store's domain rows (not job runs, not the times the pipeline did things).",
        discussion: """
            Two databases that hold the same users, sessions, metrics, stats, plans and quarantine print the same digest, \
            (on one backend), whichever number of workers produced them. Exit codes: 0 printed; 1 failed; 64 usage.
            """)

    @OptionGroup var store: StoreOptions
    @Flag(help: "Also print the row count of every table, as JSON.") var counts = false

    func run() async throws {
        try await runReportingErrors {
            let store = try await store.open()
            print(try await store.contentDigest())
            if counts { try printJSON(try await store.tableCounts()) }
        }
    }
}
