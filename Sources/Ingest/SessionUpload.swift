import FTMSDecode
import Foundation
import Store

/// One session as the SolidFocus app uploads it (`POST /sessions/batch_upload`, docs/inbox.md):
/// `session_id`, `started_at`, `ended_at`, `duration` (s), `total_energy` (kcal), `total_distance` (m),
/// `detail` (object: `avg_hr`, `avg_power`, …) and optional `raw` (Base64 of the BLE recording).
public struct SessionUpload: Sendable, Equatable {
    public var sessionID: SessionID
    public var startedAtText: String
    public var endedAtText: String
    public var startedAt: Int64
    public var endedAt: Int64
    public var duration: Double
    public var totalEnergy: Double
    public var totalDistance: Double
    public var detail: JSONValue
    public var raw: [UInt8]?
    /// The `raw` text as sent (UTF-8), set once it has decoded as Base64.
    public internal(set) var rawText: ArraySlice<UInt8>?
    /// True when `rawText` is known to hold only Base64 alphabet characters and `=` (the canonical decoder took
    /// it), so it goes into the canonical text without escaping.
    var rawTextIsPlain = false
    public var rawBase64: String? { rawText.map { String(decoding: $0, as: UTF8.self) } }
    /// Set when the blob was read: its status, the machine and a note (truncation offset etc.).
    public var blobStatus: BlobStatus
    public var blobNote: String?
    public var machine: String?

    /// The session in canonical form (keys sorted, id lower-cased, timestamps as epoch milliseconds): equal
    /// uploads give equal text, whatever their key order, spacing or id case. This is the definition behind
    /// every stored `content_sha256`; `canonicalBytes` builds the same bytes faster.
    public var canonicalJSON: String {
        var canonical = summaryFields
        if let rawBase64 { canonical["raw"] = .string(rawBase64) }
        return JSONValue.object(canonical).canonicalText
    }

    private var summaryFields: [String: JSONValue] {
        [
            "session_id": .string(sessionID.rawValue), "started_at": .number(Double(startedAt)),
            "ended_at": .number(Double(endedAt)), "duration": .number(duration), "total_energy": .number(totalEnergy),
            "total_distance": .number(totalDistance), "detail": detail,
        ]
    }

    /// `Array(canonicalJSON.utf8)`, built without making a `String` of the recording: the small fields are
    /// serialised as before and the Base64 text is copied in once at its sorted place (it needs no escaping when
    /// the canonical decoder took it; otherwise the text is built the slow way).
    public var canonicalBytes: [UInt8] {
        if rawText != nil, !rawTextIsPlain { return Array(canonicalJSON.utf8) }
        var out: [UInt8] = []
        out.reserveCapacity((rawText?.count ?? 0) + 512)
        writeCanonicalPieces { out.append(contentsOf: $0) }
        return out
    }

    /// SHA-256 of `canonicalJSON` (lower-case hex): the same id with another hash is a conflict. The pieces of
    /// `canonicalBytes` go to the hash as they are made, the recording's text from where it lies in the batch: no
    /// copy of the session's canonical text is made to be hashed (it was a copy of the whole upload a session).
    public var contentHash: String {
        if rawText != nil, !rawTextIsPlain { return Hashing.sha256Hex(Array(canonicalJSON.utf8)) }
        return sha256Hex(pieces: writeCanonicalPieces)
    }

    /// `canonicalBytes` in pieces, in order, for an upload whose recording's text (if any) needs no escaping.
    private func writeCanonicalPieces(_ piece: (UnsafeRawBufferPointer) -> Void) {
        let fields = summaryFields
        let keys = (Array(fields.keys) + (rawText == nil ? [] : ["raw"])).sorted()
        var text = "{"
        for (i, key) in keys.enumerated() {
            if i > 0 { text += "," }
            if key == "raw", let rawText {
                text += "\"raw\":\""
                text.withUTF8 { piece(UnsafeRawBufferPointer($0)) }
                rawText.withUnsafeBytes { piece($0) }
                text = "\""
            } else {
                JSONValue.writeString(key, into: &text)
                text += ":"
                text += fields[key]!.canonicalText
            }
        }
        text += "}"
        text.withUTF8 { piece(UnsafeRawBufferPointer($0)) }
    }

    /// This upload's `canonicalBytes` again when asked, without holding on to the recording's text
    /// when that text is the standard Base64 of `raw`: then `raw`, which the stored session shares, is encoded
    /// again. Otherwise (no recording, or a text Foundation's decoder took in another spelling) the closure keeps the
    /// bytes or the fields themselves. The text is a slice of the whole batch file: keeping it would keep the file.
    func canonicalBytesOnDemand() -> @Sendable () -> [UInt8] {
        guard let rawText else {
            let upload = self
            return { upload.canonicalBytes }
        }
        guard rawTextIsPlain, let raw, Self.encodesExactly(raw, as: rawText) else {
            let canonical = canonicalBytes
            return { canonical }
        }
        var detached = self
        detached.rawText = nil
        let upload = detached
        return {
            var again = upload
            again.rawText = Array(Data(raw).base64EncodedString().utf8)[...]
            return again.canonicalBytes
        }
    }

