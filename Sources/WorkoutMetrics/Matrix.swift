/// A dense matrix of `Double` in column-major order (the layout BLAS and LAPACK take
/// without copies): element (i, j) is `storage[i + j·rows]`. For a batch of aligned series,
/// each column is one series and each row one second.
public struct Matrix: Sendable, Equatable {
    public let rows: Int
    public let columns: Int
    public var storage: [Double]

    public init(rows: Int, columns: Int, storage: [Double]) {
        precondition(
            rows >= 0 && columns >= 0 && storage.count == rows * columns, "storage must hold rows × columns values")
        self.rows = rows
        self.columns = columns
        self.storage = storage
    }

    public init(rows: Int, columns: Int, repeating value: Double = 0) {
        self.init(rows: rows, columns: columns, storage: [Double](repeating: value, count: rows * columns))
    }

    /// A matrix whose columns are `columns` (all of equal length).
    public init(columns: [[Double]]) {
        let rows = columns.first?.count ?? 0
        precondition(columns.allSatisfy { $0.count == rows }, "columns must have equal lengths")
        self.init(rows: rows, columns: columns.count, storage: columns.flatMap { $0 })
    }

    public subscript(row: Int, column: Int) -> Double {
        get { storage[row + column * rows] }
        set { storage[row + column * rows] = newValue }
    }

    public func column(_ j: Int) -> ArraySlice<Double> {
        storage[(j * rows)..<((j + 1) * rows)]
    }
}
