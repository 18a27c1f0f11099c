import CBLAS

#if canImport(Glibc)
    import Glibc
#endif

/// Control of OpenBLAS's own thread pool.
///
/// OpenBLAS (Debian's pthread build) starts one worker per core and uses them inside each
/// call. The pipeline parallelises across Swift tasks instead, so two levels of threads
/// would fight over the same two cores; `singleThreaded()` makes every BLAS/LAPACK call run
/// on the calling thread. Call it once at process start, before any BLAS work (`pipeline`'s
/// `main`, the nightly job and worker, and the benchmark do).
public enum BLASConfiguration {
    /// Every BLAS/LAPACK call on the calling thread, and OpenBLAS's idle workers stopped.
    ///
    /// The pthread build starts its workers when the library is loaded, before any code of ours runs, and an idle
    /// worker spins (`sched_yield`) for about 2²⁸ cycles before it sleeps: a tenth to a fifth of a second of a core
    /// at each process start, taken from the nightly's own threads (Benchmarks/nightly-results.md, 2026-12-01).
    /// One thread means they never get work again, so they are stopped with OpenBLAS's own shutdown (the one it runs
    /// before `fork`), looked up at run time: the serial and OpenMP builds have no such workers or no such symbol.
    public static func singleThreaded() {
        openblas_set_num_threads(1)
        #if canImport(Glibc)
            if let symbol = dlsym(nil, "blas_thread_shutdown_") {
                _ = unsafeBitCast(symbol, to: (@convention(c) () -> Int32).self)()
            }
        #endif
    }

    /// The number of threads OpenBLAS will use per call.
    public static var threadCount: Int { Int(openblas_get_num_threads()) }

    /// Whether OpenBLAS's worker threads are running (its `blas_server_avail`); nil when the library in use does not
    /// say (a serial build).
    public static var workersRunning: Bool? {
        #if canImport(Glibc)
            guard let symbol = dlsym(nil, "blas_server_avail") else { return nil }
            return symbol.load(as: Int32.self) != 0
        #else
            return nil
        #endif
    }
}
