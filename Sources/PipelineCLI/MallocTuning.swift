#if canImport(Glibc)
    import Glibc
#endif

/// Fixes glibc's mmap threshold for this process at 256 KiB (`mallopt(M_MMAP_THRESHOLD)`), before any work starts.
///
/// glibc's default threshold is dynamic: it starts at 128 KiB and rises to the size of the largest mmapped block freed
/// so far (up to 32 MiB). The nightly frees multi-MB buffers (a group's multi-row insert and its wire message on
/// PostgreSQL), after which every later 120–160 KB recording, its Base64 text and its canonical copy lands in the malloc
/// arenas instead, where freed blocks stay resident and fragment: the PostgreSQL nightly's peak RSS grew from 140 MiB
/// (1× the benchmark inbox) to 150–172 MiB (4×) with a heap that only grew from 72 to 82 MB (heaptrack). With the
/// threshold fixed, blocks above it are mapped and given back when freed, and blocks below it (every recording) reuse
/// arena memory: 4× peak RSS 128–138 MiB in the same runs (issue 13, Benchmarks/nightly-results.md). A fixed threshold
/// also stops glibc's dynamic trim-threshold adjustment.
///
/// Left alone when the operator sets `glibc.malloc.mmap_threshold` in `GLIBC_TUNABLES` (their setting wins), and a
/// no-op on other C libraries.
enum MallocTuning {
    static let mmapThreshold: Int32 = 256 << 10

    static func apply() {
        #if canImport(Glibc)
            if let tunables = getenv("GLIBC_TUNABLES").map({ String(cString: $0) }),
                tunables.contains("malloc.mmap_threshold")
            {
                return
            }
            // Found at run time (Glibc's Swift module does not import <malloc.h>); absent on other C libraries.
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
            typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
            let mmapThresholdParameter: Int32 = -3 // M_MMAP_THRESHOLD in <malloc.h>
            _ = unsafeBitCast(symbol, to: Mallopt.self)(mmapThresholdParameter, mmapThreshold)
        #endif
    }
}
