import Foundation
import Testing

@testable import WorkoutMetrics

/// A metric added to `SessionMetrics` but forgotten in `doubleFields` used to keep an overflow (∞, NaN) that JSON
/// cannot carry, and the stored document's metrics went blank. Every key that holds a number is found here from the
/// JSON form alone (no list shared with the code under test): each must come out of `droppingNonFinite` as nil when
/// it was infinite.
@Suite struct MetricFieldsTests {
    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }()

    @Test(arguments: SessionMetrics.CodingKeys.allCases)
    func nonFiniteNumbersAreDropped(_ key: SessionMetrics.CodingKeys) throws {
        // Only the keys that hold a Double read "inf" (an Int, an array or MMP's object do not).
        guard let m = try? Self.decoder.decode(SessionMetrics.self, from: Data(#"{"\#(key.rawValue)": "inf"}"#.utf8))
        else { return }
        #expect(m != SessionMetrics(), "\(key.rawValue) did not read")
        #expect(m.droppingNonFinite() == SessionMetrics(), "\(key.rawValue) is not in SessionMetrics.doubleFields")
    }

    /// Every key has one descriptor, in the order of the JSON keys.
    @Test func oneDescriptorPerKey() {
        #expect(MetricDescriptor.all.map(\.symbol.rawValue) == SessionMetrics.CodingKeys.allCases.map(\.rawValue))
        #expect(Set(MetricDescriptor.all.map(\.symbol)).count == MetricDescriptor.all.count)
    }
}
