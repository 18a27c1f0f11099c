#if canImport(Glibc)
    import Glibc
#endif

/// Fixes glibc's mmap threshold for this process at 256 KiB and its trim threshold at 4 MiB (`mallopt`), before any
/// work starts. `pipeline` and `pipeline-bench` call it first thing, so the benchmarks measure the allocator the jobs
/// run with.
///
/// glibc's default threshold is dynamic: it starts at 128 KiB and rises to the size of the largest mmapped block freed
/// so far (up to 32 MiB). The nightly frees multi-MB buffers (a group's multi-row insert and its wire message on
/// PostgreSQL), after which every later 120–160 KB recording, its Base64 text and its canonical copy lands in the malloc
/// arenas instead, where freed blocks stay resident and fragment: the PostgreSQL nightly's peak RSS grew from 140 MiB
/// (1× the benchmark inbox) to 150–172 MiB (4×) with a heap that only grew from 72 to 82 MB (heaptrack). With the
/// threshold fixed, blocks above it are mapped and given back when freed, and blocks below it (every recording) reuse
/// arena memory: 4× peak RSS 132–137 MiB in the same runs (issue 13, Benchmarks/nightly-results.md).
///
/// A fixed mmap threshold also fixes the trim threshold, which the dynamic mode kept at twice the mmap threshold. Left
/// at its 128 KiB default, every session's freed series were given back to the kernel at the top of the heap and
/// faulted in again for the next session: the assembler's one-hour blobs took 315–342 ms of CPU instead of 217–243
/// (`pipeline-bench ftms --only assemble`, same minutes). At 4 MiB they stay (209–240 ms in eight runs); at 1 MiB half
/// the runs were slow again (365–409 ms), though its 4× peak RSS was 122 MiB. At most 4 MiB of free memory is kept per
/// arena.
///
/// Left alone when the operator sets `glibc.malloc.mmap_threshold` in `GLIBC_TUNABLES` (their setting wins), and a
/// no-op on other C libraries.
public enum MallocTuning {
    static let mmapThreshold: Int32 = 256 << 10
    static let trimThreshold: Int32 = 4 << 20

    public static func apply() {
        #if canImport(Glibc)
            if let tunables = getenv("GLIBC_TUNABLES").map({ String(cString: $0) }),
                tunables.contains("malloc.mmap_threshold")
            {
                return
            }
            // Found at run time (Glibc's Swift module does not import <malloc.h>); absent on other C libraries.
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
            typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
            let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
            // M_TRIM_THRESHOLD (-1) and M_MMAP_THRESHOLD (-3) in <malloc.h>.
            _ = mallopt(-1, trimThreshold)
            _ = mallopt(-3, mmapThreshold)
        #endif
    }
}
