import Foundation
import SyntheticData

/// Seeded random JSON texts for differential tests of the batch reader against Foundation: nested values with
/// escapes, non-ASCII text, numbers of every form and random white space between tokens.
struct RandomJSON {
    var rng: SeededRandom
    init(seed: UInt64) { rng = SeededRandom(seed: seed) }

    mutating func whitespace() -> String {
        guard Int.random(in: 0..<4, using: &rng) == 0 else { return "" }
        return String(
            (0..<Int.random(in: 1...3, using: &rng)).map { _ in [" ", "\n", "\t", "\r"].randomElement(using: &rng)! })
    }

    mutating func number() -> String {
        switch Int.random(in: 0..<7, using: &rng) {
        case 0: return String(Int.random(in: -100_000...100_000, using: &rng))
        case 1: return ["0", "-0", "0.0", "-0.0", "1e0", "0e5", "1E+2", "25e-1"].randomElement(using: &rng)!
        case 2: return "\(Int.random(in: -999...999, using: &rng)).\(Int.random(in: 0...99999, using: &rng))"
        case 3:
            let mantissa = "\(Int.random(in: 1...9, using: &rng)).\(UInt64.random(in: 0...UInt64(1e17), using: &rng))"
            return
                "\(Bool.random(using: &rng) ? "-" : "")\(mantissa)\(["e", "E"].randomElement(using: &rng)!)\(Int.random(in: -320...307, using: &rng))"
        case 4:
            return String(UInt64.random(in: 0...UInt64.max, using: &rng))
                + String(Int.random(in: 0...999_999, using: &rng))
        case 5: return String(Double.random(in: -1e6...1e6, using: &rng))
        default: return String(Int.random(in: 0...250, using: &rng))
        }
    }

    mutating func string() -> String {
        let pieces = [
            "a", "Z", "9", " ", "é", "😀", "ß", "日本", "\\\"", "\\\\", "\\/", "\\n", "\\t", "\\b", "\\f", "\\r",
            "\\u00e9", "\\u0000", "\\u001f", "\\ud83d\\ude00", "\\uD834\\uDD1E", "\\u2028", "e\\u0301", "+/=", "key",
        ]
        return "\"" + (0..<Int.random(in: 0...6, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            + "\""
    }

    mutating func value(depth: Int = 0) -> String {
        let kind = depth >= 4 ? Int.random(in: 0..<4, using: &rng) : Int.random(in: 0..<6, using: &rng)
        switch kind {
        case 0: return ["null", "true", "false"].randomElement(using: &rng)!
        case 1: return number()
        case 2, 3: return string()
        case 4:
            let items = (0..<Int.random(in: 0...4, using: &rng)).map { _ in
                whitespace() + value(depth: depth + 1) + whitespace()
            }
            return "[" + items.joined(separator: ",") + whitespace() + "]"
        default:
            var keys = Set<String>()
            while keys.count < Int.random(in: 0...4, using: &rng) {
                keys.insert(["id", "a", "b", "raw", "detail", "x\\ny", "é", "sessions"].randomElement(using: &rng)!)
            }
            let items = keys.sorted().shuffled(using: &rng).map {
                "\(whitespace())\"\($0)\"\(whitespace()):\(whitespace())\(value(depth: depth + 1))\(whitespace())"
            }
            return "{" + items.joined(separator: ",") + whitespace() + "}"
        }
    }

    /// A batch body: sessions with plain, escaped, null or non-string `raw`, and sometimes other top-level keys.
    mutating func batch() -> String {
        let sessions = (0..<Int.random(in: 0...5, using: &rng)).map { _ -> String in
            var fields = ["\"session_id\": \(string())", "\"duration\": \(number())", "\"detail\": \(value(depth: 2))"]
            switch Int.random(in: 0..<6, using: &rng) {
            case 0:
                fields.append(
                    "\"raw\": \"\(Data((0..<Int.random(in: 0...40, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }).base64EncodedString())\""
                )
            case 1: fields.append("\"raw\": \"U0ZS\\/QgE=\"")
            case 2: fields.append("\"raw\": null")
            case 3: fields.append("\"raw\": \(number())")
            case 4: fields.append("\"raw\": \(string())")
            default: break
            }
            if Int.random(in: 0..<8, using: &rng) == 0 { return value(depth: 2) }
            return "{" + fields.shuffled(using: &rng).joined(separator: "," + whitespace()) + "}"
        }
        var top = ["\"sessions\":\(whitespace())[\(sessions.joined(separator: ","))]"]
        if Bool.random(using: &rng) { top.append("\"client\": \(value(depth: 1))") }
        return whitespace() + "{" + top.shuffled(using: &rng).joined(separator: ",") + "}" + whitespace()
    }

    /// One random edit: a byte removed, inserted or replaced, or the text cut short.
    mutating func mutate(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return bytes }
        let at = Int.random(in: 0..<bytes.count, using: &rng)
        let significant =
            Array("{}[]:,\"\\ -+.eE0123456789tfnul\u{7f}".utf8) + [0x00, 0x0A, 0xC3, 0xFF, 0xEF, 0xBB, 0xBF]
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: bytes.remove(at: at)
        case 1: bytes.insert(significant.randomElement(using: &rng)!, at: at)
        case 2: bytes[at] = significant.randomElement(using: &rng)!
        default: bytes.removeSubrange(at...)
        }
        return bytes
    }
}
