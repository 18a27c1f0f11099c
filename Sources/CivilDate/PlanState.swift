/// The state of a runner's plan: the state the store keeps with each plan version and the apps show on the plan screen.
/// The raw values are the strings of the API (`state` in `GET /v1/me/plan`, the changes feed) and of the database's
/// `plans.state` column, and do not change.
///
/// It lives here, below both, so that the store (a stored version's state) and the plan engine (`PlanScreen`, which adds
/// "no plan yet") speak of the one type.
public enum PlanState: String, Codable, Sendable, CaseIterable {
    /// A plan whose race is still ahead (or today).
    case ready
    /// A plan whose race date has passed.
    case completed
    /// A refusal: the document carries an error instead of a plan.
    case error
}
