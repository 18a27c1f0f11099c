/// Errors thrown by `TaskManager.join(id:operation:)` itself (the operation's own errors are
/// passed through unchanged).
public struct TaskManagerError: Error, Hashable, Sendable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let rawValue: String
        /// The manager was shut down before the call.
        public static let shutDown = Code(rawValue: "shut_down")
        /// A task with the same id is running but produces a different result type; the caller
        /// can neither join it nor start a second one.
        public static let resultTypeMismatch = Code(rawValue: "result_type_mismatch")
        public var description: String { rawValue }
    }

    public let code: Code
    /// The group of the task concerned (the subject is left out: it is often a user id).
    public let group: TaskGroupName

    public init(code: Code, group: TaskGroupName) {
        self.code = code
        self.group = group
    }

    public var description: String { "TaskManagerError(\(code), group: \(group))" }
}
