import Store
import WorkoutMetrics

extension WorkoutSamples {
    /// A record's samples as the metrics read them, from either stored form (`StoredSamples`): JSON text
    /// through `parse(json:)`; columns directly, by the same rules (at least one sample, every `t` from 0 to 86,400 s),
    /// so that a record gives the same samples whether it was stored as JSON or in columns.
    public static func parse(stored: StoredSamples.Value) -> WorkoutSamples? {
        switch stored {
        case .json(let text): return parse(json: text)
        case .columns(let columns):
            guard columns.count > 0 else { return nil }
            let t = columns.column(.t)
            guard t.allSatisfy({ $0 >= 0 && $0 <= WorkoutSamples.maxSampleTimeS }) else { return nil }
            let channels: [(Channel, [Double])] = Channel.allCases.compactMap { channel in
                let column = columns.column(Self.column(channel))
                return column.isEmpty ? nil : (channel, column)
            }
            var samples: [Sample] = []
            samples.reserveCapacity(columns.count)
            for i in 0..<columns.count {
                var values: [Channel: Double] = [:]
                for (channel, column) in channels where !column[i].isNaN { values[channel] = column[i] }
                samples.append(Sample(t: t[i], values: values))
            }
            return WorkoutSamples(samples: samples)
        }
    }

    static func column(_ channel: Channel) -> SampleColumns.Channel {
        switch channel {
        case .hrBpm: .hrBpm
        case .powerW: .powerW
        case .cadenceRpm: .cadenceRpm
        case .speedMps: .speedMps
        case .distanceM: .distanceM
        case .altitudeM: .altitudeM
        case .grade: .grade
        }
    }
}
