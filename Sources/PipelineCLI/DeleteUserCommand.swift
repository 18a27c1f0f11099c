import ArgumentParser
import Foundation
import Pipeline
import Store

struct DeleteUserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete-user",
        abstract:
            "GDPR hard delete: every session, workout, metric, stat, plan and quarantined record of a user, and the user.",
        discussion: """
            One transaction; an audit row keeps only the keyed hash of the user id (HMAC-SHA256), the times and the status. A \
            running API's caches drop the user's entries within their TTL. Exits 66 for an unknown user, unless --purge: \
            then every row naming the id is deleted even when the user row is gone (what an earlier deletion left behind).
            """)

    @OptionGroup var store: StoreOptions
    @Option(help: "User id.") var user: String
    @Flag(help: "Print the audit row as JSON.") var json = false
    @Flag(help: "Purge by id: delete every row naming the id even when the user row is gone (no exit 66).") var purge =
        false

    func run() async throws {
        try await runReportingErrors {
            let store = try await store.open()
            let id = UserID(user)
            let before = try await store.footprint(user: id)
            guard before.users == 1 || purge else { throw CLIError.notFound("unknown user: \(user)") }
            let audit =
                purge ? try await UserDeletion(store: store).purge(id) : try await UserDeletion(store: store).delete(id)
            let after = try await store.footprint(user: id)
            guard after.total == 0 else { throw CLIError.failed("rows of the user remain after deletion: \(after)") }
            if json {
                try printJSON(DeletionView(userSHA256: audit.userHash, status: audit.status, rowsDeleted: before.total))
            } else {
                print(
                    "deleted \(before.total) rows (\(before.sessions) sessions, \(before.workouts) workouts, \(before.plans) plan versions, "
                        + "\(before.quarantine) quarantined records); audit: keyed hash \(audit.userHash)")
            }
        }
    }
}

struct DeletionView: Encodable {
    var userSHA256: String
    var status: DeletionStatus
    var rowsDeleted: Int
    enum CodingKeys: String, CodingKey { case userSHA256 = "user_sha256", status, rowsDeleted = "rows_deleted" }
}
