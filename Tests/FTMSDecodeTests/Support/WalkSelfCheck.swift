// The streaming walk checked against the checked walk, for the tests (DecodeFastPathTests) and the fuzz target
// (Fuzz/run.sh compiles this file into the module): test code, kept out of the library.

@testable import FTMSDecode

/// Records what a walk hands over.
struct FieldRecording: DataFieldVisitor, FieldSink, Equatable {
    var flags: UInt32? = nil
    var fields: [String] = []
    mutating func flags(_ raw: UInt32) { flags = raw }
    mutating func field(_ field: DataField, raw: Int, divisor: Double) {
        fields.append("\(field.rawValue)=\(raw)/\(divisor)")
    }
    mutating func field(slot: Int, _ field: DataField, _ type: WireType, raw: Int, divisor: Double) {
        self.field(field, raw: raw, divisor: divisor)
    }
}

/// The flagged characteristics' values.
protocol FlaggedDataCharacteristic {
    static func fastPathMatchesCheckedWalk(_ payload: UnsafeRawBufferPointer) -> Bool
}

extension FlaggedRecord: FlaggedDataCharacteristic {
    /// The decoder's path (one length check, then unchecked reads) and the checked walk (every read checked, the first
    /// short field throws) hand over the same fields and consume the same octets — or throw the same error, the
    /// decoder's path having visited nothing.
    static func fastPathMatchesCheckedWalk(_ payload: UnsafeRawBufferPointer) -> Bool {
        var fastCursor = ByteCursor(payload)
        var fast = FieldRecording()
        let fastError: DecodeError?
        do throws(DecodeError) { try Layout.visitFields(&fastCursor, &fast); fastError = nil } catch {
            fastError = error
        }

        var checkedCursor = ByteCursor(payload)
        var checked = FieldRecording()
        let checkedError: DecodeError?
        do throws(DecodeError) {
            let flags = try Layout.readFlags(&checkedCursor)
            checked.flags(flags)
            try Layout.checkedWalk(&checkedCursor, present: Layout.present(flags: flags), &checked)
            checkedError = nil
        } catch {
            checkedError = error
        }
        switch (fastError, checkedError) {
        case (nil, nil): return fast == checked && fastCursor.offset == checkedCursor.offset
        case (let x?, let y?): return x == y && fast == FieldRecording()
        default: return false
        }
    }
}
