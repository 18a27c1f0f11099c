import CZlib
import Foundation
import TestKit

/// Decoders for checking the server's gzip bodies without the server's own code: zlib's inflate
/// (a different code path from the deflate that produced them), a bitwise CRC-32 and GNU gzip.
enum GzipCheck {
    /// The decompressed bytes of one gzip member (RFC 1952) through zlib's inflate; nil if it is
    /// not one complete, valid member (inflate checks the header, the CRC-32 and the length).
    static func inflate(_ compressed: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        guard czlib_inflate_init_gzip(&stream) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        var status = Z_OK
        compressed.withUnsafeBufferPointer { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = uInt(input.count)
            while status == Z_OK {
                chunk.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    output.append(contentsOf: out.prefix(out.count - Int(stream.avail_out)))
                }
            }
        }
        // The whole input must be the member: nothing left over.
        guard status == Z_STREAM_END, stream.avail_in == 0 else { return nil }
        return output
    }

    /// CRC-32 as RFC 1952 §8 defines it (reflected polynomial 0xEDB88320), bit by bit.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// A little-endian 32-bit field of a gzip trailer.
    static func littleEndian32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    static let gnuGzip = "/bin/gzip"

    /// `gzip -dc` of the bytes (GNU gzip, its own inflate implementation); nil if it fails.
    static func gunzipWithGNUGzip(_ compressed: [UInt8]) throws -> [UInt8]? {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gzip-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("body.gz")
        try Data(compressed).write(to: input)
        let gzip = try Spawn.output(gnuGzip, ["-dc", input.path])
        return gzip.exit == ChildExit(status: 0, bySignal: false) ? Array(gzip.stdout) : nil
    }
}

/// A `marathon-plan/1` document of `weeks` Monday weeks of seven days with one easy run each from
/// 2026-01-05: large enough (several KB) for the server to keep a gzip copy of.
func largePlanDocument(weeks: Int = 16) -> String {
    var start = DateComponents(
        calendar: Calendar(identifier: .gregorian), timeZone: TimeZone(identifier: "UTC"),
        year: 2026, month: 1, day: 5
    ).date!
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd"
    var weekTexts: [String] = []
    for index in 1...weeks {
        let weekStart = formatter.string(from: start)
        var days: [String] = []
        for day in 0..<7 {
            let date = formatter.string(from: start.addingTimeInterval(Double(day) * 86400))
            days.append(
                #"{"date":"\#(date)","workouts":[{"type":"easy","distance_km":\#(6 + (index + day) % 5),"pace":"easy"}]}"#
            )
        }
        weekTexts.append(
            #"{"index":\#(index),"start_date":"\#(weekStart)","phase":"base","days":[\#(days.joined(separator: ","))]}"#
        )
        start = start.addingTimeInterval(7 * 86400)
    }
    return """
        {"format":"marathon-plan/1","request":{"timezone":"Europe/Berlin","start_date":"2026-01-05"},
         "plan":{"timezone":"Europe/Berlin","week_start":"mon","race_date":"2026-04-26",
          "paces":{"easy":{"min_s_per_km":330,"max_s_per_km":370}},"warnings":[],
          "weeks":[\(weekTexts.joined(separator: ","))]}}
        """
}
