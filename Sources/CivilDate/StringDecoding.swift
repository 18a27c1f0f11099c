/// Values written as one JSON string (a `LocalDate`, the plan's screen state): read the string, then parse it.
extension SingleValueDecodingContainer {
    /// The string here read by `parse`; a `dataCorrupted` error saying what was `expected` (and what was found) when
    /// `parse` gives nil.
    public func decode<Value>(parsing parse: (String) -> Value?, expected: String) throws -> Value {
        let text = try decode(String.self)
        guard let value = parse(text) else {
            throw DecodingError.dataCorruptedError(in: self, debugDescription: "expected \(expected), found \(text)")
        }
        return value
    }
}
