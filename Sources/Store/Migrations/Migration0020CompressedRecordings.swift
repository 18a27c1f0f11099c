/// 0020: session recordings are stored compressed (zstd behind a 5-byte header, `Store/StoredRecording.swift`; issue
/// 43), and the uploaded size of each is kept in `raw_size`, which the storage quota sums (the quota counts what the
/// user uploaded, not what the store made of it). Rows stored before keep their uploaded bytes, which read as they are
/// (no header); their `raw_size` is their length, set by the copy.
///
/// `raw_size` must sit before `raw_blob`: a column after a recording is read by walking the recording's overflow pages
/// (see 0018), and the quota reads `raw_size` of all of a user's sessions before each upload. SQLite adds columns at
/// the end only, so the table is rebuilt as 0018 rebuilt it (new table, copy, drop, rename; foreign-key checks deferred
/// to the end). No trigger is on `sessions` since 0019; its two indexes are made again.
///
/// PostgreSQL adds the column (rows stored before have none and count their stored length, which is the uploaded one),
/// and `SET STORAGE EXTERNAL`: a frame does not compress again, so TOAST keeps `raw_blob` out of line without trying
/// LZ4 (0007) on it first — the server's CPU is not spent on a second compression that would be thrown away. It applies
/// to rows stored from now on; older rows keep what TOAST made of them and read as they are.
package enum Migration0020CompressedRecordings: StoreMigration {
    package static let identifier = "0020_compressed_recordings"

    // MARK: SQLite

    /// The script rebuilds a table: foreign keys are checked at its end.
    package static let sqliteRebuildsTable = true
    /// The columns copied: those of 0018's table.
    static let copiedColumns = Migration0018LargeColumnsLast.sessionColumns
    package static let sqlite =
        """
        CREATE TABLE sessions_rebuilt (
            \(MigrationColumns.lines(MigrationColumns.sessionHead)),
            \(MigrationColumns.lines(MigrationColumns.sessionTail)),
            raw_size INTEGER CHECK (raw_size >= 0),
            raw_blob BLOB,
            PRIMARY KEY (user_id, session_id),
            CHECK (ended_at_ms >= started_at_ms),
            CHECK ((raw_blob IS NULL) = (raw_size IS NULL))
        );
        INSERT INTO sessions_rebuilt (\(copiedColumns), raw_size)
            SELECT \(copiedColumns), length(raw_blob) FROM sessions;
        DROP TABLE sessions;
        ALTER TABLE sessions_rebuilt RENAME TO sessions;
        CREATE INDEX sessions_by_user_start ON sessions(user_id, started_at_ms DESC);
        CREATE INDEX sessions_by_received ON sessions(received_at_ms);
        """

    // MARK: PostgreSQL

    package static let postgres: [String] = [
        "ALTER TABLE sessions ADD COLUMN raw_size BIGINT CHECK (raw_size >= 0)",
        "ALTER TABLE sessions ALTER COLUMN raw_blob SET STORAGE EXTERNAL",
    ]
}
