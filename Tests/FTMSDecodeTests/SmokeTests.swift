import Testing
@testable import FTMSDecode

@Test func moduleLoads() { #expect(String(describing: FTMSDecodeModule.self) == "FTMSDecodeModule") }
