import Store

/// How every job (nightly, worker, weekly plans, deletion retries) records a run that ended with an error.
enum JobRunEnd {
    /// `interrupted` when the run was cancelled (SIGTERM, shutdown) — a cancelled task may also surface as the store's
    /// own error from the call it interrupted — otherwise `failed`.
    static func status(for error: any Error) -> JobStatus {
        error is CancellationError || Task.isCancelled ? .interrupted : .failed
    }

    /// Records the end of run `runID` after `error`, outside the (possibly cancelled) current task so that the store
    /// does not refuse the write, after `before` (e.g. giving leases back); returns the status recorded.
    @discardableResult
    static func record(
        _ error: any Error, runID: Int64, store: any PipelineStore, at: Int64,
        before: (@Sendable () async -> Void)? = nil
    ) async -> JobStatus {
        let status = status(for: error)
        await Task {
            await before?()
            try? await store.finishJob(
                id: runID, status: status, at: at, countsJSON: countsJSON(status), watermark: nil)
        }.value
        return status
    }

    /// The counts of a run that ended with an error: `{"error":"<status>"}`, written by the one JSON writer
    /// (`SortedJSON`).
    static func countsJSON(_ status: JobStatus) -> String {
        SortedJSON.object(["error": .string(status.rawValue)]).text
    }
}
