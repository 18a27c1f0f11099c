/// 0011 (the twin of `StoreSQLite/Migrations/Migration0011Secrets.swift`; see there): `pipeline_secrets`.
enum Migration0011Secrets {
    static let identifier = "0011_secrets"
    static let statements: [String] = [
        """
        CREATE TABLE pipeline_secrets (
            name TEXT PRIMARY KEY,
            value BYTEA NOT NULL,
            created_at_ms BIGINT NOT NULL
        )
        """
    ]
}
