// Placeholder until the TaskManager benchmark suite is written; it reports that plainly instead of printing numbers.
enum TaskManagerBench {
    static func run(_ args: [String]) async throws {
        print("TaskManager benchmark suite not implemented yet")
    }
}
