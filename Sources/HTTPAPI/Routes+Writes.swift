import Cache
import Crypto
import Foundation
import Hummingbird
import Ingest
import Pipeline
import Store
import TaskManager

extension Routes {
    /// The apps' batch upload, through `BatchProcessor` exactly as the inbox does (source `api`).
    /// 200 with `{success_count, duplicate_count, failed_sessions, updated_stats}`; a batch refused
    /// as a whole answers 413 (too many bytes or more than 20 sessions) or 400 (not JSON, wrong
    /// shape) with a JSON error, and is kept in quarantine like the inbox's.
    @Sendable func batchUpload(_ request: Request, context: APIRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        try services.checkRateLimit(caller.id, .upload)
        return try await services.withUploadShare(caller.id) {
            try await services.checkStorageQuota(caller.id)
            return try await receiveBatch(request, context: context, caller: caller)
        }
    }

    /// The upload itself, in the caller's share of uploads in progress (`APIServices.withUploadShare`): the body is
    /// charged to the process-wide budget as it arrives, and its decoding (size × `jsonDecodeFactor`) before it is
    /// decoded, in one of the server's processing slots (`APIServices.withProcessingSlot`).
    func receiveBatch(_ request: Request, context: APIRequestContext, caller: Caller) async throws -> Response {
        try await services.memoryBudget.withLease { lease in
            let body = try await request.collectBody(limit: services.configuration.maxBodyBytes, charging: lease)
            return try await services.withProcessingSlot {
                try await lease.grow(to: body.readableBytes * APIConfiguration.jsonDecodeFactor)
                return try await decodeBatch(body, context: context, caller: caller)
            }
        }
    }

    func decodeBatch(_ body: ByteBuffer, context: APIRequestContext, caller: Caller) async throws -> Response {
        let store = services.store, now = services.now, clock = services.clock
        let processor = BatchProcessor(
            store: store, limits: services.ingestLimits, logger: context.logger,
            statsProvider: { user in try await StatsService(store: store, clock: clock).recompute(user) }, clock: clock)
        let requestID = context.logger[metadataKey: "hb.request.id"]?.description ?? UUID().uuidString
        let batch = BatchContext(userID: caller.id, source: "api", sourceKey: "request:\(requestID)", receivedAt: now())
        // A large body is decoded and processed only while fewer than `largeUploadsProcessing` others are (`WorkGate`).
        let outcome =
            body.readableBytes > services.configuration.largeUploadBytes
            ? try await services.largeUploads.withPermit {
                try await processor.process(body: Array(buffer: body), context: batch)
            } : try await processor.process(body: Array(buffer: body), context: batch)
        let kept = services.ingestLimits.maxQuarantinePayloadBytes
        switch outcome {
        case .processed(let answer, _):
            // What the failed sessions put into quarantine: at most their part of the body, each at most `kept`.
            services.chargeQuarantine(caller.id, bytes: min(body.readableBytes, kept * answer.failedSessions.count))
            if answer.successCount > 0 { services.publish(.sessionIngested(user: CacheUserID(caller.id.rawValue))) }
            services.metrics.count("batch_sessions", "outcome", "stored", by: answer.successCount)
            services.metrics.count("batch_sessions", "outcome", "duplicate", by: answer.duplicateCount)
            services.metrics.count("batch_sessions", "outcome", "failed", by: answer.failedSessions.count)
            return Self.json(try APIJSON.encode(answer))
        case .rejected(let rejection, _):
            services.chargeQuarantine(caller.id, bytes: min(body.readableBytes, kept))
            services.metrics.count("batches_rejected", "code", rejection.code.rawValue)
            // Too many bytes is 413; too many sessions is a malformed request like a wrong shape (400).
            let status: HTTPResponse.Status = rejection.code == .payloadTooLarge ? .contentTooLarge : .badRequest
            throw APIError(status, APIError.Code(rawValue: rejection.code.rawValue), rejection.message)
        case .alreadyProcessed:
            // Only with a ledger key, which the API does not use; answered as "nothing new".
            return Self.json(
                try APIJSON.encode(
                    BatchAnswer(successCount: 0, duplicateCount: 0, failedSessions: [], updatedStats: nil)))
        }
    }