    /// Whether `text`, canonical Base64 that decoded to `bytes`, is exactly their standard encoding. Every full
    /// quad of the text is its three bytes' only spelling; only a padded last quad can differ, by unused bits the
    /// decoder ignores ("QR==" and "QQ==" both decode to "A").
    static func encodesExactly(_ bytes: [UInt8], as text: ArraySlice<UInt8>) -> Bool {
        let tail = bytes.count % 3
        guard tail > 0 else { return text.count == bytes.count / 3 * 4 }
        return text.count == (bytes.count / 3 + 1) * 4
            && Array(Data(bytes.suffix(tail)).base64EncodedString().utf8) == Array(text.suffix(4))
    }

    /// The row the store keeps for this upload (`contentHash` passed in when the caller already has it).
    public func stored(user: UserID, source: String, receivedAt: Int64, contentHash: String? = nil) -> StoredSession {
        StoredSession(
            userID: user, sessionID: sessionID, startedAtText: startedAtText, endedAtText: endedAtText,
            startedAt: startedAt, endedAt: endedAt, durationS: duration, totalEnergyKcal: totalEnergy,
            totalDistanceM: totalDistance, detailJSON: detail.canonicalText, raw: raw, machine: machine,
            blobStatus: blobStatus, blobNote: blobNote, contentHash: contentHash ?? self.contentHash,
            source: source, receivedAt: receivedAt)
    }
}

/// Checks one uploaded session object against every rule and reads its blob.
public struct SessionValidator: Sendable {
    public var limits: IngestLimits
    public init(limits: IngestLimits = .init()) { self.limits = limits }

    /// The session id, if the object has a readable one (for error reports of otherwise broken records).
    public static func sessionIDText(of value: JSONValue) -> String? { value["session_id"]?.stringValue }

    public func validate(_ value: JSONValue, receivedAt: Int64) throws(Rejection) -> SessionUpload {
        try validate(value, rawText: nil, receivedAt: receivedAt)
    }

