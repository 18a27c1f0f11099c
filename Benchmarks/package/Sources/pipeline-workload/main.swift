// Runs one benchmark's stage once, for valgrind to count its instructions (scripts/benchmark-thresholds.sh):
// `valgrind --tool=callgrind --collect-atstart=no pipeline-workload <name>`, with a name of
// Benchmarks/PipelineBenchmarks. Only the stage's call is collected (callgrind's client requests around it), not the
// making of its input. A plain executable, without package-benchmark's harness: valgrind 3.19 stops on the malloc
// interposer the harness links.
import CCallgrind
import Foundation
import PipelineWorkloads

let names = [
    "FTMSDecode", "SessionAssembler", "MetricSet", "FITRead", "HealthExportRead", "IngestBatch", "PlanGeneration",
]
guard CommandLine.arguments.count == 2, names.contains(CommandLine.arguments[1]) else {
    print("usage: pipeline-workload <\(names.joined(separator: "|"))>")
    exit(2)
}
guard pipeline_callgrind_available() == 1 else {
    print("pipeline-workload was built without valgrind's callgrind.h (Debian's valgrind): it cannot count")
    exit(1)
}
let name = CommandLine.arguments[1]
let result: Int
switch name {
case "FTMSDecode":
    let recording = Inputs.recording()
    pipeline_callgrind_start()
    result = workloadFTMSDecode(recording)
case "SessionAssembler":
    let recording = Inputs.recording()
    pipeline_callgrind_start()
    result = workloadAssemble(recording)
case "MetricSet":
    let stream = Inputs.stream(recording: Inputs.recording())
    pipeline_callgrind_start()
    result = workloadMetrics(stream, Inputs.athlete).durationS ?? -1
case "FITRead":
    let fit = Inputs.fit()
    pipeline_callgrind_start()
    result = workloadFITRead(fit)
case "HealthExportRead":
    let xml = SyntheticHealth.export(bytes: Inputs.healthBytes)
    pipeline_callgrind_start()
    result = workloadHealthRead(xml)
case "IngestBatch":
    let ingest = IngestInput(recording: Inputs.recording(), start: Inputs.recordingStart)
    pipeline_callgrind_start()
    result = await workloadIngest(ingest)
default:
    let request = Inputs.planRequest
    pipeline_callgrind_start()
    result = workloadPlan(request)
}
pipeline_callgrind_stop()
print("\(name): \(result)")
