// Placeholder until the Metrics benchmark suite is written; it reports that plainly instead of printing numbers.
enum MetricsBench {
    static func run(_ args: [String]) async throws {
        print("Metrics benchmark suite not implemented yet")
    }
}
