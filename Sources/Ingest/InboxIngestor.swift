import Foundation
import Logging
import Store

/// Reads an inbox directory as the upload front end leaves it (see `docs/inbox.md`):
///
/// ```
/// inbox/users/*.json|*.ndjson                      user registrations and profile changes
/// inbox/sessions/<user_id>/<received>-<id>.json     one batch body exactly as the app sent it
/// inbox/sessions/<user_id>/<received>-<id>.ndjson   one batch body per line
/// inbox/workouts/*.json|*.ndjson                   workout records (V2 workout API)
/// inbox/files/<user_id>/<any name>                 workout files of one user: FIT, TCX, GPX, Apple Health export
/// ```
///
/// `<received>` is the arrival time `YYYYMMDDTHHMMSSZ`; without it the file's modification time is used.
/// Files are visited in name order, each batch applied atomically and recorded in the ledger, so a second
/// run over the same inbox changes nothing and a run killed half-way finishes the rest when started again.
public struct InboxIngestor: Sendable {
    public var batches: BatchProcessor
    public var records: RecordProcessor
    public var limits: IngestLimits
    public var logger: Logger
    /// Records per atomic unit when a workout or user file is NDJSON (bounded memory for huge files).
    public var recordsPerUnit = 500
    /// Called with each file's inbox path before it is processed; a test throws from it to simulate a crash
    /// between records. Nil in production.
    public var faultHook: (@Sendable (String) throws -> Void)?
    /// Keys the user directories in ledger keys (`IdentifierHasher.inboxLedgerKey`); resolved from the store (or
    /// `$PIPELINE_ID_HASH_KEY`) when an ingest starts, unless set.
    public var identifiers: IdentifierHasher?

    public init(
        store: any PipelineStore, limits: IngestLimits = .init(), logger: Logger = Logger(label: "ingest"),
        statsProvider: (@Sendable (UserID) async throws -> UserStats)? = nil,
        clock: PipelineClock = .system,
        analyze: (@Sendable (StoredSession, User) -> SessionMetricsRecord)? = nil
    ) {
        batches = BatchProcessor(
            store: store, limits: limits, logger: logger, statsProvider: statsProvider, clock: clock,
            analyze: analyze)
        records = RecordProcessor(store: store, limits: limits, clock: clock)
        self.limits = limits
        self.logger = logger
    }

    /// Session batch files read, validated and measured ahead of the one handed to the writer (bounded: at most this
    /// many prepared batches wait, each within `maxBatchBytes`). Enough to keep the second core busy while the writer
    /// commits a group (2 left it idle during commits: 5.4 → 4.7 s for the benchmark's nightly).
    public var prepareAhead = 16

    /// Batch files committed together, in one transaction, by the writer: at most this many files …
    public var groupFiles = 32
    /// … or this many sessions (bounded memory: a group waits while the one before it is committed).
    public var groupSessions = 64
    /// Groups handed to the writer and not yet committed. With 2, one is committed while the next waits for it, so
    /// that reading and preparing go on during the commit (with 1, preparing stops at `prepareAhead` files during each
    /// commit). The nightly uses 2 on both backends (`NightlyJob.groupsInFlight`): on SQLite too, where the commit's
    /// work is in this process, it measured 3–12 % faster, for one more group (≤ `groupSessions` sessions) in memory.
    public var groupsInFlight = 1
    /// Whether groups handed off that have no user in common commit at the same time, each in its own transaction on a
    /// connection of its own (a store running several transactions at once: PostgreSQL, where the server's work on one
    /// group — TOAST, indexes, WAL — then goes on beside its work on another). A group that shares a user with a group
    /// still committing waits for it, so each user's batches are still applied in file order and every outcome
    /// (stored, duplicate, conflict) is the one of committing the files one after the other. False: every group waits
    /// for the one before it.
    ///
    /// With side-by-side commits a group also ends where the next file is another user's, once it holds a quarter of
    /// its limits (`endsGroup`): the files come user by user, so groups cut anywhere else would share their boundary
    /// user with the next group and make it wait.
    public var parallelCommits = false

