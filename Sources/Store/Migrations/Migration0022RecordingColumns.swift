/// 0022: session recordings are written as their columns in an LZ4 frame (format byte `0x02` behind the header of
/// 0020; `Store/StoredRecording.swift`, the layout in docs/raw-ble-blob.md, "How the store keeps a recording").
/// Nothing changes in either schema: `raw_blob` holds the new frames beside the zstd frames written before, which read
/// as they are.
///
/// The migration is recorded so that a binary from before it, which would hand a `0x02` row over as it is stored (it
/// knows formats `0x00` and `0x01` only), refuses a SQLite store this one has written to (the unknown-migrations check
/// of 0019). PostgreSQL has no such check: upgrade every process on a database together, as for 0020.
package enum Migration0022RecordingColumns: StoreMigration {
    package static let identifier = "0022_recording_columns"

    // MARK: SQLite

    package static let sqlite = "SELECT 1"

    // MARK: PostgreSQL

    package static let postgres: [String] = ["SELECT 1"]
}
