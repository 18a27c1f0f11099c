import Testing
@testable import TaskManager

@Test func moduleLoads() { #expect(String(describing: TaskManagerModule.self) == "TaskManagerModule") }
