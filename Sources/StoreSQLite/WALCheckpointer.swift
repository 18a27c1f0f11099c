import Foundation
import GRDB
import Synchronization

/// Copies the write-ahead log into the database file on a connection of its own, beside the writer.
///
/// In WAL mode every page a transaction writes goes to the log first; a checkpoint later copies it into the database
/// file. SQLite's automatic checkpoint runs in the committing connection, at the end of the commit that takes the log
/// past `wal_autocheckpoint` pages: the writer stops writing while it reads the log back and writes the file. For the
/// nightly's recordings that copy is about half of what storing them costs, so the writer leaves it here: after each
/// batch it stores (`SQLiteStore.apply`, a nightly's group or an upload from the apps) it calls `poke()`, and a
/// `PASSIVE` checkpoint runs on this connection's own queue while the writer goes on (SQLite lets one checkpoint run
/// beside a writer and readers; it copies the frames committed before it started and waits for nobody). The writer's automatic checkpoint stays as the backstop,
/// at `backstopPages`: should this one fall behind, the log still cannot grow without bound.
///
/// A checkpoint moves committed pages from one file to the other; it never changes what a transaction sees. Killed in
/// the middle, the next connection to open the database finishes it from the log.
final class WALCheckpointer: Sendable {
    /// The writer's own automatic checkpoint, in pages (16 KiB: 64 MiB of log).
    static let backstopPages = 4096

    private let path: String
    /// The checkpoint's connection, opened on the first poke (after the migrations); whether one is under way; how
    /// many `withoutBackgroundCheckpoint` calls hold the log (no checkpoint starts here meanwhile).
    private let state = Mutex<(queue: DatabaseQueue?, running: Bool, held: Int)>((nil, false, 0))

    init(path: String) { self.path = path }

    /// Starts a checkpoint unless one is under way. Returns at once.
    func poke() {
        let queue: DatabaseQueue? = state.withLock { state in
            guard !state.running, state.held == 0 else { return nil }
            if state.queue == nil {
                var config = Configuration()
                config.label = "pipeline.sqlite.checkpoint"
                state.queue = try? DatabaseQueue(path: path, configuration: config)
            }
            guard let queue = state.queue else { return nil }
            state.running = true
            return queue
        }
        guard let queue else { return }
        queue.asyncWriteWithoutTransaction { db in
            // A checkpoint that finds the log locked (a TRUNCATE of a deletion, the writer's backstop) just stops.
            _ = try? db.checkpoint(.passive)
            self.state.withLock { $0.running = false }
        }
    }

    /// Runs `body` with no checkpoint of this connection under way or starting: for a checkpoint of the writer's own
    /// that must not find the checkpoint lock taken (SQLite answers a second checkpointer `SQLITE_BUSY` at once,
    /// without waiting), such as the TRUNCATE that empties the log after a deletion.
    func withoutBackgroundCheckpoint<T>(_ body: () async throws -> T) async rethrows -> T {
        state.withLock { $0.held += 1 }
        defer { state.withLock { $0.held -= 1 } }
        while state.withLock({ $0.running }) { try? await Task.sleep(for: .milliseconds(2)) }
        return try await body()
    }
}
