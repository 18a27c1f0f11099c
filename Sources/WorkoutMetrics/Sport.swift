/// The sport of a session; the raw values are the `sport` strings of the stream document
/// (docs/metrics.md, "Computing metrics for any stream").
public enum Sport: String, Sendable, Codable, CaseIterable {
    case bike, row, run, treadmill
}
