import ArgumentParser
import Foundation
import Pipeline
import Store

/// `--metrics-file PATH` for the job commands (nightly, ingest, plans, deletions): the run's figures in Prometheus text
/// format for node_exporter's textfile collector (`JobMetricsFile`), written when the run ends — also when it failed
/// or was stopped by a signal.
struct MetricsFileOptions: ParsableArguments {
    @Option(
        help:
            "Write the run's figures here in Prometheus text format (node_exporter textfile collector; name it *.prom). Default: $PIPELINE_METRICS_FILE, which jobs/run-job.sh sets."
    )
    var metricsFile: String?
    @Option(
        help:
            "The job label in the metrics file (default: $PIPELINE_JOB_NAME, which jobs/run-job.sh sets, else the command's job name)."
    )
    var metricsJob: String?

    private var environment: [String: String] { ProcessInfo.processInfo.environment }
    var resolvedFile: String? { metricsFile ?? environment["PIPELINE_METRICS_FILE"].flatMap { $0.isEmpty ? nil : $0 } }

    /// Runs `body`, then writes the metrics file (when asked) from its summary or its error; rethrows the error. A
    /// summary for which `failed` is true (the command then exits 1) is recorded as failed, with its counts.
    func recording<T: Encodable & Sendable>(
        job defaultJob: String, failed: (T) -> Bool = { _ in false },
        _ body: () async throws -> T
    ) async throws -> T {
        let started = Date()
        do {
            let summary = try await body()
            // The counts are read from the summary's JSON (the package's writer); a summary it cannot write (a
            // non-finite figure) is said on stderr and leaves the file without counts.
            var summaryJSON: Data?
            do {
                summaryJSON = Data(try SortedJSONEncoder.encode(summary, numbers: .asEncoded).encoderText.utf8)
            } catch {
                FileHandle.standardError.write(
                    Data("warning: the metrics file has no counts: the summary does not encode: \(error)\n".utf8))
            }
            write(
                job: defaultJob, started: started, outcome: failed(summary) ? .failed : .succeeded,
                summaryJSON: summaryJSON)
            return summary
        } catch {
            let outcome: JobMetricsFile.Outcome =
                error is JobLifecycle.Interrupted || error is CancellationError ? .interrupted : .failed
            write(job: defaultJob, started: started, outcome: outcome, summaryJSON: nil)
            throw error
        }
    }

    private func write(job defaultJob: String, started: Date, outcome: JobMetricsFile.Outcome, summaryJSON: Data?) {
        guard let metricsFile = resolvedFile else { return }
        let job = metricsJob ?? environment["PIPELINE_JOB_NAME"].flatMap { $0.isEmpty ? nil : $0 } ?? defaultJob
        let finished = Date()
        let file = JobMetricsFile(
            job: job, startedAt: started, finishedAt: finished, outcome: outcome,
            counts: summaryJSON.map(JobMetricsFile.counts(fromJSON:)) ?? [:],
            lastSuccessAt: outcome == .succeeded
                ? finished : JobMetricsFile.previousLastSuccess(at: metricsFile, job: job))
        do { try file.write(to: metricsFile) } catch {
            FileHandle.standardError.write(
                Data("warning: could not write the metrics file \(metricsFile): \(error)\n".utf8))
        }
    }
}
