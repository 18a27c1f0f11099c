/// 0021: a workout record's samples are stored as `StoredSamples` bytes (`Store/StoredSamples.swift`; the
/// layout in docs/workout-records.md, "How samples are stored"): columns in a zstd frame, or JSON text of another shape
/// in a zstd frame. `samples_json` becomes `BYTEA`; the rows stored before keep their JSON text as its UTF-8 bytes,
/// which read as they are (JSON text never starts with a format byte). The column keeps its name and its place at the
/// end of the row (0018), so the digest reads the rows alike on both backends.
///
/// `SET STORAGE EXTERNAL`, as for recordings (0020): the frames do not compress again, so TOAST does not try.
///
/// The SQLite twin changes nothing: its `samples_json` column (type affinity TEXT) keeps a BLOB as it is, and the old
/// rows' TEXT reads as JSON text (`SQLiteStore.samples(_:)`).
enum Migration0021StoredSamples {
    static let identifier = "0021_stored_samples"
    static let statements: [String] = [
        "ALTER TABLE workouts ALTER COLUMN samples_json TYPE BYTEA USING convert_to(samples_json, 'UTF8')",
        "ALTER TABLE workouts ALTER COLUMN samples_json SET STORAGE EXTERNAL",
    ]
}
