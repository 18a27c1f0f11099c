/// 0011: `pipeline_secrets`, keys the store generates for itself and keeps (`PipelineStore.secret(named:)`): the key of
/// the keyed hashes of user ids when the operator sets none (`IdentifierHasher`).
package enum Migration0011Secrets: StoreMigration {
    package static let identifier = "0011_secrets"

    // MARK: SQLite

    package static let sqlite = """
        CREATE TABLE pipeline_secrets (
            name TEXT PRIMARY KEY,
            value BLOB NOT NULL,
            created_at_ms INTEGER NOT NULL
        );
        """

    // MARK: PostgreSQL

    package static let postgres: [String] = [
        """
        CREATE TABLE pipeline_secrets (
            name TEXT PRIMARY KEY,
            value BYTEA NOT NULL,
            created_at_ms BIGINT NOT NULL
        )
        """
    ]
}
