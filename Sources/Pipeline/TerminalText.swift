/// Text from inputs (a session id, a file name, a rejection message quoting them) made safe to print on a terminal
/// or in a plain-text log line: control characters (C0, DEL, C1 — escape sequences could rewrite the operator's
/// screen or forge log lines) and the backslash become Swift-style escapes (`\u{1B}`, `\n`, `\\`); everything else is
/// kept. JSON output needs no such care: its encoder escapes control characters itself.
public enum TerminalText {
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where needsEscape(scalar): out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\\"
    }
}
