import CBase64
import Foundation

/// Base64 (RFC 4648 §4, standard alphabet, padded) decoded straight into bytes.
///
/// The accepted language is exactly `Data(base64Encoded:)`'s (no options), which is what the ingest rules were
/// written against: `decode` handles the canonical form — alphabet characters, `=` only as the last one or two
/// characters — with a table per position and no intermediate `Data` or `String`; anything else (stray `=`,
/// white space, other characters) is left to Foundation, so its odd corners (`====` decodes to one zero byte)
/// stay as they were. The caller checks that the length is a multiple of 4 first. On a processor with AVX2 the
/// bulk of a long text is decoded 32 characters at a time (`CBase64`; docs/inbox.md, "Base64 of the recordings"),
/// the rest by the table.
public enum Base64 {
    /// Decodes `text`; nil when Foundation's decoder rejects it too.
    @inline(__always)
    public static func decode(_ text: UnsafeRawBufferPointer) -> [UInt8]? {
        if let bytes = decodeCanonical(text) { return bytes }
        return Data(base64Encoded: String(decoding: text, as: UTF8.self)).map { [UInt8]($0) }
    }

    /// Whether `decodeCanonical` decodes in 32-character blocks on this processor (AVX2).
    static let blocksAvailable = pipeline_base64_has_simd() != 0

    /// The fast path: nil for anything but canonical padded Base64 (including lengths not a multiple of 4).
    /// `blocks`: whether the bulk may go to `CBase64` (false: the table alone; tests compare the two).
    static func decodeCanonical(_ text: UnsafeRawBufferPointer, blocks: Bool = true) -> [UInt8]? {
        let n = text.count
        guard n % 4 == 0 else { return nil }
        if n == 0 { return [] }
        let pad = text[n - 1] == UInt8(ascii: "=") ? (text[n - 2] == UInt8(ascii: "=") ? 2 : 1) : 0
        let outCount = n / 4 * 3 - pad
        var ok = true
        let out = [UInt8](unsafeUninitializedCapacity: outCount) { buffer, initialized in
            tables.withUnsafeBufferPointer { t in
                let src = text.baseAddress!.assumingMemoryBound(to: UInt8.self)
                let dst = buffer.baseAddress!
                let full = (n - (pad > 0 ? 4 : 0)) / 4
                var bad: UInt32 = 0
                var s = 0, d = 0
                // Whole blocks of 32 characters first, stopping 8 bytes short of the output's end (each block
                // stores 32 bytes for its 24). A block with a character outside the alphabet (a stray `=`
                // included) makes the text not canonical: nil, as the table would find.
                if blocks && outCount > 32 {
                    var invalid: Int32 = 0
                    s = Int(pipeline_base64_decode_blocks(src, min(full * 4, (outCount - 8) / 3 * 4), dst, &invalid))
                    if invalid != 0 {
                        ok = false
                        return
                    }
                    d = s / 4 * 3
                }
                // The remaining full quads: one lookup per character; an invalid character sets bit 24 or above.
                for _ in (s / 4)..<full {
                    let v =
                        t[Int(src[s])] | t[256 + Int(src[s + 1])] | t[512 + Int(src[s + 2])] | t[768 + Int(src[s + 3])]
                    bad |= v
                    dst[d] = UInt8(truncatingIfNeeded: v >> 16)
                    dst[d + 1] = UInt8(truncatingIfNeeded: v >> 8)
                    dst[d + 2] = UInt8(truncatingIfNeeded: v)
                    s += 4
                    d += 3
                }
                if pad > 0 {
                    // The last quad: "xx==" or "xxx=". Bits below the last whole byte are ignored, as Foundation does.
                    let c = pad == 1 ? t[512 + Int(src[s + 2])] : 0
                    let v = t[Int(src[s])] | t[256 + Int(src[s + 1])] | c
                    bad |= v
                    dst[d] = UInt8(truncatingIfNeeded: v >> 16)
                    if pad == 1 { dst[d + 1] = UInt8(truncatingIfNeeded: v >> 8) }
                }
                ok = bad < invalid
            }
            initialized = outCount
        }
        return ok ? out : nil
    }

    private static let invalid: UInt32 = 1 << 24

    /// For each of the four positions in a quad, 256 entries: the character's six bits shifted into place, or
    /// `invalid`.
    private static let tables: [UInt32] = {
        var sextet = [UInt32](repeating: invalid, count: 256)
        for (i, c) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            sextet[Int(c)] = UInt32(i)
        }
        return [18, 12, 6, 0].flatMap { shift in sextet.map { $0 == invalid ? invalid : $0 << UInt32(shift) } }
    }()
}
