/// Mean-maximal power for the standard durations: for each duration d, the highest mean
/// power over d consecutive seconds that all have a power value (a window never spans a
/// gap); `nil` for a duration with no such window.
///
/// Encoded as the JSON object of docs/metrics.md's `mmp_w`:
/// `{"1": …, "5": …, "10": …, "30": …, "60": …, "120": …, "300": …, "600": …, "1200": …,
/// "1800": …, "3600": …}` with `null` for durations that have no window.
public struct MeanMaximalPower: Sendable, Equatable, Codable {
    /// The standard durations, s, in output order.
    public static let durations: [Int] = [1, 5, 10, 30, 60, 120, 300, 600, 1200, 1800, 3600]

    /// `values[k]` belongs to `durations[k]`.
    public private(set) var values: [Double?]

    /// - Parameter values: one value per entry of `durations`, in that order.
    public init(values: [Double?]) {
        precondition(values.count == Self.durations.count, "one value per standard duration")
        self.values = values
    }

    /// The mean-maximal power for `seconds`, if it is a standard duration with a window.
    public subscript(seconds seconds: Int) -> Double? {
        guard let k = Self.durations.firstIndex(of: seconds) else { return nil }
        return values[k]
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: JSONKey.self)
        for (d, v) in zip(Self.durations, values) {
            let key = JSONKey(stringValue: String(d))
            if let v { try container.encode(v, forKey: key) } else { try container.encodeNil(forKey: key) }
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: JSONKey.self)
        values = try Self.durations.map {
            try container.decodeIfPresent(Double.self, forKey: JSONKey(stringValue: String($0)))
        }
    }
}
