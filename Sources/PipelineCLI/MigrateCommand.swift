import ArgumentParser
import Foundation
import StoreSQLite

struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Create or upgrade the database schema and list the migrations applied.")

    @OptionGroup var store: StoreOptions

    func run() async throws {
        try await runReportingErrors {
            let target = store.resolved
            let sqlite = try SQLiteStore(path: target)
            for id in try await sqlite.appliedMigrations() { print(id) }
        }
    }
}
