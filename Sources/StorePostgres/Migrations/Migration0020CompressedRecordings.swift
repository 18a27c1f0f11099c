/// 0020 (the twin of `StoreSQLite/Migrations/Migration0020CompressedRecordings.swift`; see there): recordings are stored
/// as zstd frames behind a 5-byte header (`Store/StoredRecording.swift`), with their uploaded size in `raw_size` for
/// the storage quota (rows stored before have none and count their stored length, which is the uploaded one).
///
/// `SET STORAGE EXTERNAL`: a frame does not compress again, so TOAST keeps `raw_blob` out of line without trying LZ4
/// (0007) on it first — the server's CPU is not spent on a second compression that would be thrown away. It applies to
/// rows stored from now on; older rows keep what TOAST made of them and read as they are.
enum Migration0020CompressedRecordings {
    static let identifier = "0020_compressed_recordings"
    static let statements: [String] = [
        "ALTER TABLE sessions ADD COLUMN raw_size BIGINT CHECK (raw_size >= 0)",
        "ALTER TABLE sessions ALTER COLUMN raw_blob SET STORAGE EXTERNAL",
    ]
}
