// One stage run once, for valgrind to count its instructions (scripts/benchmark-thresholds.sh):
// `valgrind --tool=callgrind --collect-atstart=no pipeline-workload <stage>`; only the stage's call is collected
// (callgrind's client requests around it), not the making of its input. A plain executable, without package-benchmark's
// harness (valgrind 3.19 crashes on the malloc interposer the harness links), built in a scratch folder of its own
// (.build-count) so that package-benchmark's build and this one never rebuild each other. IngestBatch is not counted:
// valgrind 3.19 also crashes on a thread the SQLite store starts.
import CCallgrind
import Foundation
import PipelineWorkloads

let countedStages = ["FTMSDecode", "SessionAssembler", "MetricSet", "FITRead", "HealthExportRead", "PlanGeneration"]

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
    default:
        let request = Inputs.planRequest
        pipeline_callgrind_start()
        result = workloadPlan(request)
    }
    pipeline_callgrind_stop()
    print("\(name): \(result)")
    exit(0)
}