    /// Whether the workout record files (`workouts/`, listed after every session file) are ingested beside the
    /// session files, from the first session file on, instead of after the last: their units are read, validated and
    /// committed while the session batches are prepared, and commit between the session groups. Each unit stays atomic
    /// with its ledger entry, each file's units commit in order and the files in name order; the user files are still
    /// applied before both, and the workout files of `files/` after both. The outcome is the one of the files one
    /// after the other (a workout record and a session batch write different rows and meet only in the stats). For a
    /// store with one writer (`PipelineStore.commitsInParallel` false), where no transaction waits on another's
    /// row locks: a unit's rows of many users, locked in another order beside a group's, could deadlock on a server.
    public var recordFilesBesideSessions = false

    /// Ingests everything in `inbox`. `progress` is told (files done, files total) after each file.
    public func ingest(inbox: URL, progress: (@Sendable (Int, Int) -> Void)? = nil) async throws -> IngestReport {
        guard identifiers != nil else {
            var resolved = self
            resolved.identifiers = try await IdentifierHasher.resolve(store: batches.store)
            return try await resolved.ingest(inbox: inbox, progress: progress)
        }
        let files = try Self.listFiles(inbox)
        var report = IngestReport()
        // What the ledger holds for the whole-file inputs (`.json`), read once. Quick check: a file whose size and
        // modification time are those recorded with its entry was applied before and is not read again. A file whose
        // content changed has another stamp and goes the full way, where its hash is compared with the entry's.
        var stamps: [Int: String] = [:]
        for (i, file) in files.enumerated() where !file.ndjson { stamps[i] = Self.stamp(file.url) }
        // Each file's ledger key, computed once (its path, the user directory keyed once a user).
        let keys = ledgerKeys(files)
        var entries: [String: LedgerEntry]?
        if let ledger = batches.store.ingestLedger {
            entries = try await ledger.ledgerEntries(stamps.keys.map { keys[$0] })
        }
        let applied = Set(stamps.compactMap { i, stamp in entries?[keys[i]]?.stamp == stamp ? i : nil })
        func ledgerHash(_ i: Int) -> BatchProcessor.Known<String?> {
            guard let entries, !files[i].ndjson else { return .ask }
            return .known(entries[keys[i]]?.hash)
        }
        // Session files' users, read once each (every user file comes before the session files).
        var users: [UserID: User?] = [:]
        func user(_ id: UserID) async throws -> BatchProcessor.Known<User?> {
            if let known = users[id] { return .known(known) }
            let stored = try await batches.store.user(id)
            users[id] = stored
            return .known(stored)
        }
        // Session batch files are read and validated up to `prepareAhead` files ahead, in tasks of their own; the
        // prepared batches are handed to the writer in groups (`groupFiles`, `groupSessions`), one group committed
        // while the next is prepared (two cores: parsing, hashing, decoding and SQLite overlap). Commits stay in file
        // order, and only the writer writes.
        var ahead: [Int: Task<BatchProcessor.PreparedBatch?, any Error>] = [:]
        var nextToPrepare = 0
        var group: [BatchProcessor.PreparedBatch] = []
        var sessionsInGroup = 0
        // Groups handed off, oldest first, with their users; each commits only after the ones before it that it must
        // follow have (and not at all when one of those failed): every one before it, or with `parallelCommits` those
        // sharing a user with it. Either way each user's commits stay in file order.
        var committing: [(task: Task<IngestReport, any Error>, users: Set<UserID>)] = []
        // The workout record files ingested beside the session files (`recordFilesBesideSessions`), and their task.
        var besideFiles: [Int] = []
        var beside: Task<IngestReport, any Error>?
        defer {
            for task in ahead.values { task.cancel() }
            for entry in committing { entry.task.cancel() }
            beside?.cancel()
        }
        func startBeside(from first: Int) {
            guard recordFilesBesideSessions, besideFiles.isEmpty,
                !files[first...].contains(where: { $0.kind == .users })
            else { return }
            besideFiles = files.indices.filter { $0 > first && files[$0].kind == .workouts && !applied.contains($0) }
            guard !besideFiles.isEmpty else { return }
            let ingestor = self, list = besideFiles.map { (files[$0], stamps[$0]) }
            beside = Task {
                var report = IngestReport()
                for (file, stamp) in list {
                    try Task.checkCancellation()
                    try ingestor.faultHook?(file.relative)
                    report = report + (try await ingestor.ingestRecordFile(file, kind: .workouts, stamp: stamp))
                }
                return report
            }
        }
        func handOff() async throws {
            guard !group.isEmpty else { return }
            let batches = self.batches, prepared = group
            group = []
            sessionsInGroup = 0
            while committing.count >= max(groupsInFlight, 1) {
                report = report + (try await committing.removeFirst().task.value)
            }
            let users = Set(prepared.map(\.context.userID))
            let after =
                parallelCommits
                ? committing.filter { !$0.users.isDisjoint(with: users) }.map(\.task)
                : committing.last.map { [$0.task] } ?? []
            committing.append(
                (
                    Task {
                        for previous in after { _ = try await previous.value }
                        return try await batches.commit(prepared).reduce(IngestReport()) { $0 + $1.report }
                    }, users
                ))
        }
        /// Everything handed off is committed: before any other write, and at the end.
        func drain() async throws {
            try await handOff()
            while !committing.isEmpty { report = report + (try await committing.removeFirst().task.value) }
        }
        for (i, file) in files.enumerated() {
            try Task.checkCancellation()
            if !besideFiles.contains(i) { try faultHook?(file.relative) }
            if applied.contains(i) {
                // As the full way answers an input it finds in the ledger: a repeated batch; nothing for record files.
                if case .sessions = file.kind { report = report + BatchProcessor.alreadyProcessedReport() }
                progress?(i + 1, files.count)
                continue
            }
            switch file.kind {
            case .users:
                try await drain()
                report = report + (try await ingestRecordFile(file, kind: .users, stamp: stamps[i]))
            case .workouts where besideFiles.contains(i):
                // Ingested beside the session files: done when the task is.
                try await drain()
                if let task = beside {
                    beside = nil
                    report = report + (try await task.value)
                }
            case .workouts:
                try await drain()
                report = report + (try await ingestRecordFile(file, kind: .workouts, stamp: stamps[i]))
            case .files(let userID):
                try await drain()
                let input = WorkoutFileInput(
                    user: userID, sourceKey: file.relative, fileName: file.url.lastPathComponent,
                    contents: .file(file.url))
                report =
                    report
                    + (try await records.importWorkoutFile(
                        input, source: "inbox", receivedAt: Self.receivedAt(file, wall: batches.clock.wall),
                        ledgerKey: keys[i], ledgerStamp: stamps[i]))
            case .sessions(let userID):
                startBeside(from: i)
                // Start the preparation of this file and of the session files right after it.
                nextToPrepare = max(nextToPrepare, i)
                while nextToPrepare < files.count, nextToPrepare <= i + max(prepareAhead, 0),
                    case .sessions(let nextUser) = files[nextToPrepare].kind
                {
                    if !applied.contains(nextToPrepare) {
                        ahead[nextToPrepare] = preparing(
                            files[nextToPrepare], ledgerKey: keys[nextToPrepare], user: try await user(nextUser),
                            stamp: stamps[nextToPrepare],
                            ledgerHash: ledgerHash(nextToPrepare))
                    }
                    nextToPrepare += 1
                }
                var task = ahead.removeValue(forKey: i)
                if task == nil {
                    task = preparing(
                        file, ledgerKey: keys[i], user: try await user(userID), stamp: stamps[i],
                        ledgerHash: ledgerHash(i))
                }
                if let prepared = try await task!.value {
                    if parallelCommits,
                        Self.endsGroup(
                            lastUser: group.last?.context.userID, files: group.count, sessions: sessionsInGroup,
                            nextUser: prepared.context.userID, groupFiles: groupFiles, groupSessions: groupSessions)
                    {
                        try await handOff()
                    }
                    group.append(prepared)
                    sessionsInGroup += prepared.sessionCount
                    if group.count >= groupFiles || sessionsInGroup >= groupSessions { try await handOff() }
                } else {
                    try await drain()
                    report = report + (try await ingestSessionFile(file, user: userID, stamp: stamps[i]))
                }
            }
            progress?(i + 1, files.count)
        }
        try await drain()
        return report
    }

