import Store
import Testing

/// The roles each backend gives through `PipelineStore` (no cast finds them): every one on SQLite, every one but the
/// polled change feed on PostgreSQL.
@Suite struct StoreRolesTests {
    @Test(arguments: Backend.available) func eachBackendGivesItsRoles(_ backend: Backend) async throws {
        try await withTestStore(backend) { t in
            let store = t.store
            #expect(store.workLeases != nil)
            #expect(store.ingestLedger != nil)
            #expect(store.changeFeed != nil)
            #expect(store.diagnostics != nil)
            #expect(store.userLocks.userConcurrency >= 1)
            switch backend {
            case .sqlite:
                #expect(store.polledChangeFeed != nil)
                #expect(!store.commitsInParallel)
            case .postgres:
                #expect(store.polledChangeFeed == nil)
                #expect(store.commitsInParallel)
            }
            let user = UserID("roles-user")
            let locked = try await store.userLocks.withUserLock(user, wait: false) { 1 }
            #expect(locked == 1)
        }
    }

    /// A store without locks runs the work directly, waiting or not, and never refuses it.
    @Test func noUserLocksRunsTheBodyDirectly() async throws {
        let locks = NoUserLocks()
        let user = UserID("roles-user")
        let inner: String?? = try await locks.withUserLock(user, wait: false) {
            try await locks.withUserLock(user, wait: false) { "inner" }
        }
        #expect(inner == .some(.some("inner")))
        let waited = try await locks.withUserLock(user, wait: true) { 2 }
        #expect(waited == 2)
        #expect(locks.userConcurrency == 1)
    }
}
