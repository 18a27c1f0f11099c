import FTMSRender
@_exported import TestKit
import Testing

@testable import FTMSDecode

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
