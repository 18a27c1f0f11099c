import Foundation
import PropertyBased
import Testing

@testable import WorkoutMetrics

/// Any samples text of a workout record (`WorkoutSamples.parse(json:)`, docs/workout-records.md, "Samples"): samples
/// in any order, times from 0 to the 7-day bound, each channel absent, null or a number at a corner (the numbers of
/// `StreamDocumentPropertyTests`), keys the format ignores. The samples read must be the ones written, bit for bit,
/// in time order (stable for equal times).
@Suite struct WorkoutSamplesPropertyTests {
    /// One sample: a time corner and value, then per channel 0 absent, 1 null, 2 a number (corner, bits, whole).
    static var sample: Generator<(Double, [Int], [Double?], Bool), AnySequence<Any>> {
        let channelCount = WorkoutSamples.Channel.allCases.count
        let number = zip(Gen.int(in: 1...7), Gen.uint64(), Gen.int(in: -1_000_000...1_000_000)).map {
            StreamDocumentPropertyTests.number($0, $1, $2)
        }
        return zip(
            Gen.int(in: 0...3), Gen.double(in: 0...WorkoutSamples.maxSampleTimeS),
            Gen.int(in: 0...2).array(of: channelCount), number.array(of: channelCount), Gen.bool
        )
        .map { timeCorner, time, states, values, ignored in
            let t = [0, time, time.rounded(.down), WorkoutSamples.maxSampleTimeS][timeCorner]
            return (t, states, values, ignored)
        }
        .eraseToAny()
    }

    @Test func everySamplesTextReadsAsWritten() async {
        await propertyCheck(count: 300, input: Self.sample.array(of: 1...30)) { rows in
            var objects: [String] = []
            var expected: [(t: Double, values: [WorkoutSamples.Channel: Double])] = []
            for (t, states, values, ignored) in rows {
                var members = ["\"t\":\(t)"]
                var written: [WorkoutSamples.Channel: Double] = [:]
                for (k, channel) in WorkoutSamples.Channel.allCases.enumerated() where states[k] > 0 {
                    let value = values[k] ?? 0
                    members.append("\"\(channel.rawValue)\":" + (states[k] == 1 ? "null" : "\(value)"))
                    if states[k] == 2 { written[channel] = value }
                }
                if ignored { members.append(#""note":{"x":[1e400,true,"y"]}"#) }
                // Keys in a different order for each sample.
                let shift = objects.count % members.count
                objects.append("{" + (members[shift...] + members[..<shift]).joined(separator: ",") + "}")
                expected.append((t, written))
            }
            let text = "[" + objects.joined(separator: ",") + "]"
            guard let samples = WorkoutSamples.parse(json: text) else {
                Issue.record("refused: \(text)")
                return
            }
            // Stable by time: equal times keep their order in the text.
            let sorted = expected.enumerated().sorted { ($0.element.t, $0.offset) < ($1.element.t, $1.offset) }
            #expect(samples.samples.count == sorted.count)
            for (got, (_, want)) in zip(samples.samples, sorted) {
                #expect(got.t.bitPattern == want.t.bitPattern)
                #expect(got.values.mapValues(\.bitPattern) == want.values.mapValues(\.bitPattern))
            }
        }
    }
}
