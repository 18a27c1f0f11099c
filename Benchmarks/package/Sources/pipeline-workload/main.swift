import Foundation

guard CommandLine.arguments.count == 2 else {
    print("usage: pipeline-workload <\(countedStages.joined(separator: "|"))>")
    exit(2)
}
if CommandLine.arguments[1] == "IngestBatch" {
    await countIngest()
}
countStage(CommandLine.arguments[1])
