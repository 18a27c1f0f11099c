/// The name of a group of operations, such as "recompute" or "training_data_refresh".
///
/// An extensible string wrapper: add your own groups with
/// `extension TaskGroupName { static let myGroup: TaskGroupName = "my_group" }`.
public struct TaskGroupName: Hashable, Sendable, RawRepresentable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { rawValue }

    /// Recomputation of a user's metrics, stats and training load.
    public static let recompute: TaskGroupName = "recompute"
    /// Havital's `training_data_refresh`: reload a user's training data.
    public static let trainingDataRefresh: TaskGroupName = "training_data_refresh"
    /// Generation of a weekly plan.
    public static let planGeneration: TaskGroupName = "plan_generation"
    /// Ingestion of uploaded sessions.
    public static let ingest: TaskGroupName = "ingest"
}

/// A typed, deterministic task id: an operation group and the subject it works on
/// (for example `recompute` for user `u-42`). Never random, so that two requests for the same
/// work collide and are deduplicated.
public struct TaskID: Hashable, Sendable, CustomStringConvertible {
    public let group: TaskGroupName
    /// What the operation works on, typically a user id; `nil` for group-wide operations.
    public let subject: String?

    public init(_ group: TaskGroupName, subject: String? = nil) {
        self.group = group
        self.subject = subject
    }

    /// `group` or `group(subject)`. This contains the subject, which is usually a user id:
    /// the manager's logger only puts it in log lines when `Configuration.subjectLogging` is `.plain`.
    public var description: String {
        if let subject { "\(group.rawValue)(\(subject))" } else { group.rawValue }
    }
}
