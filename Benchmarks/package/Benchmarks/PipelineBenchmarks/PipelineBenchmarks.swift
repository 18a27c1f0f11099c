// The benchmarks CI holds (issue 42): each measures one of the pipeline's stages on a fixed input (fixed seeds, a
// committed fixture), so that its instruction and malloc counts are the same from run to run and from machine to
// machine, whatever else the machine is doing. Thresholds/ holds the p90 of each count; scripts/benchmark-thresholds.sh
// runs the check (.ci/run) and, with --update, refreshes them when a change is meant to move them.
//
// Each stage is one function of Sources/PipelineWorkloads/Workloads.swift; where the machine has no hardware counters,
// scripts/benchmark-thresholds.sh counts the instructions of the same functions under valgrind (`pipeline-workload`).
import Benchmark
import Foundation
import PipelineWorkloads

let benchmarks: @Sendable () -> Void = {
    // Counts, not times (a metric without a tolerance would be held exactly: wall time has none here, BENCHMARKS.md
    // keeps it). Hardware instruction counts need perf events; where the kernel offers none (this project's machines),
    // they read 0 here and scripts/benchmark-thresholds.sh counts the instructions with valgrind instead.
    let metrics: [BenchmarkMetric] = [.instructions, .mallocCountTotal]
    // Deterministic inputs give the same counts in every iteration: a few iterations are enough, and keep CI short.
    // A fixed number of them (no time limit cuts a run short on a slow machine): PIPELINE_BENCHMARK_ITERATIONS sets
    // it (the valgrind pass runs each stage once, without warm-up).
    let iterations = Int(ProcessInfo.processInfo.environment["PIPELINE_BENCHMARK_ITERATIONS"] ?? "") ?? 5
    Benchmark.defaultConfiguration = .init(
        metrics: metrics, timeUnits: .microseconds, warmupIterations: iterations > 1 ? 1 : 0,
        maxDuration: .seconds(3600), maxIterations: iterations, thresholds: tolerances(mallocSlack: 0))

    let inputs = Inputs.make()

    // A one-hour bike session as the generator records it: every record decoded.
    Benchmark("FTMSDecode", configuration: config(mallocSlack: 2)) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(workloadFTMSDecode(inputs.recording)) }
    }
    // The same recording assembled into its 1 Hz series.
    Benchmark("SessionAssembler", configuration: config(mallocSlack: 2)) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(workloadAssemble(inputs.recording)) }
    }
    // That session's metric set.
    Benchmark("MetricSet", configuration: config(mallocSlack: 2)) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(workloadMetrics(inputs.stream, inputs.athlete)) }
    }
    // A real ride's FIT file (the Edge810 fixture, 148 kB).
    Benchmark("FITRead", configuration: config(mallocSlack: 4)) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(workloadFITRead(inputs.fit)) }
    }
    // A generated Apple Health export.xml of 2 MB.
    Benchmark("HealthExportRead", configuration: config(mallocSlack: 3)) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(workloadHealthRead(inputs.healthXML)) }
    }
    // A generated upload of 20 one-hour sessions, prepared for the store (all of ingest but the transaction).
    Benchmark("IngestBatch", configuration: config()) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(await workloadIngest(inputs.ingest)) }
    }
    // A half-marathon plan of 18 weeks.
    Benchmark("PlanGeneration", configuration: config()) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(workloadPlan(inputs.plan)) }
    }
}

/// The tolerances of the check. Instructions: ±5 % of the committed p90 (a 2× slowdown is +100 %; toolchain updates
/// move counts by a few per cent). Mallocs: ±2 %, or, where a stage makes a few hundred mallocs or fewer, a few in
/// absolute terms (`mallocSlack`; 2 % of 16 would fail on one more, and a relative tolerance of a zero threshold is
/// never exceeded). Mallocs are deterministic here: the same count in every iteration and every run. The slacks are
/// written only in the `Benchmark(…, configuration: config(mallocSlack: N))` lines above: scripts/benchmark-thresholds.sh
/// reads them from there for its allocation count.
func tolerances(mallocSlack: Int) -> [BenchmarkMetric: BenchmarkThresholds] {
    [
        .instructions: .init(relative: [.p90: 5.0]),
        .mallocCountTotal: mallocSlack > 0 ? .init(absolute: [.p90: mallocSlack]) : .init(relative: [.p90: 2.0]),
    ]
}

func config(mallocSlack: Int = 0) -> Benchmark.Configuration {
    .init(thresholds: tolerances(mallocSlack: mallocSlack))
}
