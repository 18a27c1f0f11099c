/// 0021: a workout record's samples are stored as `StoredSamples` bytes (`Store/StoredSamples.swift`; the
/// layout in docs/workout-records.md, "How samples are stored"). Nothing changes in SQLite's schema: `samples_json`
/// (type affinity TEXT) keeps a BLOB as it is, and a row stored before keeps its TEXT, which reads as JSON text
/// (`SQLiteStore.samples(_:)`). The migration is recorded so that both backends list the same migrations.
///
/// PostgreSQL: the bytes are columns in a zstd frame, or JSON text of another shape in a zstd frame. `samples_json`
/// becomes `BYTEA`; the rows stored before keep their JSON text as its UTF-8 bytes, which read as they are (JSON text
/// never starts with a format byte). The column keeps its name and its place at the end of the row (0018), so the
/// digest reads the rows alike on both backends.
///
/// `SET STORAGE EXTERNAL`, as for recordings (0020): the frames do not compress again, so TOAST does not try.
package enum Migration0021StoredSamples: StoreMigration {
    package static let identifier = "0021_stored_samples"

    // MARK: SQLite

    package static let sqlite = "SELECT 1"

    // MARK: PostgreSQL

    package static let postgres: [String] = [
        "ALTER TABLE workouts ALTER COLUMN samples_json TYPE BYTEA USING convert_to(samples_json, 'UTF8')",
        "ALTER TABLE workouts ALTER COLUMN samples_json SET STORAGE EXTERNAL",
    ]
}
