import ArgumentParser
import FTMSDecode
import FTMSRender
import Foundation
import Store

struct DecodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract:
            "Decode a raw BLE blob (file, or Base64 on stdin) or one characteristic value; one JSON object per record.",
        discussion: """
            Examples:
              pipeline decode session.blob
              echo U0ZSQgEBAAAAGc1PmwEAANwFAADSKgAIRADECbQAyAA= | pipeline decode
              pipeline decode --uuid 2AD2 --hex "44 00 c4 09 b4 00 c8 00"
            Exits 0 when the blob was read (even with undecodable records, reported per record), 65 when it was rejected.
            """)

    @Argument(help: "Blob file; omit to read Base64 from stdin.") var file: String?
    @Option(help: "Characteristic UUID (16-bit hex, e.g. 2AD2) of a single value given with --hex.") var uuid: String?
    @Option(help: "Hex bytes of a single value (spaces allowed).") var hex: String?

    func run() async throws {
        try await runReportingErrors {
            if let hex {
                guard let uuidText = uuid, let u = UInt16(uuidText.replacingOccurrences(of: "0x", with: ""), radix: 16)
                else {
                    throw CLIError.usage("--hex needs --uuid with a 16-bit hex UUID")
                }
                guard let bytes = Self.parseHex(hex) else { throw CLIError.usage("--hex is not hex bytes") }
                print(
                    CharacteristicDecoder.decode(uuid: u, kind: nil, payload: bytes).jsonObject(
                        timeMillis: 0, kind: nil))
                return
            }
            let bytes: [UInt8]
            if let file {
                guard FileManager.default.fileExists(atPath: file) else {
                    throw CLIError.notFound("no such file: \(file)")
                }
                bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
            } else {
                let text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                guard let data = Data(base64Encoded: text) else { throw CLIError.usage("stdin is not standard Base64") }
                bytes = [UInt8](data)
            }
            let blob: Blob
            do { blob = try BlobReader.read(bytes) } catch {
                FileHandle.standardError.write(Data("error: blob rejected: \(error)\n".utf8))
                throw ExitCode(65)
            }
            for record in blob.records {
                print(
                    CharacteristicDecoder.decode(
                        uuid: record.uuid, kind: RecordKind(rawValue: record.kindRaw), payload: record.payload
                    )
                    .jsonObject(timeMillis: record.timeMillis, kindRaw: record.kindRaw))
            }
            switch blob.end {
            case .complete: break
            case .truncated(let offset):
                FileHandle.standardError.write(
                    Data(
                        "warning: blob truncated at byte \(offset); \(blob.records.count) complete records decoded\n"
                            .utf8))
            case .corrupted(let offset, let reason):
                FileHandle.standardError.write(Data("warning: blob corrupted at byte \(offset): \(reason)\n".utf8))
            }
        }
    }

    static func parseHex(_ text: String) -> [UInt8]? {
        bytesFromHex(text.filter { !$0.isWhitespace && $0 != ":" && $0 != "-" })
    }
}
