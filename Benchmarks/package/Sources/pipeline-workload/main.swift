import Foundation

guard CommandLine.arguments.count == 2 else {
    print("usage: pipeline-workload <\(countedStages.joined(separator: "|"))>")
    exit(2)
}
countStage(CommandLine.arguments[1])
