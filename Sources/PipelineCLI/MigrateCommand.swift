import ArgumentParser
import Foundation
import Logging
import StorePostgres
import StoreSQLite

struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract:
            "Create or upgrade the database schema (SQLite file or postgres:// URL) and list the migrations applied.")

    @OptionGroup var store: StoreOptions

    func run() async throws {
        try await runReportingErrors {
            let target = store.resolved
            let applied: [String]
            if target.hasPrefix("postgres://") || target.hasPrefix("postgresql://") {
                let pg = try await PostgresStore.connect(url: target, logger: Logger(label: "pipeline.migrate"))
                applied = try await pg.appliedMigrations()
                await pg.shutdown()
            } else {
                applied = try await SQLiteStore(path: target).appliedMigrations()
            }
            for id in applied { print(id) }
        }
    }
}
