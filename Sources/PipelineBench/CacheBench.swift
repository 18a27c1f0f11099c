// Placeholder until the Cache benchmark suite is written; it reports that plainly instead of printing numbers.
enum CacheBench {
    static func run(_ args: [String]) async throws {
        print("Cache benchmark suite not implemented yet")
    }
}
