import CBLAS

/// Control of OpenBLAS's own thread pool.
///
/// OpenBLAS (Debian's pthread build) starts one worker per core and uses them inside each
/// call. The pipeline parallelises across Swift tasks instead, so two levels of threads
/// would fight over the same two cores; `singleThreaded()` makes every BLAS/LAPACK call run
/// on the calling thread. Call it once at process start, before any BLAS work (the
/// pipeline's entry points and the benchmark do).
public enum BLASConfiguration {
    public static func singleThreaded() {
        openblas_set_num_threads(1)
    }

    /// The number of threads OpenBLAS will use per call.
    public static var threadCount: Int { Int(openblas_get_num_threads()) }
}
