import Testing
@testable import HTTPAPI

@Test func moduleLoads() { #expect(String(describing: HTTPAPIModule.self) == "HTTPAPIModule") }
