import CBLAS

/// Why a least-squares solve failed.
public struct LeastSquaresError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// Fewer rows than columns, or mismatched right-hand side.
        case shape
        /// The design matrix does not have full column rank (LAPACK info > 0).
        case rankDeficient
        /// LAPACK reported an illegal argument (info < 0).
        case lapack
    }
    public var code: Code
    public var detail: String
    public var description: String { "least squares: \(code.rawValue): \(detail)" }
}

/// Linear least squares through LAPACK's `dgels` (QR factorisation), as exported by
/// OpenBLAS. One call solves for any number of right-hand sides that share the design
/// matrix — that is where it pays: a batch of fits with the same regressors.
public enum LeastSquares {
    /// Minimises ‖A·X − B‖ column by column. A is m×n with m ≥ n and full column rank;
    /// B is m×k. Returns X (n×k).
    public static func solve(_ a: Matrix, _ b: Matrix) throws(LeastSquaresError) -> Matrix {
        guard a.rows >= a.columns, a.columns > 0, b.rows == a.rows else {
            throw LeastSquaresError(code: .shape, detail: "A \(a.rows)×\(a.columns), B \(b.rows)×\(b.columns)")
        }
        guard b.columns > 0 else { return Matrix(rows: a.columns, columns: 0) }
        var aWork = a.storage
        var bWork = b.storage
        var trans = CChar(UInt8(ascii: "N"))
        var m = Int32(a.rows), n = Int32(a.columns), nrhs = Int32(b.columns)
        var lda = m, ldb = m
        var info: Int32 = 0
        // Workspace query, then the solve.
        var lwork: Int32 = -1
        var query = 0.0
        dgels_(&trans, &m, &n, &nrhs, &aWork, &lda, &bWork, &ldb, &query, &lwork, &info)
        lwork = Swift.max(1, Int32(query))
        var work = [Double](repeating: 0, count: Int(lwork))
        dgels_(&trans, &m, &n, &nrhs, &aWork, &lda, &bWork, &ldb, &work, &lwork, &info)
        if info > 0 { throw LeastSquaresError(code: .rankDeficient, detail: "R(\(info),\(info)) is zero") }
        if info < 0 { throw LeastSquaresError(code: .lapack, detail: "argument \(-info) illegal") }
        // dgels only reports an exactly zero diagonal of R; rounding leaves ~1e-16 for
        // collinear columns, so check R's diagonal against its largest entry as well.
        var largest = 0.0
        for i in 0..<a.columns { largest = Swift.max(largest, abs(aWork[i + i * a.rows])) }
        let tolerance = largest * Double(Swift.max(a.rows, a.columns)) * Double.ulpOfOne
        for i in 0..<a.columns where abs(aWork[i + i * a.rows]) <= tolerance {
            throw LeastSquaresError(code: .rankDeficient, detail: "|R(\(i + 1),\(i + 1))| ≤ \(tolerance)")
        }
        // The first n rows of each column of B now hold the solution.
        var x = Matrix(rows: a.columns, columns: b.columns)
        for j in 0..<b.columns {
            for i in 0..<a.columns { x[i, j] = bWork[i + j * a.rows] }
        }
        return x
    }
}
