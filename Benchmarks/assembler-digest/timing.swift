import FTMSDecode

#if canImport(Glibc)
    import Glibc
#endif

// Timing driver for the assembler (Benchmarks/assembler-digest/bench.sh): thread CPU time of the streaming decode and of
// SessionAssembler over the same bytes (FTMSBench's generator), for one-hour recordings and one big recording, so the
// ratio assembler / decode is measured in one process. `timing [MB] [REPS] [hour|big|both]`.
@main struct Timing {
    static func main() {
        let args = CommandLine.arguments
        let mb = args.count > 1 ? Int(args[1])! : 64
        let reps = args.count > 2 ? Int(args[2])! : 7
        let which = args.count > 3 ? args[3] : "both"
        let big = FTMSBench.generate(targetBytes: mb << 20)
        let hour = FTMSBench.generate(targetBytes: 3600 * 150)
        let copies = max(1, big.count / hour.count)
        var sink: UInt64 = 0
        func cpu() -> Double {
            var ts = timespec(); clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
            return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
        }
        // Decode and assemble alternate rep by rep, so load from other processes falls on both alike.
        func pair(_ name: String, _ decode: () -> UInt64, _ assemble: () -> UInt64) {
            sink &+= decode() &+ assemble()
            var d: [Double] = [], a: [Double] = []
            for _ in 0..<reps {
                var c = cpu(); sink &+= decode(); d.append(cpu() - c)
                c = cpu(); sink &+= assemble(); a.append(cpu() - c)
            }
            let ratios = zip(a, d).map { $0 / $1 }.sorted()
            d.sort(); a.sort()
            func ms(_ x: Double) -> String { "\(Double(Int(x * 1e5)) / 100)" }
            print(
                "\(name): decode median \(ms(d[reps / 2])) ms (min \(ms(d[0]))), assemble median \(ms(a[reps / 2])) ms (min \(ms(a[0]))); assemble/decode: median of rep ratios \(Double(Int(ratios[reps / 2] * 100)) / 100), of minima \(Double(Int(a[0] / d[0] * 100)) / 100)"
            )
        }
        if which != "big" {
            pair(
                "1-hour ×\(copies)",
                {
                    var s: UInt64 = 0; for _ in 0..<copies { s &+= FTMSBench.typedDecode(hour) }; return s
                },
                {
                    var s: UInt64 = 0; for _ in 0..<copies { s &+= FTMSBench.assemble(hour) }; return s
                })
        }
        if which != "hour" {
            pair("\(mb) MB", { FTMSBench.typedDecode(big) }, { FTMSBench.assemble(big) })
        }
        print("sink \(sink)")
    }
}
