import CivilDate
import Foundation
import Logging
import Pipeline

/// Logs one line per event on stderr: a JSON object (`ts`, `level`, `logger`, `msg`, metadata) or plain text.
struct StructuredLogHandler: LogHandler {
    let label: String
    let json: Bool
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    init(label: String, json: Bool) { self.label = label; self.json = json }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let timestamp = ISO8601DateFormatter().string(from: Date())
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { $1 } }
        var line: String
        if json {
            // Written by the package's JSON writer, keys sorted as `JSONSerialization` sorts them (`SortedJSON`).
            var object: [String: SortedJSON] = [
                "ts": .string(timestamp), "level": .string(event.level.rawValue), "logger": .string(label),
                "msg": .string("\(event.message)"),
            ]
            for (k, v) in merged { object[k] = .string("\(v)") }
            line = SortedJSON.object(object).text
        } else {
            // Messages and values may quote inputs: escaped, so that one line stays one line and nothing reaches the
            // terminal as a control sequence.
            line = "\(timestamp) \(event.level.rawValue) \(label): \(TerminalText.escaped("\(event.message)"))"
            for (k, v) in merged.sorted(by: { $0.key < $1.key }) {
                line += " \(TerminalText.escaped(k))=\(TerminalText.escaped("\(v)"))"
            }
        }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
