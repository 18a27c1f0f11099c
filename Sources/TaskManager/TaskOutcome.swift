/// What became of one `TaskManager.run(id:operation:)` call.
public enum TaskOutcome<Value: Sendable>: Sendable {
    /// The operation ran (started by this call) and returned a value.
    case completed(Value)
    /// Another operation with the same id was running; nothing was started and the running one
    /// was left alone.
    case skipped
    /// The operation threw an error other than `CancellationError`.
    case failed(any Error)
    /// The operation was cancelled (through `cancel(id:)`, `cancelAll()` or `shutdown()`), or the
    /// caller stopped waiting because its own task was cancelled (the work itself goes on).
    case cancelled
    /// The manager is shut down and accepts no new work.
    case rejected

    /// The value if the operation completed, else `nil`.
    public var value: Value? {
        if case .completed(let value) = self { value } else { nil }
    }
}
