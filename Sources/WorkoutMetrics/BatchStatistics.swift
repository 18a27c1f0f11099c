import CBLAS

/// Means, variances and covariances of many aligned series at once (one column per series,
/// one row per second), e.g. the power of a user's sessions on a common 1 Hz grid.
///
/// `moments(_:)` is the BLAS path: means with `dgemv` (Xᵀ·1/n), centring with a rank-1
/// `dger` update, and the k×k covariance with one `dsyrk` (Xcᵀ·Xc/(n−1)), which runs at
/// matrix-multiply speed. `momentsWithLoops(_:)` is the straightforward Swift reference;
/// the benchmark (`pipeline-bench metrics`) compares the two, and Benchmarks/metrics-results.md
/// records where BLAS wins.
public enum BatchStatistics {
    public struct Moments: Sendable, Equatable {
        /// Mean of each column.
        public var means: [Double]
        /// Sample covariance (n − 1 denominator), k×k, symmetric.
        public var covariance: Matrix
        /// Sample variance of each column (the covariance diagonal).
        public var variances: [Double] { (0..<covariance.rows).map { covariance[$0, $0] } }

        /// Pearson correlation of columns i and j; nil if either has zero variance.
        public func correlation(_ i: Int, _ j: Int) -> Double? {
            let d = (covariance[i, i] * covariance[j, j]).squareRoot()
            return d > 0 ? covariance[i, j] / d : nil
        }
    }

    /// BLAS path. Requires at least two rows; gaps must have been removed or filled.
    public static func moments(_ x: Matrix) -> Moments {
        let n = x.rows, k = x.columns
        precondition(n >= 2, "need at least two rows")
        let ones = [Double](repeating: 1, count: n)
        var means = [Double](repeating: 0, count: k)
        // means = Xᵀ·1 / n
        x.storage.withUnsafeBufferPointer { a in
            cblas_dgemv(
                CblasColMajor, CblasTrans, Int32(n), Int32(k), 1 / Double(n), a.baseAddress, Int32(n),
                ones, 1, 0, &means, 1)
        }
        // Xc = X − 1·meansᵀ
        var centred = x.storage
        let negMeans = means.map { -$0 }
        cblas_dger(CblasColMajor, Int32(n), Int32(k), 1, ones, 1, negMeans, 1, &centred, Int32(n))
        // C = Xcᵀ·Xc / (n − 1), upper triangle, then mirrored.
        var c = [Double](repeating: 0, count: k * k)
        cblas_dsyrk(
            CblasColMajor, CblasUpper, CblasTrans, Int32(k), Int32(n), 1 / Double(n - 1), centred, Int32(n),
            0, &c, Int32(k))
        for j in 0..<k {
            for i in (j + 1)..<k { c[i + j * k] = c[j + i * k] }
        }
        return Moments(means: means, covariance: Matrix(rows: k, columns: k, storage: c))
    }

    /// The same result with plain loops: two passes per column, one per pair.
    public static func momentsWithLoops(_ x: Matrix) -> Moments {
        let n = x.rows, k = x.columns
        precondition(n >= 2, "need at least two rows")
        var means = [Double](repeating: 0, count: k)
        var centred = x.storage
        centred.withUnsafeMutableBufferPointer { c in
            for j in 0..<k {
                var s = 0.0
                for i in 0..<n { s += c[i + j * n] }
                let m = s / Double(n)
                means[j] = m
                for i in 0..<n { c[i + j * n] -= m }
            }
        }
        var cov = [Double](repeating: 0, count: k * k)
        centred.withUnsafeBufferPointer { c in
            for a in 0..<k {
                for b in a..<k {
                    var s = 0.0
                    for i in 0..<n { s += c[i + a * n] * c[i + b * n] }
                    let v = s / Double(n - 1)
                    cov[a + b * k] = v
                    cov[b + a * k] = v
                }
            }
        }
        return Moments(means: means, covariance: Matrix(rows: k, columns: k, storage: cov))
    }
}