    /// `rawText`: the UTF-8 text of the session's `raw` string when the batch reader kept it out of `value`
    /// (then `value` has no `raw` key); nil to read `raw` from `value`.
    func validate(_ value: JSONValue, rawText plainRaw: ArraySlice<UInt8>?, receivedAt: Int64) throws(Rejection)
        -> SessionUpload
    {
        guard let object = value.objectValue else { throw Rejection(.invalidField, "A session must be a JSON object") }
        func string(_ key: String) throws(Rejection) -> String {
            guard let v = object[key], !v.isNull else { throw Rejection(.missingField, "Missing field: \(key)") }
            guard let s = v.stringValue else { throw Rejection(.invalidField, "Field \(key) must be a string") }
            return s
        }
        func number(_ key: String) throws(Rejection) -> Double {
            guard let v = object[key], !v.isNull else { throw Rejection(.missingField, "Missing field: \(key)") }
            guard let d = v.doubleValue, d.isFinite else {
                throw Rejection(.invalidField, "Field \(key) must be a number")
            }
            return d
        }
        let idText = try string("session_id")
        guard let sessionID = SessionID(uuidString: idText) else {
            throw Rejection(.invalidSessionID, "session_id is not a UUID")
        }
        let startedText = try string("started_at")
        let endedText = try string("ended_at")
        guard let started = RFC3339.parseMillis(startedText) else {
            throw Rejection(.invalidTimestamp, "started_at is not an RFC 3339 timestamp")
        }
        guard let ended = RFC3339.parseMillis(endedText) else {
            throw Rejection(.invalidTimestamp, "ended_at is not an RFC 3339 timestamp")
        }
        let duration = try number("duration")
        let energy = try number("total_energy")
        let distance = try number("total_distance")

        // Duration: positive, at most 24 h, and in agreement with the timestamps.
        guard duration > 0 else {
            throw Rejection(.invalidDuration, "Invalid duration: \(JSONValue.format(duration)) s (must be > 0)")
        }
        guard duration <= limits.maxDurationS else {
            throw Rejection(.invalidDuration, "Invalid duration: \(JSONValue.format(duration)) s (longer than 24 h)")
        }
        guard ended >= started else {
            throw Rejection(.invalidDuration, "Invalid duration: ended_at is before started_at")
        }
        let span = Double(ended - started) / 1000
        let tolerance = max(limits.durationToleranceS, limits.durationToleranceFraction * span)
        guard abs(span - duration) <= tolerance else {
            throw Rejection(
                .invalidDuration,
                "Invalid duration: \(JSONValue.format(duration)) s but ended_at − started_at is \(JSONValue.format(span)) s"
            )
        }
        guard Double(started - receivedAt) / 1000 <= limits.clockSkewAllowanceS else {
            throw Rejection(
                .startInFuture,
                "started_at is \(Int((Double(started - receivedAt) / 1000).rounded())) s after the upload was received")
        }
        guard started >= limits.earliestStartMillis else {
            throw Rejection(
                .startTooEarly, "started_at is before \(RFC3339.format(millis: limits.earliestStartMillis))")
        }
        guard energy >= 0 else { throw Rejection(.invalidEnergy, "total_energy is negative") }
        guard energy <= limits.maxEnergyKcalPerHour * max(duration, 60) / 3600 else {
            throw Rejection(
                .invalidEnergy,
                "total_energy \(JSONValue.format(energy)) kcal is impossible in \(JSONValue.format(duration)) s")
        }
        guard distance >= 0 else { throw Rejection(.invalidDistance, "total_distance is negative") }
        guard distance <= limits.maxSpeedMps * duration else {
            throw Rejection(
                .invalidDistance,
                "total_distance \(JSONValue.format(distance)) m is impossible in \(JSONValue.format(duration)) s")
        }
        let detail = object["detail"] ?? .object([:])
        guard detail.objectValue != nil else { throw Rejection(.invalidField, "Field detail must be an object") }
        guard detail.depth <= limits.maxDetailDepth else {
            throw Rejection(.detailTooLarge, "detail nests deeper than \(limits.maxDetailDepth) levels")
        }
        let detailBytes = detail.canonicalText.utf8.count
        guard detailBytes <= limits.maxDetailBytes else {
            throw Rejection(
                .detailTooLarge, "detail is \(detailBytes) bytes; at most \(limits.maxDetailBytes) are allowed")
        }
        for key in ["avg_hr", "max_hr"] {
            if let hr = detail[key]?.doubleValue, hr != 0, !limits.heartRateRange.contains(hr) {
                throw Rejection(.invalidHeartRate, "detail.\(key) \(JSONValue.format(hr)) bpm is outside 20–250")
            }
        }
        for key in ["avg_power", "max_power"] {
            if let p = detail[key]?.doubleValue, p < 0 || p > limits.maxPowerW {
                throw Rejection(
                    .invalidPower,
                    "detail.\(key) \(JSONValue.format(p)) W is outside 0–\(JSONValue.format(limits.maxPowerW))")
            }
        }

        var upload = SessionUpload(
            sessionID: sessionID, startedAtText: startedText, endedAtText: endedText, startedAt: started,
            endedAt: ended, duration: duration, totalEnergy: energy, totalDistance: distance, detail: detail,
            raw: nil, rawText: nil, blobStatus: .none, blobNote: nil, machine: nil)
        var text = plainRaw
        if text == nil, let rawValue = object["raw"], !rawValue.isNull {
            guard let string = rawValue.stringValue else {
                throw Rejection(.invalidField, "Field raw must be a Base64 string")
            }
            text = Array(string.utf8)[...]
        }
        if let text {
            guard text.count / 4 * 3 <= limits.maxRawBytes else {
                throw Rejection(.rawTooLarge, "raw is larger than \(limits.maxRawBytes) bytes")
            }
            let canonical = text.withUnsafeBytes { Base64.decodeCanonical($0) }
            guard text.count % 4 == 0, let bytes = canonical ?? text.withUnsafeBytes({ Base64.decode($0) }) else {
                throw Rejection(.invalidBase64, "raw is not standard padded Base64 (RFC 4648 §4)")
            }
            upload.rawTextIsPlain = canonical != nil
            // A zero-copy pass: the header must be valid; the records are only counted here (decoding is the
            // analysis stage's job).
            let scanned: Result<(header: BlobHeader, end: BlobEnd, records: Int), BlobError> = bytes.withUnsafeBytes {
                raw in
                var records = 0
                do throws(BlobError) {
                    let (header, end) = try BlobReader.scan(raw) { _ in records += 1 }
                    return .success((header, end, records))
                } catch {
                    return .failure(error)
                }
            }
            let blob: (header: BlobHeader, end: BlobEnd, records: Int)
            switch scanned {
            case .success(let value): blob = value
            case .failure(let error): throw Rejection(.blobRejected, "raw recording rejected: \(error)")
            }
            upload.raw = bytes
            upload.rawText = text
            upload.machine = "\(blob.header.machine)"
            switch blob.end {
            case .complete: upload.blobStatus = .complete
            case .truncated(let offset):
                upload.blobStatus = .truncated
                upload.blobNote = "truncated at byte \(offset); \(blob.records) complete records kept"
            case .corrupted(let offset, let reason):
                upload.blobStatus = .corrupted
                upload.blobNote = "corrupted at byte \(offset) (\(reason)); \(blob.records) records before it kept"
            }
        }
        return upload
    }
}
