import FTMSDecode

#if canImport(Glibc)
    import Glibc
#endif

// A/B driver for the decoder levels (Benchmarks/assembler-digest/ab.sh): thread CPU time of FTMSBench's passes over
// one generated recording — owned values (`typedDecode(owned: true)`), streaming (`typedDecode`), the assembler and
// `BlobReader.read` — alternating pass by pass within each rep, so load falls on all alike. `passes [MB] [REPS]`.
@main struct Passes {
    static func main() {
        let args = CommandLine.arguments
        let mb = args.count > 1 ? Int(args[1])! : 64
        let reps = args.count > 2 ? Int(args[2])! : 7
        let bytes = FTMSBench.generate(targetBytes: mb << 20)
        func cpu() -> Double {
            var ts = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
            return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
        }
        let passes: [(String, () -> UInt64)] = [
            ("decode, owned values", { FTMSBench.typedDecode(bytes, owned: true) }),
            ("decode, streaming", { FTMSBench.typedDecode(bytes) }),
            ("assemble", { FTMSBench.assemble(bytes) }),
            ("read (owned records)", { FTMSBench.readOwned(bytes) }),
        ]
        var checks = passes.map { $0.1() } // warm-up, and the checksums
        var times = [[Double]](repeating: [], count: passes.count)
        for _ in 0..<reps {
            for (i, pass) in passes.enumerated() {
                let c = cpu()
                checks[i] &+= pass.1()
                times[i].append(cpu() - c)
            }
        }
        func ms(_ x: Double) -> String { String(Double(Int(x * 1e5)) / 100) }
        for (i, pass) in passes.enumerated() {
            let t = times[i].sorted()
            let mbs = Double(bytes.count) / 1e6 / t[reps / 2]
            print("\(pass.0): median \(ms(t[reps / 2])) ms (min \(ms(t[0]))), \(Int(mbs)) MB/s; check \(checks[i])")
        }
    }
}
