// Placeholder until the Ingest benchmark suite is written; it reports that plainly instead of printing numbers.
enum IngestBench {
    static func run(_ args: [String]) async throws {
        print("Ingest benchmark suite not implemented yet")
    }
}
