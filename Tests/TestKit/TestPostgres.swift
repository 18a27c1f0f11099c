import Foundation

/// The PostgreSQL server the store suites run against (`scripts/with-postgres.sh` starts one), read once.
///
/// Without `PIPELINE_TEST_POSTGRES_URL` the suites run on SQLite alone — unless `PIPELINE_TEST_REQUIRE_POSTGRES=1`
/// (which `scripts/with-postgres.sh`, and so the README's test command and CI, set): then every PostgreSQL case still
/// runs and fails, naming the missing variable, rather than dropping out of the run in silence (issue 41).
public enum TestPostgres {
    /// The admin URL (`postgres://user@host:port/db`, a user allowed to create databases), if any.
    public static let url: String? = ProcessInfo.processInfo.environment["PIPELINE_TEST_POSTGRES_URL"].flatMap {
        $0.isEmpty ? nil : $0
    }

    /// Whether the run must include the PostgreSQL cases.
    public static let required = ProcessInfo.processInfo.environment["PIPELINE_TEST_REQUIRE_POSTGRES"] == "1"

    /// Whether the PostgreSQL cases are in the run.
    public static var included: Bool { url != nil || required }

    /// The URL, or an error that says what is missing.
    public static func requireURL() throws -> String {
        guard let url else { throw Missing() }
        return url
    }

    public struct Missing: Error, CustomStringConvertible {
        public var description: String {
            "PIPELINE_TEST_POSTGRES_URL is not set (PIPELINE_TEST_REQUIRE_POSTGRES=1 asks for the PostgreSQL cases)"
        }
    }
}
