import Foundation
import Pipeline
import Store
import StoreSQLite
import Testing

/// Input text printed for an operator (issue 14): control characters from a hostile `session_id` never reach the
/// terminal raw.
@Suite struct TerminalTextTests {
    @Test func controlCharactersAndBackslashesAreEscapedTheRestKept() {
        #expect(TerminalText.escaped("plain id 123 é漢字") == "plain id 123 é漢字")
        #expect(TerminalText.escaped("\u{1B}[31mred\u{1B}[0m") == "\\u{1B}[31mred\\u{1B}[0m")
        #expect(TerminalText.escaped("a\nb\rc\td") == "a\\nb\\rc\\td")
        #expect(TerminalText.escaped("x\u{7F}\u{85}\u{9B}y\u{0}") == "x\\u{7F}\\u{85}\\u{9B}y\\u{0}")
        #expect(TerminalText.escaped("back\\slash") == "back\\\\slash")
        // Nothing below 0x20, DEL or C1 survives, whatever the input.
        let all =
            String(decoding: (0..<256).map { UInt8($0) }, as: UTF8.self)
            + String((0x80...0x9F).map { Character(Unicode.Scalar($0)!) })
        #expect(
            !TerminalText.escaped(all).unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }

    @Test func quarantineListPrintsHostileIdsEscaped() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let db = root.appendingPathComponent("db.sqlite").path
        let store = try SQLiteStore(path: db)
        let evil = "\u{1B}]0;owned\u{7}\u{1B}[2J\nFAKE LOG LINE"
        _ = try await store.apply(
            IngestUnit(quarantine: [
                QuarantineRecord(
                    userID: nil, source: "inbox", sourceKey: "sessions/x/\(evil).json#0", recordID: evil,
                    reasonCode: .rejected(.invalidSessionID),
                    message: "session_id \(evil) is not a UUID", payload: Array("{}".utf8), receivedAt: 0,
                    quarantinedAt: 0)
            ]))
        let out = root.appendingPathComponent("out.txt"), err = root.appendingPathComponent("err.txt")
        let child = try ChildProcess(
            try PipelineBinary.locate(), ["quarantine", "list", "--db", db],
            environment: ["PIPELINE_LOG_FORMAT": "text"], stdout: out, stderr: err)
        let exit = await child.wait()
        #expect(exit.status == 0)
        let printed = try Data(contentsOf: out)
        #expect(!printed.contains(0x1B) && !printed.contains(0x07))
        #expect(String(decoding: printed, as: UTF8.self).contains("\\u{1B}[2J\\nFAKE LOG LINE"))
        // One record, one line.
        #expect(String(decoding: printed, as: UTF8.self).split(separator: "\n").filter { $0.hasPrefix("#") }.count == 1)
    }
}
