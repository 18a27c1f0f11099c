import Logging
import Synchronization
@_exported import TestKit

struct TestFailure: Error, Equatable {
    let code: Int
}
