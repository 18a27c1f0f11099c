/// The id of a user whose entries can be invalidated together (the pipeline's user id).
public struct CacheUserID: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { rawValue }
}

/// A label under which entries are invalidated together: every entry of one user
/// (`.user(id)`), or any grouping a service defines (`CacheTag("plan_rules")`).
public struct CacheTag: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// The tag every entry owned by `user` must carry.
    public static func user(_ user: CacheUserID) -> CacheTag { CacheTag("user:" + user.rawValue) }

    public var description: String { rawValue }
}

/// A cache key that says which tags its entry carries. Tags come from the key itself, not
/// from each `set` call, so an entry cannot be stored without the user it belongs to — and a
/// user's deletion reaches all of them.
///
/// Equal keys must return equal tags.
public protocol CacheKey: Hashable, Sendable {
    var cacheTags: [CacheTag] { get }
}

extension CacheKey {
    /// No tags: the entry is only removed by expiry, eviction, `remove` or `clearCache`.
    public var cacheTags: [CacheTag] { [] }
}

/// A key for a per-user resource, such as `UserCacheKey(user: "u1", resource: "plan/current")`.
/// Carries the tag `.user(user)`.
public struct UserCacheKey: CacheKey, CustomStringConvertible {
    public let user: CacheUserID
    public let resource: String

    public init(user: CacheUserID, resource: String) {
        self.user = user
        self.resource = resource
    }

    public var cacheTags: [CacheTag] { [.user(user)] }

    public var description: String { "\(resource)@\(user)" }
}
