#if canImport(Glibc)
    import Glibc
#endif

/// Fixes glibc's mmap threshold for this process at 1 MiB and its trim threshold at 32 MiB (`mallopt`), before any work
/// starts. `pipeline` and `pipeline-bench` call it first thing, so the benchmarks measure the allocator the jobs run
/// with.
///
/// glibc's default threshold is dynamic: it starts at 128 KiB and rises to the size of the largest mmapped block freed
/// so far (up to 32 MiB). The nightly frees multi-MB buffers (a group's multi-row insert and its wire message on
/// PostgreSQL), after which every later 120–160 KB recording, its Base64 text and its canonical copy lands in the malloc
/// arenas instead, where freed blocks stay resident and fragment: the PostgreSQL nightly's peak RSS grew from 140 MiB
/// (1× the benchmark inbox) to 150–172 MiB (4×) with a heap that only grew from 72 to 82 MB (heaptrack). With the
/// threshold fixed, blocks above it are mapped and given back when freed, and blocks below it reuse arena memory.
///
/// Why 1 MiB: a session's 1 Hz columns are below it up to a 24-hour grid (the assembler's limit: 86,400 s × 8 bytes =
/// 691 KB a channel; its working buffer, sized from the first minute, ≈ 0.9 MB), so long sessions reuse arena memory
/// instead of being mapped and faulted in page by page, twice a channel (its buffer and the series' array), for every
/// session. At 256 KiB (the setting until 2026-11-27) the assembler took 4.4–4.7× the streaming decoders on 24-hour
/// recordings, 1.91–2.12× at 1 MiB (`pipeline-bench ftms`, the `24-hour blob` lines); the nightly's multi-MB buffers
/// stay above it.
///
/// Why 32 MiB: a fixed mmap threshold also fixes the trim threshold (the dynamic mode kept it at twice the mmap
/// threshold), and a session's freed columns at the top of the heap are given back to the kernel beyond it and faulted
/// in again for the next session. A one-hour session's (≈ 0.5 MB) needed 4 MiB (at 128 KiB the assembler's one-hour
/// blobs took 315–342 ms of CPU instead of 217–243); a 24-hour session frees ≈ 19 MB at once (its channels' buffers
/// and series), for which 16 MiB was still too little and 24 MiB enough. So up to 32 MiB of free memory stays resident
/// per arena after such a session; peak RSS of the nightly: Benchmarks/nightly-results.md.
///
/// `pipeline serve` runs for weeks and recomputes a user's sessions only now and then, so it sets the trim threshold
/// back to 4 MiB once it starts (`apply(.server)`): what a long session's assembly freed goes back to the kernel
/// instead of staying resident in each of its threads' arenas, and such a recomputation faults its columns in again.
///
/// Left alone when the operator sets `glibc.malloc.mmap_threshold` in `GLIBC_TUNABLES` (their setting wins), and a
/// no-op on other C libraries.
public enum MallocTuning {
    /// What the process does most: batch jobs keep a long session's freed memory for the next one; a server gives it
    /// back.
    public enum Profile: Sendable {
        case batch, server

        var trimThreshold: Int32 { self == .batch ? 32 << 20 : 4 << 20 }
    }

    static let mmapThreshold: Int32 = 1 << 20

    public static func apply(_ profile: Profile = .batch) {
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
            _ = mallopt(-1, profile.trimThreshold)
            _ = mallopt(-3, mmapThreshold)
        #endif
    }
}
