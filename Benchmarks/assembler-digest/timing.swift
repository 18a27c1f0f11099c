import FTMSDecode
#if canImport(Glibc)
import Glibc
#endif

// Timing driver for the assembler (Benchmarks/assembler-digest/bench.sh): thread CPU time of the streaming decode and of
// SessionAssembler over the same bytes (FTMSBench's generator), for one-hour recordings and one big recording, so the
// ratio assembler / decode is measured in one process. `timing [MB] [REPS] [hour|big|both]`.
@main struct Timing { static func main() {
    let args = CommandLine.arguments
    let mb = args.count > 1 ? Int(args[1])! : 64
    let reps = args.count > 2 ? Int(args[2])! : 7
    let which = args.count > 3 ? args[3] : "both"
    let big = FTMSBench.generate(targetBytes: mb << 20)
    let hour = FTMSBench.generate(targetBytes: 3600 * 150)
    let copies = max(1, big.count / hour.count)
    var sink: UInt64 = 0
    func cpu() -> Double { var ts = timespec(); clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9 }
    func bench(_ name: String, _ body: () -> UInt64) -> Double {
        sink &+= body()
        var times: [Double] = []
        for _ in 0 ..< reps { let c = cpu(); sink &+= body(); times.append(cpu() - c) }
        times.sort()
        let m = times[times.count / 2]
        print("\(name): median \(Int(m * 1e6) / 1000) ms CPU (min \(Int(times[0] * 1e6) / 1000))")
        return m
    }
    if which != "big" {
        let d = bench("decode   1-hour ×\(copies)") { var s: UInt64 = 0; for _ in 0 ..< copies { s &+= FTMSBench.typedDecode(hour) }; return s }
        let a = bench("assemble 1-hour ×\(copies)") { var s: UInt64 = 0; for _ in 0 ..< copies { s &+= FTMSBench.assemble(hour) }; return s }
        print("ratio 1-hour assemble/decode \(Double(Int(a / d * 100)) / 100)")
    }
    if which != "hour" {
        let d = bench("decode   \(mb) MB") { FTMSBench.typedDecode(big) }
        let a = bench("assemble \(mb) MB") { FTMSBench.assemble(big) }
        print("ratio \(mb) MB assemble/decode \(Double(Int(a / d * 100)) / 100)")
    }
    print("sink \(sink)")
} }
