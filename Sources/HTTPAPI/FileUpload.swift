import Cache
import Foundation
import Hummingbird
import HummingbirdCore
import Ingest
import Pipeline
import Store

/// `POST /v1/me/files?name=`: one workout file of the caller (FIT, TCX, GPX, an Apple Health export), the body as the
/// file's bytes. The inbox's and `pipeline import`'s path (`RecordProcessor.importWorkoutFile`, source `api`): each
/// activity becomes a workout record, the same file again is a duplicate, a file that cannot be read is kept in
/// quarantine with the reader's reason. Bounded like the batch upload (body size, rate, uploads in flight, storage
/// quota); larger exports go through the inbox or `pipeline import`.
///
/// An empty body is a 400 (the body is required). 200 whenever a file was received: `status` says what became of it —
/// `imported` (`activities` counts its activities, `damaged` whether it was read only in part, `partial_import` and
/// `flags` what is missing or disagrees), `duplicate`, or `quarantined` with its `reason` code.
struct FileUploadAnswer: Encodable {
    enum Status: String, Encodable, CaseIterable { case imported, duplicate, quarantined }
    var status: Status
    var reason: String?
    var message: String?
    var damaged: Bool
    /// True when part of an activity is missing (points without a time, a TCX without trackpoints, a file
    /// read in part); `flags` says what, per activity (`partial_import`, `dates_disagree`).
    var partialImport: Bool
    var flags: [ImportFlag]
    var activities: IngestCounts
    var updatedStats: UserStats?
    enum CodingKeys: String, CodingKey {
        case status, reason, message, damaged, partialImport = "partial_import", flags, activities
        case updatedStats = "updated_stats"
    }
}

/// The `name` query parameter: a plain file name, for its extension and for the operator (docs/openapi.yaml's pattern).
enum UploadedFileName {
    static func parse(_ text: Substring?) throws(APIError) -> String? {
        guard let text else { return nil }
        guard (1...200).contains(text.utf8.count), text.utf8.first != UInt8(ascii: "."),
            text.utf8.allSatisfy({ c in
                (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
                    || c == UInt8(ascii: ".") || c == UInt8(ascii: "-") || c == UInt8(ascii: "_")
            })
        else {
            throw .badRequest("name must be 1–200 characters of A–Z a–z 0–9 . - _, not starting with a dot")
        }
        return String(text)
    }
}

extension Routes {
    @Sendable func uploadFile(_ request: Request, context: APIRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let name = try UploadedFileName.parse(request.uri.queryParameters[Substring("name")])
        try services.checkRateLimit(caller.id, .upload)
        return try await services.withUploadShare(caller.id) {
            try await services.checkStorageQuota(caller.id)
            return try await services.memoryBudget.withLease { lease in
                let body = try await request.collectBody(
                    limit: services.configuration.maxBodyBytes, charging: lease)
                return try await services.withProcessingSlot {
                    try await importFile(body, name: name, context: context, caller: caller)
                }
            }
        }
    }

    /// A received file's import (`RecordProcessor.importWorkoutFile`) and its answer.
    func importFile(_ body: ByteBuffer, name: String?, context: APIRequestContext, caller: Caller) async throws
        -> Response
    {
        // The body is required (docs/openapi.yaml): none at all is a malformed request, not an empty file to keep.
        guard body.readableBytes > 0 else {
            throw APIError.badRequest("The body must be the file's bytes; it is empty")
        }
        let requestID = context.logger[metadataKey: "hb.request.id"]?.description ?? UUID().uuidString
        let input = WorkoutFileInput(
            user: caller.id, sourceKey: "upload/\(requestID)/" + (name ?? "file"), fileName: name,
            contents: .bytes(Array(buffer: body)))
        let processor = RecordProcessor(store: services.store, limits: services.ingestLimits, clock: services.clock)
        let report = try await processor.importWorkoutFile(input, source: "api", receivedAt: services.now())
        var answer = FileUploadAnswer(
            status: .imported, damaged: report.damagedFiles > 0,
            partialImport: report.importFlags.contains { $0.code == "partial_import" }, flags: report.importFlags,
            activities: report.workouts)
        if report.files.duplicates > 0 {
            answer.status = .duplicate
        } else if let reason = report.files.quarantinedByReason.keys.first {
            answer.status = .quarantined
            answer.reason = reason.rawValue
            answer.message = "The file could not be read (\(reason.rawValue)); it is kept for the operator"
            services.chargeQuarantine(
                caller.id, bytes: min(body.readableBytes, services.ingestLimits.maxQuarantinePayloadBytes))
        }
        services.metrics.count("files_uploaded", "status", answer.status.rawValue)
        if report.workouts.stored > 0 {
            answer.updatedStats = try await StatsService(store: services.store, clock: services.clock).recompute(
                caller.id)
            services.publish(.sessionIngested(user: CacheUserID(caller.id.rawValue)))
        }
        return Self.json(try APIJSON.encode(answer))
    }
}
