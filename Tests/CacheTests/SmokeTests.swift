import Testing
@testable import Cache

@Test func moduleLoads() { #expect(String(describing: CacheModule.self) == "CacheModule") }
