/// 0011: `pipeline_secrets`, keys the store generates for itself and keeps (`PipelineStore.secret(named:)`): the key of
/// the keyed hashes of user ids when the operator sets none (`IdentifierHasher`). The twin of
/// `StorePostgres/Migrations/Migration0011Secrets.swift`.
enum Migration0011Secrets {
    static let identifier = "0011_secrets"
    static let sql = """
        CREATE TABLE pipeline_secrets (
            name TEXT PRIMARY KEY,
            value BLOB NOT NULL,
            created_at_ms INTEGER NOT NULL
        );
        """
}
