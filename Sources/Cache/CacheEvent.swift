/// Something that happened to a user's data, after which cached views of it are stale.
public enum CacheEvent: Sendable, Hashable, CustomStringConvertible {
    /// New sessions of the user were ingested.
    case sessionIngested(user: CacheUserID)
    /// The user's metrics, stats or plan were recomputed.
    case recomputed(user: CacheUserID)
    /// The user was deleted (GDPR): nothing of theirs may stay cached.
    case userDeleted(user: CacheUserID)
    /// Any other event, invalidating the given tags (for example `[CacheTag("plan_rules")]`
    /// when operators change the plan rules).
    case custom(name: String, tags: [CacheTag])

    /// The tags whose entries this event invalidates.
    public var invalidatedTags: [CacheTag] {
        switch self {
        case .sessionIngested(let user), .recomputed(let user), .userDeleted(let user): [.user(user)]
        case .custom(_, let tags): tags
        }
    }

    /// The event's kind, without the user: safe for logs and metric labels.
    public var name: String {
        switch self {
        case .sessionIngested: "session_ingested"
        case .recomputed: "recomputed"
        case .userDeleted: "user_deleted"
        case .custom(let name, _): name
        }
    }

    /// The kind only: user ids stay out of default descriptions.
    public var description: String { "CacheEvent(\(name))" }
}
