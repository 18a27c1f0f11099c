// Placeholder until the FTMS benchmark suite is written; it reports that plainly instead of printing numbers.
enum FTMSBench {
    static func run(_ args: [String]) async throws {
        print("FTMS benchmark suite not implemented yet")
    }
}
