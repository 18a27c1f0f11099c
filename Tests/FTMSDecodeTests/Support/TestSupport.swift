@_exported import TestKit
import Testing

@testable import FTMSDecode

/// Bytes from hex text: "44 00 C4-09" (spaces, dashes and "0x" ignored).
func hex(_ text: String) -> [UInt8] {
    let clean = text.replacingOccurrences(of: "0x", with: "").filter { $0.isHexDigit }
    precondition(clean.count % 2 == 0, "odd hex digit count in \(text)")
    var out: [UInt8] = []
    var index = clean.startIndex
    while index < clean.endIndex {
        let next = clean.index(index, offsetBy: 2)
        out.append(UInt8(clean[index..<next], radix: 16)!)
        index = next
    }
    return out
}

extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        var out = ""
        var rest = Substring(self)
        while let range = rest.range(of: target) {
            out += rest[..<range.lowerBound]
            out += replacement
            rest = rest[range.upperBound...]
        }
        return out + rest
    }
}

extension Substring {
    func range(of target: String) -> Range<Substring.Index>? {
        guard !target.isEmpty else { return nil }
        var index = startIndex
        while index < endIndex {
            if self[index...].hasPrefix(target) { return index..<self.index(index, offsetBy: target.count) }
            index = self.index(after: index)
        }
        return nil
    }
}

/// Decodes through the dispatcher (the `pipeline decode` path).
func decoded(_ uuid: UInt16, _ hexText: String, kind: RecordKind? = .notification) -> DecodedValue {
    CharacteristicDecoder.decode(uuid: uuid, kind: kind, payload: hex(hexText))
}

/// Field list as (name, value) pairs, for whole-list comparisons (names, order and values).
func pairs(_ value: DecodedValue) -> [Pair] { value.fields.map { Pair($0.name, $0.value) } }

struct Pair: Equatable, CustomStringConvertible {
    var name: String
    var value: FieldValue
    init(_ name: String, _ value: FieldValue) {
        self.name = name
        self.value = value
    }
    var description: String { "\(name)=\(value.jsonFragment())" }
}

func p(_ name: String, _ value: Int) -> Pair { Pair(name, .int(value)) }
func p(_ name: String, _ value: Double) -> Pair { Pair(name, .double(value)) }
func p(_ name: String, _ value: Bool) -> Pair { Pair(name, .bool(value)) }
func p(_ name: String, _ value: String) -> Pair { Pair(name, .string(value)) }
func p(_ name: String, _ value: FieldValue) -> Pair { Pair(name, value) }

/// A fixed-seed generator (SplitMix64) for repeatable random tests.
typealias SeededGenerator = SplitMix64