    /// Whether a group of `files` files and `sessions` sessions whose last file is `lastUser`'s is handed off before a
    /// file of `nextUser` joins it, when groups commit side by side (`parallelCommits`): at a change of user, once the
    /// group holds a quarter of either limit. Groups in a row then share no user (unless one user's files fill several
    /// groups), so the next one commits beside it instead of after it; the quarter keeps groups of users with one or
    /// two files each from shrinking to a commit a file. (PostgreSQL nightly, 200 × 60, two groups in flight: 4.70–4.97 s
    /// against 5.08–5.34 s with groups cut anywhere; Benchmarks/nightly-results.md, 2026-11-27 12:25–14:10.)
    static func endsGroup(
        lastUser: UserID?, files: Int, sessions: Int, nextUser: UserID, groupFiles: Int, groupSessions: Int
    ) -> Bool {
        guard let lastUser, lastUser != nextUser else { return false }
        return files * 4 >= groupFiles || sessions * 4 >= groupSessions
    }

    enum FileKind: Equatable { case users, workouts, sessions(UserID), files(UserID) }
    struct InboxFile { var url: URL; var relative: String; var kind: FileKind; var ndjson: Bool }

    static func listFiles(_ inbox: URL) throws -> [InboxFile] {
        let fm = FileManager.default
        var isDir: ObjCBool = false
        guard fm.fileExists(atPath: inbox.path, isDirectory: &isDir), isDir.boolValue else {
            throw IngestRunError.inboxNotFound(inbox.path)
        }
        /// The JSON and NDJSON files of `dir` in name order, with their names and extensions (each worked out once a
        /// file: the sort compares the names, which a URL recomputes on every call).
        func files(in dir: URL) -> [(url: URL, name: String, ndjson: Bool)] {
            ((try? fm.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)) ?? [])
                .compactMap { url in
                    let ext = url.pathExtension
                    return ext == "json" || ext == "ndjson" ? (url, url.lastPathComponent, ext == "ndjson") : nil
                }
                .sorted { $0.name < $1.name }
        }
        var result: [InboxFile] = []
        /// The JSON and NDJSON files of `inbox/<dir>`, as files of `kind`.
        func appendFiles(of dir: String, as kind: FileKind) {
            for file in files(in: inbox.appendingPathComponent(dir)) {
                result.append(
                    InboxFile(url: file.url, relative: "\(dir)/\(file.name)", kind: kind, ndjson: file.ndjson))
            }
        }
        appendFiles(of: "users", as: .users)
        let sessionsDir = inbox.appendingPathComponent("sessions")
        let userDirs = ((try? fm.contentsOfDirectory(atPath: sessionsDir.path)) ?? []).sorted()
        for name in userDirs {
            let dir = sessionsDir.appendingPathComponent(name)
            var sub: ObjCBool = false
            guard fm.fileExists(atPath: dir.path, isDirectory: &sub), sub.boolValue else { continue }
            appendFiles(of: "sessions/\(name)", as: .sessions(UserID(name)))
        }
        appendFiles(of: "workouts", as: .workouts)
        // Workout files: every regular, visible file of a user's directory, whatever its name (formats are sniffed).
        let filesDir = inbox.appendingPathComponent("files")
        for name in ((try? fm.contentsOfDirectory(atPath: filesDir.path)) ?? []).sorted() where !name.hasPrefix(".") {
            let dir = filesDir.appendingPathComponent(name)
            var sub: ObjCBool = false
            guard fm.fileExists(atPath: dir.path, isDirectory: &sub), sub.boolValue else { continue }
            for file in ((try? fm.contentsOfDirectory(atPath: dir.path)) ?? []).sorted() where !file.hasPrefix(".") {
                let url = dir.appendingPathComponent(file)
                var isDirectory: ObjCBool = false
                guard fm.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                    continue
                }
                result.append(
                    InboxFile(url: url, relative: "files/\(name)/\(file)", kind: .files(UserID(name)), ndjson: false))
            }
        }
        return result
    }

    /// Arrival time from a `YYYYMMDDTHHMMSSZ` file-name prefix, else the modification time, else `wall` (real time).
    static func receivedAt(_ file: InboxFile, wall: @Sendable () -> Int64) -> Int64 {
        let name = file.url.lastPathComponent
        if name.utf8.count >= 16 {
            let p = Array(name.utf8.prefix(16))
            let s = String(decoding: p, as: UTF8.self)
            let iso =
                "\(s.prefix(4))-\(s.dropFirst(4).prefix(2))-\(s.dropFirst(6).prefix(2))T\(s.dropFirst(9).prefix(2)):\(s.dropFirst(11).prefix(2)):\(s.dropFirst(13).prefix(2))Z"
            if p[8] == UInt8(ascii: "T"), p[15] == UInt8(ascii: "Z"), let ms = RFC3339.parseMillis(iso) { return ms }
        }
        let attributes = try? FileManager.default.attributesOfItem(atPath: file.url.path)
        return (attributes?[.modificationDate] as? Date)?.epochMillis ?? wall()
    }

    /// `size:mtime_ns` of a file (nil when it cannot be read): the quick check's stamp, taken before the file is read,
    /// so that a file changed while it is read gets another stamp next time.
    static func stamp(_ url: URL) -> String? {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        return "\(info.st_size):\(Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))"
    }

    /// The file's size (0 when it cannot be read), from one `stat` (Foundation's attribute dictionary cost 1 % of a
    /// nightly run).
    static func fileSize(_ url: URL) -> Int {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return 0 }
        return max(Int(info.st_size), 0)
    }

    /// A whole file's bytes, read straight into the array (no intermediate `Data`).
    static func readFile(_ url: URL) throws -> [UInt8] {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileReadError(path: url.path, errno: errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileReadError(path: url.path, errno: errno) }
        func readSome(_ buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            while true {
                let n = read(fd, buffer.baseAddress!, buffer.count)
                if n >= 0 { return n }
                if errno != EINTR { throw FileReadError(path: url.path, errno: errno) }
            }
        }
        let size = max(Int(info.st_size), 0)
        var bytes = try [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            while initialized < size {
                let n = try readSome(
                    UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[initialized...]))
                if n == 0 { break }
                initialized += n
            }
        }
        // A file that grew since `fstat`: the rest too, as `Data(contentsOf:)` would.
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try readSome($0) }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[..<n])
        }
        return bytes
    }

    struct FileReadError: Error, CustomStringConvertible {
        var path: String
        var errno: Int32
        var description: String { "cannot read \(path): \(String(cString: strerror(errno)))" }
    }

    /// The first bytes of a file that is too large to read, kept as evidence in quarantine.
    static func evidence(_ url: URL) -> [UInt8] {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return [] }
        defer { try? handle.close() }
        return [UInt8]((try? handle.read(upToCount: 4096)) ?? Data())
    }

    /// Reads and validates a plain `.json` batch file within the size limit in a task of its own; nil for files
    /// that take the other paths (NDJSON, over the limit).
    func preparing(
        _ file: InboxFile, ledgerKey key: String, user: BatchProcessor.Known<User?>, stamp: String?,
        ledgerHash: BatchProcessor.Known<String?>
    ) -> Task<BatchProcessor.PreparedBatch?, any Error> {
        let limit = limits.maxBatchBytes
        let batches = self.batches
        guard case .sessions(let userID) = file.kind else { preconditionFailure("a session file") }
        return Task {
            guard !file.ndjson, Self.fileSize(file.url) <= limit else { return nil }
            let body = try Self.readFile(file.url)
            let context = BatchContext(
                userID: userID, source: "inbox", sourceKey: file.relative,
                receivedAt: Self.receivedAt(file, wall: batches.clock.wall))
            return try await batches.prepare(
                body: body, context: context, ledgerKey: key, ledgerStamp: stamp,
                ledgerHash: ledgerHash, user: user)
        }
    }

    /// The ledger key of an inbox file (its path, the user directory keyed).
    func ledgerKey(_ file: InboxFile) -> String {
        guard let identifiers else { preconditionFailure("identifiers are resolved when an ingest starts") }
        return identifiers.inboxLedgerKey(file.relative)
    }

    /// `ledgerKey` of each file.
    func ledgerKeys(_ files: [InboxFile]) -> [String] {
        guard let identifiers else { preconditionFailure("identifiers are resolved when an ingest starts") }
        return identifiers.inboxLedgerKeys(files.map(\.relative))
    }

    func ingestSessionFile(_ file: InboxFile, user: UserID, stamp: String? = nil) async throws -> IngestReport {
        let received = Self.receivedAt(file, wall: batches.clock.wall)
        let key = ledgerKey(file)
        if !file.ndjson {
            let size = Self.fileSize(file.url)
            if size > limits.maxBatchBytes {
                return try await rejectOversized(file, user: user, key: key, size: size, received: received)
            }
            let body = try Self.readFile(file.url)
            let context = BatchContext(userID: user, source: "inbox", sourceKey: file.relative, receivedAt: received)
            return try await batches.process(body: body, context: context, ledgerKey: key, ledgerStamp: stamp).report
        }
        var report = IngestReport()
        for line in try LineReader(url: file.url, maxLineBytes: limits.maxLineBytes) {
            switch line {
            case .line(let number, let bytes):
                if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
                let context = BatchContext(
                    userID: user, source: "inbox", sourceKey: "\(file.relative):\(number)", receivedAt: received)
                report =
                    report
                    + (try await batches.process(body: bytes, context: context, ledgerKey: "\(key):\(number)").report)
            case .tooLong(let number, let prefix, let length):
                report =
                    report
                    + (try await rejectOversized(
                        file, user: user, key: "\(key):\(number)", line: number, size: length,
                        received: received, evidence: prefix))
            }
        }
        return report
    }

    func rejectOversized(
        _ file: InboxFile, user: UserID?, key: String, line: Int? = nil, size: Int, received: Int64,
        evidence: [UInt8]? = nil
    ) async throws -> IngestReport {
        var report = IngestReport()
        report.batches.received = 1
        report.batches.quarantine(.payloadTooLarge)
        let message =
            "\(file.relative): \(size) bytes exceeds the limit of \(limits.maxBatchBytes); only the first bytes are kept"
        let kept = evidence ?? Self.evidence(file.url)
        // A users or workouts file names its users inside: the row carries the one it names (none kept if several).
        let record = QuarantineRecord(
            userID: user, source: "inbox", sourceKey: file.relative + (line.map { ":\($0)" } ?? ""),
            recordID: nil, reasonCode: .rejected(.payloadTooLarge), message: message,
            payload: kept, receivedAt: received,
            quarantinedAt: batches.now()
        ).attributed(QuarantineAttribution(json: kept))
        let result = try await batches.store.apply(
            IngestUnit(ledgerKey: key, ledgerHash: "size:\(size)", quarantine: [record]))
        if result.alreadyApplied { return BatchProcessor.alreadyProcessedReport() }
        logger.warning("input refused: too large", metadata: ["file": "\(file.relative)", "bytes": "\(size)"])
        return report
    }

    func ingestRecordFile(_ file: InboxFile, kind: RecordProcessor.Kind, stamp: String? = nil) async throws
        -> IngestReport
    {
        let received = Self.receivedAt(file, wall: batches.clock.wall)
        let key = ledgerKey(file)
        let listKey = kind == .users ? "users" : "workouts"
        if !file.ndjson {
            let size = Self.fileSize(file.url)
            if size > limits.maxBatchBytes {
                return try await rejectOversized(file, user: nil, key: key, size: size, received: received)
            }
            let body = try Self.readFile(file.url)
            let records: [(key: String, value: Result<JSONValue, Rejection>, payload: [UInt8])]
            let document = Self.parse(body, limits: limits)
            if let rejection = document.failure {
                records = [(file.relative, .failure(rejection), body)]
            } else if let list = (try? document.get())?[listKey]?.arrayValue {
                records = list.enumerated().map {
                    ("\(file.relative)#\($0.offset)", .success($0.element), Array($0.element.canonicalText.utf8))
                }
            } else {
                records = [
                    (
                        file.relative,
                        .failure(Rejection(.invalidBatchShape, "File must be an object with a \"\(listKey)\" array")),
                        body
                    )
                ]
            }
            return try await applyRecords(
                records, kind: kind, received: received, key: key, hash: Hashing.sha256Hex(body),
                stamp: stamp)
        }
        var report = IngestReport()
        var pending: [(key: String, value: Result<JSONValue, Rejection>, payload: [UInt8])] = []
        var unit = 0
        var hashInput: [UInt8] = []
        // The last line of the unit before, and (at a full unit) the first line of the next: a record cut across the
        // boundary is attributed with its other piece (`RecordProcessor.attribution`). The units are the same as
        // without them (every `recordsPerUnit` lines), so a rerun's ledger keys match.
        var previousUnitLast: [UInt8]?
        func flush(next: [UInt8]?) async throws {
            guard !pending.isEmpty else { return }
            unit += 1
            report =
                report
                + (try await applyRecords(
                    pending, kind: kind, received: received, key: "\(key)@\(unit)",
                    hash: Hashing.sha256Hex(hashInput), neighbours: (previousUnitLast, next)))
            previousUnitLast = pending.last?.payload
            pending.removeAll(keepingCapacity: true)
            hashInput.removeAll(keepingCapacity: true)
        }
        for line in try LineReader(url: file.url, maxLineBytes: limits.maxLineBytes) {
            let record: (key: String, value: Result<JSONValue, Rejection>, payload: [UInt8])
            let newline: Bool
            switch line {
            case .line(let number, let bytes):
                if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
                record = ("\(file.relative):\(number)", Self.parse(bytes, limits: limits), bytes)
                newline = true
            case .tooLong(let number, let prefix, let length):
                record = (
                    "\(file.relative):\(number)",
                    .failure(
                        Rejection(
                            .payloadTooLarge, "Line of \(length) bytes exceeds the limit of \(limits.maxLineBytes)")
                    ),
                    prefix
                )
                newline = false
            }
            // A full unit is committed once the line after it is read (its neighbour), before that line joins the next.
            if pending.count >= recordsPerUnit { try await flush(next: record.payload) }
            pending.append(record)
            hashInput.append(contentsOf: record.payload)
            if newline { hashInput.append(0x0A) }
        }
        try await flush(next: nil)
        return report
    }

    func applyRecords(
        _ records: [(key: String, value: Result<JSONValue, Rejection>, payload: [UInt8])], kind: RecordProcessor.Kind,
        received: Int64, key: String, hash: String, stamp: String? = nil,
        neighbours: (before: [UInt8]?, after: [UInt8]?) = (nil, nil)
    ) async throws -> IngestReport {
        var report = try await self.records.process(
            kind: kind, records: records, source: "inbox", receivedAt: received,
            ledgerKey: key, ledgerHash: hash, ledgerStamp: stamp, neighbours: neighbours)
        // Batch-level counts of record files are not session batches; keep them out of `batches`.
        report.batches = IngestCounts()
        return report
    }

    /// A record file's document or an NDJSON line as a value. The batch reader first (Foundation's values for what it
    /// accepts, within the depth limit; the workouts' NDJSON through Foundation's decoder was most of the record files'
    /// time, and they are read on one core); whatever it leaves — malformed, too deep, the corners it does not take —
    /// goes the old way, so what is rejected and why does not change.
    static func parse(_ bytes: [UInt8], limits: IngestLimits) -> Result<JSONValue, Rejection> {
        if let value = bytes.withUnsafeBytes({ BatchJSONReader.parse($0, maxDepth: limits.maxJSONDepth) }) {
            return .success(value)
        }
        guard JSONValue.nestingDepth(of: bytes) <= limits.maxJSONDepth else {
            return .failure(Rejection(.jsonTooDeep, "JSON nests deeper than \(limits.maxJSONDepth) levels"))
        }
        do { return .success(try JSONDecoder().decode(JSONValue.self, from: Data(bytes))) } catch {
            return .failure(Rejection(.malformedJSON, "Not valid JSON"))
        }
    }
}

extension Result {
    var failure: Failure? { if case .failure(let f) = self { return f }; return nil }
}

public enum IngestRunError: Error, CustomStringConvertible {
    case inboxNotFound(String)
    public var description: String {
        switch self {
        case .inboxNotFound(let path): "inbox directory not found: \(path)"
        }
    }
}
