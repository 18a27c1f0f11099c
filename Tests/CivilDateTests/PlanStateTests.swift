import CivilDate
import Foundation
import Testing

@Suite struct PlanStateTests {
    /// The raw values are the API's and the database's strings.
    @Test func rawValuesAreTheWireStrings() throws {
        #expect(PlanState.allCases.map(\.rawValue) == ["ready", "completed", "error"])
        let json = try JSONEncoder().encode(PlanState.allCases)
        #expect(String(decoding: json, as: UTF8.self) == #"["ready","completed","error"]"#)
        #expect(try JSONDecoder().decode([PlanState].self, from: json) == PlanState.allCases)
    }
}
