import Hummingbird
import Store

/// The per-request context: Hummingbird's core storage plus the authenticated caller.
public struct APIRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Set by `AuthMiddleware` once the bearer token is verified and its user exists.
    public var caller: Caller?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
    }

    /// The verified caller; a route behind `AuthMiddleware` always has one.
    func requireCaller() throws -> Caller {
        guard let caller else { throw APIError.unauthorized(.missingToken, "Authentication required") }
        return caller
    }
}

/// Who is calling: the token's subject, resolved to a stored user.
public struct Caller: Sendable {
    public var user: User
    public var claims: TokenClaims
    public var id: UserID { user.id }
}
