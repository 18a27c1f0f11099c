import Store

extension NightlyJob {
    /// Runs `body` for each of `users`, at most `width` at a time, and returns the results in the users' order (as a
    /// loop would). With a width of 1 it is that loop. `done` is told after each user, in completion order.
    static func forEachUser<R: Sendable>(
        _ users: [UserID], width: Int, done: (Int) -> Void = { _ in },
        _ body: @escaping @Sendable (UserID) async throws -> R
    ) async throws -> [R] {
        var results = [R?](repeating: nil, count: users.count)
        try await withThrowingTaskGroup(of: (Int, R).self) { group in
            var next = 0, finished = 0
            func start() {
                let i = next, user = users[i]
                next += 1
                group.addTask { (i, try await body(user)) }
            }
            while next < min(max(width, 1), users.count) { start() }
            while let (i, result) = try await group.next() {
                results[i] = result
                finished += 1
                done(finished)
                if next < users.count {
                    try Task.checkCancellation()
                    start()
                }
            }
        }
        return results.map { $0! }
    }
}
