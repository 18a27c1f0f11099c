import Foundation
import Store
import Testing
import WorkoutMetrics

@testable import Pipeline

/// The metrics read a record's samples the same whichever way they are stored: columns give the samples that their
/// JSON text gives through `WorkoutSamples.parse(json:)`, value for value and bit for bit, at a double's full
/// precision too (17 significant digits; Foundation's `JSONSerialization`, which `parse(json:)` used before, was an ulp
/// off there).
@Suite struct StoredWorkoutSamplesTests {
    /// Seeded columns: 1 Hz or irregular times, channels absent, sparse or full, whole numbers and decimals of up to
    /// 15 significant digits.
    static func columns(seed: UInt64, count: Int) -> SampleColumns {
        var state = seed
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
        var values: [SampleColumns.Channel: [Double]] = [
            .t: (0..<count).map { Double($0) * (seed % 2 == 0 ? 1 : 1.5) + Double(next() % 3) / 10 }
        ]
        for channel in SampleColumns.Channel.allCases.dropFirst() where next() % 3 != 0 {
            values[channel] = (0..<count).map { _ -> Double in
                switch next() % 5 {
                case 0: .nan
                case 1: Double(next() % 300)
                case 2: Double(next() % 100_000) / 100
                case 3: Double(next() % 1_000_000_000_000) / 1_000
                default: -Double(next() % 1000) / 1000
                }
            }
        }
        return SampleColumns(count: count, values: values)!
    }

    @Test func columnsAndTheirJSONGiveTheSameSamples() throws {
        for seed in 1...40 as ClosedRange<UInt64> {
            let c = Self.columns(seed: seed, count: Int(seed * 37 % 500) + 1)
            let fromJSON = try #require(WorkoutSamples.parse(json: c.canonicalJSON))
            let fromColumns = try #require(WorkoutSamples.parse(stored: .columns(c)))
            #expect(fromColumns.samples.count == c.count)
            #expect(fromJSON.samples.map(\.t).map(\.bitPattern) == fromColumns.samples.map(\.t).map(\.bitPattern))
            for (a, b) in zip(fromJSON.samples, fromColumns.samples) {
                #expect(a.values.mapValues(\.bitPattern) == b.values.mapValues(\.bitPattern))
            }
        }
    }

    /// A double at full precision (17 significant digits) is read from the columns' text exactly — the double Swift's
    /// own parser gives for its text — and kept exactly in columns.
    @Test func fullPrecisionNumbersAreExact() throws {
        var state: UInt64 = 3
        for _ in 0..<2_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let x = Double(state >> 11) / Double(1 << 40)
            let text = #"[{"power_w":\#(x),"t":0}]"#
            let columns = try #require(SampleColumns(canonicalJSON: text))
            #expect(columns.column(.powerW)[0].bitPattern == x.bitPattern)
            #expect(Double("\(x)")?.bitPattern == x.bitPattern)
            #expect(columns.canonicalJSON == text)
            let fromJSON = try #require(WorkoutSamples.parse(json: text))
            #expect(fromJSON.samples.first?.values[.powerW]?.bitPattern == x.bitPattern)
        }
    }

    /// The rules of `parse(json:)` hold for columns: no samples, or a time past 7 days (`maxSampleTimeS`, as long as a
    /// file may last), is not a series.
    @Test func theSameRulesRefuseTheSameSamples() throws {
        let empty = try #require(SampleColumns(count: 0, values: [:]))
        #expect(WorkoutSamples.parse(stored: .columns(empty)) == nil)
        #expect(WorkoutSamples.parse(json: empty.canonicalJSON) == nil)
        let late = try #require(SampleColumns(count: 2, values: [.t: [0, 604_801], .hrBpm: [120, 121]]))
        #expect(WorkoutSamples.parse(stored: .columns(late)) == nil)
        #expect(WorkoutSamples.parse(json: late.canonicalJSON) == nil)
        let fine = try #require(SampleColumns(count: 2, values: [.t: [0, 604_800], .hrBpm: [120, .nan]]))
        #expect(WorkoutSamples.parse(stored: .columns(fine))?.channels == [.hrBpm])
        #expect(ActivityDuplicates.recording(samples: .columns(fine)) == .samples)
        #expect(ActivityDuplicates.recording(samplesJSON: fine.canonicalJSON) == .samples)
    }
}
