/// 0017: PostgreSQL logs stored and measured sessions once per statement instead of once per row. SQLite's triggers
/// run in the writing process, per row, at no round trip's cost: nothing to change there, the migration keeps both
/// stores' lists alike.
///
/// PostgreSQL: the change log of stored and measured sessions (0012) written once per statement instead of once per
/// row. The nightly inserts sessions and their metrics in multi-row statements (64 and more rows each); 0012's row
/// triggers ran a PL/pgSQL call and a one-row insert into `sync_log` for each of them, twice per session. These
/// triggers read the statement's new rows (a transition table) and log them in one `INSERT … SELECT`, in the order the
/// statement inserted them, with the same `xid` and `seq` as before (one `nextval` per row). The update trigger of
/// `session_metrics` (logged only when the figures change) and the triggers of the other tables stay per row.
package enum Migration0017SyncLogStatementTriggers: StoreMigration {
    package static let identifier = "0017_sync_log_statement_triggers"

    // MARK: SQLite

    package static let sqlite = "SELECT 1;"

    // MARK: PostgreSQL

    package static let postgres: [String] = [
        """
        CREATE FUNCTION pipeline_sync_sessions() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO sync_log (user_id, kind, item_id, xid, seq)
            SELECT user_id, 'session', session_id, pg_current_xact_id(), nextval('sync_seq') FROM new_rows
            ON CONFLICT (user_id, kind, item_id) DO UPDATE SET xid = excluded.xid, seq = excluded.seq;
            RETURN NULL;
        END
        $$
        """,
        "DROP TRIGGER sessions_sync ON sessions",
        "DROP TRIGGER session_metrics_sync ON session_metrics",
        """
        CREATE TRIGGER sessions_sync AFTER INSERT ON sessions REFERENCING NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION pipeline_sync_sessions()
        """,
        """
        CREATE TRIGGER session_metrics_sync AFTER INSERT ON session_metrics REFERENCING NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION pipeline_sync_sessions()
        """,
    ]
}