    /// Records the app's own figures (the app wins for display) and answers the new stats view.
    @Sendable func patchStats(_ request: Request, context: APIRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        try services.checkRateLimit(caller.id, .statsReport)
        let body = try await request.collectBody(limit: min(64 << 10, services.configuration.maxBodyBytes))
        let patch: AppStatsPatch
        do {
            patch = try JSONDecoder().decode(AppStatsPatch.self, from: Data(buffer: body))
        } catch {
            throw APIError.badRequest("The body must be a JSON object with the updated_stats fields")
        }
        let stats = try patch.validated(now: services.now())
        try await services.store.recordAppStats(user: caller.id, stats: stats, at: services.now())
        services.publish(.custom(name: "app_stats_reported", tags: [.user(CacheUserID(caller.id.rawValue))]))
        return Self.json(try await services.statsBody(for: caller.user))
    }

    /// Recomputes the caller's metrics (sessions and workout records without metrics), stats and training load now
    /// (`APIServices.recompute`: no plan refresh). Concurrent requests of one user share one run (`TaskManager.join` on
    /// `recompute(user)`); a caller that goes away does not stop it. Answers the counts measured and the stats.
    @Sendable func recompute(_ request: Request, context: APIRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        try services.checkRateLimit(caller.id, .recompute)
        let result: UserPipeline.Outcome
        do {
            result = try await services.taskManager.join(id: APIServices.recomputeTask(caller.id)) { [services] in
                try await services.recompute(caller.user)
            }
        } catch let error as TaskManagerError {
            throw APIError(.serviceUnavailable, .unavailable, "The server is shutting down (\(error.code))")
        } catch is CancellationError {
            throw APIError(.serviceUnavailable, .unavailable, "The recomputation was cancelled")
        }
        services.publish(.recomputed(user: CacheUserID(caller.id.rawValue)))
        let stats = try await services.statsBody(for: caller.user)
        var body = Array(
            #"{"sessions_analysed":\#(result.sessionsAnalysed),"sessions_unreadable":\#(result.sessionsUnreadable),"workout_records_analysed":\#(result.workoutRecordsAnalysed),"stats":"#
                .utf8)
        body += stats
        body.append(UInt8(ascii: "}"))
        return Self.json(body)
    }

    /// GDPR hard delete of the caller: every row of the user in one transaction, an audit row
    /// with only the keyed hash of the user id (`IdentifierHasher`), then every cached entry of the user dropped through the
    /// event bus. 204; 500 `deletion_failed` (everything rolled back, audit says failed).
    @Sendable func deleteMe(_ request: Request, context: APIRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let requestedAt = services.now()
        // Stop this user's recomputation and wait for it, so that it cannot write after the delete.
        let task = APIServices.recomputeTask(caller.id)
        services.taskManager.cancel(id: task)
        _ = try? await services.taskManager.join(id: task) { () async throws -> UserPipeline.Outcome in
            throw CancellationError()
        }
        do {
            _ = try await UserDeletion(store: services.store, clock: services.clock).delete(
                caller.id, requestedAt: requestedAt)
        } catch let error as StoreError where error.code == .notFound {
            throw APIError.notFound
        } catch {
            context.logger.error("user deletion failed", metadata: ["error.type": "\(type(of: error))"])
            services.publish(.userDeleted(user: CacheUserID(caller.id.rawValue)))
            throw APIError(
                .internalServerError, "deletion_failed", "The deletion failed and was rolled back; retry later")
        }
        services.publish(.userDeleted(user: CacheUserID(caller.id.rawValue)))
        services.rateLimiter.forget(user: caller.id)
        services.metrics.count("users_deleted", "via", "api")
        return Response(status: .noContent)
    }
}
