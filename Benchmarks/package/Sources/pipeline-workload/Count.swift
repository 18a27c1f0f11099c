// One stage run once, for valgrind to count its instructions and for glibc's allocation trace to count its
// allocations (scripts/benchmark-thresholds.sh):
//
//   valgrind --tool=callgrind --collect-atstart=no pipeline-workload <stage>          instructions
//   LD_PRELOAD=libc_malloc_debug.so.0 MALLOC_TRACE=FILE pipeline-workload <stage>   allocations (mtrace(3))
//
// Only the stage's call is counted (callgrind's client requests and mtrace()/muntrace() around it), not the making of
// its input. A plain executable, without package-benchmark's harness (valgrind 3.19 crashes on the malloc interposer
// the harness links), so that CI counts without building that harness (BENCHMARKS.md, "Thresholds CI holds").
// IngestBatch's instructions are not counted (valgrind 3.19 crashes on a thread the SQLite store starts); its
// allocations are.
import CCallgrind
import Foundation
import PipelineWorkloads

let countedStages = [
    "FTMSDecode", "SessionAssembler", "MetricSet", "FITRead", "HealthExportRead", "PlanGeneration", "IngestBatch",
]

/// Around the stage's call: the allocation trace outside callgrind's region, so that its own few instructions are
/// never counted.
func startCounting() {
    pipeline_mtrace_start()
    pipeline_callgrind_start()
}

func stopCounting() {
    pipeline_callgrind_stop()
    pipeline_mtrace_stop()
}

/// IngestBatch is asynchronous (its store is an actor): counted from the top level's task.
func countIngest() async -> Never {
    let input = IngestInput(recording: Inputs.recording(), start: Inputs.recordingStart)
    startCounting()
    let result = await workloadIngest(input)
    stopCounting()
    print("IngestBatch: \(result)")
    exit(0)
}

func countStage(_ name: String) -> Never {
    guard countedStages.contains(name) else {
        print("stages: \(countedStages.joined(separator: ", "))")
        exit(2)
    }
    guard pipeline_callgrind_available() == 1 else {
        print("built without valgrind's callgrind.h (Debian's valgrind): cannot count")
        exit(1)
    }
    let result: Int
    switch name {
    case "FTMSDecode":
        let recording = Inputs.recording()
        startCounting()
        result = workloadFTMSDecode(recording)
    case "SessionAssembler":
        let recording = Inputs.recording()
        startCounting()
        result = workloadAssemble(recording)
    case "MetricSet":
        let stream = Inputs.stream(recording: Inputs.recording())
        startCounting()
        result = workloadMetrics(stream, Inputs.athlete).durationS ?? -1
    case "FITRead":
        let fit = Inputs.fit()
        startCounting()
        result = workloadFITRead(fit)
    case "HealthExportRead":
        let xml = SyntheticHealth.export(bytes: Inputs.healthBytes)
        startCounting()
        result = workloadHealthRead(xml)
    default:
        let request = Inputs.planRequest
        startCounting()
        result = workloadPlan(request)
    }
    stopCounting()
    print("\(name): \(result)")
    exit(0)
}
