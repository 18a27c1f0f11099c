/// A JSON object's key by its text, for the documents whose keys are data (MMP durations, metric symbols, channel
/// names) rather than a fixed `CodingKeys` enum.
struct JSONKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
