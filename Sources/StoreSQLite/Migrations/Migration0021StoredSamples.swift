/// 0021: a workout record's samples are stored as `StoredSamples` bytes (`Store/StoredSamples.swift`; the
/// layout in docs/workout-records.md, "How samples are stored"). Nothing changes in SQLite's schema: `samples_json`
/// (type affinity TEXT) keeps a BLOB as it is, and a row stored before keeps its TEXT, which reads as JSON text
/// (`SQLiteStore.samples(_:)`). The migration is recorded so that both backends list the same migrations; the twin
/// (`StorePostgres/Migrations/Migration0021StoredSamples.swift`) turns the column into `BYTEA`.
enum Migration0021StoredSamples {
    static let identifier = "0021_stored_samples"
    static let sql = "SELECT 1"
}
