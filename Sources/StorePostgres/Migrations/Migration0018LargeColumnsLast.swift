/// 0018 (the twin of `StoreSQLite/Migrations/Migration0018LargeColumnsLast.swift`): SQLite moves the recordings and
/// workout samples to the end of their rows, so that the other columns are read without walking the large value's
/// overflow pages. PostgreSQL keeps large values out of line (TOAST) whatever the column order: nothing to change, the
/// migration keeps both stores' lists alike.
enum Migration0018LargeColumnsLast {
    static let identifier = "0018_large_columns_last"
    static let statements: [String] = ["SELECT 1"]
}
