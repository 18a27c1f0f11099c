import Crypto
import Foundation
import Store
import WorkoutFiles

/// Workout files into workout records (docs/workout-files.md): a FIT file from any device, a TCX or GPX
/// export, an Apple Health export (`export.zip` or `export.xml`) — from `pipeline import`, the inbox's
/// `files/<user_id>/` and `POST /v1/me/files`, all through this one path.
///
/// Each activity the reader finds becomes a workout record in the V2 shape (docs/workout-records.md) and goes through
/// the same validation, ledger and quarantine as a record from a workouts file: its samples, as `t` seconds since the
/// start, are measured by the nightly like every record's (resampled to 1 Hz, `WorkoutAnalyzer`), and it counts in
/// stats, streaks, training load and the plan baseline. Its id is derived from the file's own identity of the
/// activity and its version (`updated_at`) is the activity's end, so importing the same file again, or another export
/// holding the same activity, is a duplicate.
///
/// A file that cannot be read at all is quarantined with the reader's reason code (`unknown_format`,
/// `fit_bad_header`, `zip_no_export_xml`, …): at most `maxQuarantinePayloadBytes` of it, with its size and SHA-256. A
/// file read in part (a truncated FIT, a bad CRC, XML that stops half way) gives the activities that could be read,
/// flagged, and is kept in quarantine too with the damage's code, for the operator.
public struct WorkoutFileInput: Sendable {
    public enum Contents: Sendable { case bytes([UInt8]), file(URL) }
    public var user: UserID
    /// Where the file came from, for the quarantine and logs (`files/<user>/ride.fit`, `import:ride.fit`, `request:…`).
    public var sourceKey: String
    /// The file's name, for its extension (a hint only: formats are recognised by content).
    public var fileName: String?
    public var contents: Contents
    public init(user: UserID, sourceKey: String, fileName: String?, contents: Contents) {
        self.user = user; self.sourceKey = sourceKey; self.fileName = fileName; self.contents = contents
    }
}

extension RecordProcessor {
    /// Imports one file for `input.user`. `ledgerKey`: the inbox file's key; nil for a file given directly, which is
    /// then keyed by the user (keyed hash) and the content, so that the same file imported twice is a duplicate.
    public func importWorkoutFile(
        _ input: WorkoutFileInput, source: String, receivedAt: Int64, ledgerKey: String? = nil,
        ledgerStamp: String? = nil
    ) async throws -> IngestReport {
        try await commit(
            try await prepareWorkoutFile(
                input, source: source, receivedAt: receivedAt, ledgerKey: ledgerKey, ledgerStamp: ledgerStamp))
    }

    /// Imports `inputs` one after the other, as `importWorkoutFile` of each in turn would, with the next `ahead` files
    /// read, validated and hashed (each in a task of its own) while the ones before them are written. Files prepared
    /// one after the other are written in groups (`commit(_:)` of several): up to `group` files and, once a group
    /// holds `groupBytes` of files, no more (a large file goes alone), each group in one transaction, so that a
    /// folder of small files does not pay a commit each. At most `ahead + group` files are in memory. The outcome is
    /// that of the files imported in order, since preparing a file only reads what no import changes (the user, the
    /// identifier key) and the writer decides duplicates, conflicts and the ledger in commit order. `receivedAt` is
    /// read as each file's preparation starts; `done` is told each file's report, in order, once its group is
    /// committed. An error from the store stops the import: the files of the group it was writing are not stored
    /// (nor in the ledger), so importing the folder again takes them, and the files before them are duplicates.
    public func importWorkoutFiles(
        _ inputs: [WorkoutFileInput], source: String, receivedAt: @escaping @Sendable () -> Int64, ahead: Int = 2,
        group: Int = 8, groupBytes: Int = 1 << 22, done: (Int, IngestReport) async throws -> Void
    ) async throws {
        guard !inputs.isEmpty else { return }
        let processor = self
        // The operator's key resolved once for the files (it reads the environment, a key file and the store).
        let identifiers = try await IdentifierHasher.resolve(store: store)
        var tasks: [Int: Task<PreparedWorkoutFile, any Error>] = [:]
        defer { for task in tasks.values { task.cancel() } }
        var started = 0
        var next = 0
        while next < inputs.count {
            let first = next
            var files: [PreparedWorkoutFile] = []
            var bytes = 0
            while next < inputs.count, files.count < max(group, 1), bytes < groupBytes {
                while started < inputs.count, started <= next + max(ahead, 0) {
                    let input = inputs[started], at = receivedAt()
                    tasks[started] = Task {
                        try await processor.prepareWorkoutFile(
                            input, source: source, receivedAt: at, identifiers: identifiers)
                    }
                    started += 1
                }
                let prepared = try await tasks.removeValue(forKey: next)!.value
                bytes += prepared.bytes
                files.append(prepared)
                next += 1
            }
            for (i, report) in try await commit(files).enumerated() { try await done(first + i, report) }
        }
    }

    /// A workout file read, validated and hashed (`prepareWorkoutFile`), for the store's writer (`commit(_:)`).
    public struct PreparedWorkoutFile: Sendable {
        enum Work: Sendable {
            /// Nothing to write (a deleted user's file): the report as it is.
            case none
            /// The whole file refused: its quarantine row in a unit of its own.
            case refusal(IngestUnit, QuarantineReason)
            /// Its activities as records, and what the file's report says besides.
            case records(PreparedRecords, damaged: Bool, flags: [ImportFlag])
        }
        var report: IngestReport
        var work: Work
        /// The file's size.
        var bytes: Int

        /// What the store is given for the file: its unit (none for a file with nothing to write).
        var unit: IngestUnit? {
            switch work {
            case .none: nil
            case .refusal(let unit, _): unit
            case .records(let records, _, _): records.unit
            }
        }

        /// The file's report, once the store has applied its unit with `result` (nil for a file without one).
        func report(given result: IngestUnitResult?) -> IngestReport {
            var report = self.report
            switch work {
            case .none:
                return report
            case .refusal(_, let reason):
                if result?.alreadyApplied == true {
                    report.files.duplicates = 1
                } else {
                    report.files.quarantine(reason: reason)
                }
                return report
            case .records(let records, let damaged, let flags):
                var imported = RecordProcessor.report(of: records, given: result!)
                if imported.batches.duplicates > 0 {
                    report.files.duplicates = 1
                } else {
                    report.files.stored = 1
                    report.damagedFiles = damaged ? 1 : 0
                    report.flaggedFiles = flags.isEmpty ? 0 : 1
                    report.importFlags = flags
                }
                imported.batches = IngestCounts()
                return report + imported
            }
        }
    }

    /// Commits a prepared file: its unit in one transaction, and the file's report.
    public func commit(_ prepared: PreparedWorkoutFile) async throws -> IngestReport {
        try await commit([prepared])[0]
    }

    /// Commits prepared files in order, in one transaction (each file atomic with its ledger entry, and the group
    /// with them); answers each as `commit(_:)` of it alone would, the files before it committed.
    public func commit(_ files: [PreparedWorkoutFile]) async throws -> [IngestReport] {
        let units = files.compactMap(\.unit)
        var results = (units.isEmpty ? [] : try await store.apply(units)).makeIterator()
        return files.map { file in file.report(given: file.unit == nil ? nil : results.next()) }
    }

    /// Everything `importWorkoutFile` does before the write: the file read, its activities as validated records with
    /// their samples in columns and their content hashes. Reads the store (the user, the identifier key), writes
    /// nothing. `identifiers`: the operator's key when the caller has resolved it already (`importWorkoutFiles`, once
    /// for all its files); resolved here otherwise.
    public func prepareWorkoutFile(
        _ input: WorkoutFileInput, source: String, receivedAt: Int64, ledgerKey: String? = nil,
        ledgerStamp: String? = nil, identifiers resolved: IdentifierHasher? = nil
    ) async throws -> PreparedWorkoutFile {
        // A file of at most `wholeFileBytes` (an activity file; not a Health export) read once, whole: its
        // fingerprint and its reading from the same bytes, under the file's own name as `read(url:)` would.
        var (contents, readName) = (input.contents, input.fileName)
        if case .file(let url) = input.contents, let whole = try Self.whole(url, atMost: Self.wholeFileBytes) {
            (contents, readName) = (.bytes(whole), url.lastPathComponent)
        }
        let (hash, size, evidence) = try Self.fingerprint(
            contents, keep: workoutValidator.limits.maxQuarantinePayloadBytes)
        let identifiers: IdentifierHasher
        if let resolved { identifiers = resolved } else { identifiers = try await .resolve(store: store) }
        let key = ledgerKey ?? "file:\(identifiers.hash(input.user)):\(hash)"
        var report = IngestReport()
        report.files.received = 1
        let at = now()
        func quarantined(_ reason: QuarantineReason, _ message: String) -> QuarantineRecord {
            let kept =
                evidence.count < size
                ? " [payload: first \(evidence.count) of \(size) bytes kept; SHA-256 of all: \(hash)]" : ""
            return QuarantineRecord(
                userID: input.user, source: source, sourceKey: input.sourceKey, recordID: nil, reasonCode: reason,
                message: message + kept, payload: evidence, receivedAt: receivedAt, quarantinedAt: at)
        }
        func refuse(_ reason: QuarantineReason, _ message: String) -> PreparedWorkoutFile {
            var unit = IngestUnit(ledgerKey: key, ledgerHash: hash, quarantine: [quarantined(reason, message)])
            unit.ledgerStamp = ledgerStamp
            return PreparedWorkoutFile(report: report, work: .refusal(unit, reason), bytes: size)
        }

        guard try await store.user(input.user) != nil else {
            if try await identifiers.wasDeleted(input.user, in: store) {
                // A deleted user's file arriving later is dropped (counted), not kept.
                report.files.droppedDeletedUser = 1
                return PreparedWorkoutFile(report: report, work: .none, bytes: size)
            }
            return refuse(.rejected(.unknownUser), "Unknown user")
        }
        let file: WorkoutFile
        do throws(WorkoutFileError) {
            switch contents {
            case .bytes(let bytes): file = try WorkoutFileReader.read(bytes: bytes, fileName: readName)
            case .file(let url): file = try WorkoutFileReader.read(url: url)
            }
        } catch {
            return refuse(QuarantineReason(rawValue: error.code.rawValue), "\(input.fileName ?? "file"): \(error)")
        }
        var also: [QuarantineRecord] = []
        let name = input.fileName ?? "file"
        let damage = file.issues.filter(\.code.isDamage) + file.activities.flatMap { $0.issues.filter(\.code.isDamage) }
        let flags = Self.flags(file, damage: damage, fileName: name)
        let flagText = flags.map { f in
            f.code + (f.activity.map { " (activity \($0 + 1))" } ?? "") + ": " + f.detail
        }.joined(separator: "; ")
        if let first = damage.first {
            also.append(
                quarantined(
                    QuarantineReason(rawValue: first.code.rawValue),
                    "\(name) (\(file.format.rawValue)) read in part: "
                        + damage.map(\.description).joined(separator: "; ")
                        + "; \(file.activities.count) activities imported from what could be read"
                        + (flags.isEmpty ? "" : "; flags: " + flagText)))
        } else if let first = flags.first {
            // Imported, flagged: kept in the quarantine list too, as a damaged file is, for the operator.
            also.append(
                quarantined(
                    QuarantineReason(rawValue: first.code),
                    "\(name) (\(file.format.rawValue)) imported with flags: " + flagText))
        }
        // Each record's JSON value without its samples, and the samples in columns beside it: the store keeps
        // them in columns (`StoredSamples`), and the record's content hash is that of its canonical text without
        // them and of their layout (`ImportedRecord.columnsHash`). Its payload, kept only if it is quarantined, is
        // its canonical text with the samples (its first `maxQuarantinePayloadBytes`, `canonicalDigest`), written
        // only where it may be kept or compared (`RecordProcessor.prepare`): a record refused, or one whose version
        // the writer finds stored with another hash.
        var records: [(key: String, value: Result<JSONValue, Rejection>, payload: [UInt8])] = []
        var rules: [WorkoutValidator.FileRecordRules] = []
        for (n, activity) in file.activities.enumerated() {
            let value = ImportedRecord.json(activity, user: input.user)
            var rule = WorkoutValidator.FileRecordRules(
                durationKnown: activity.durationKnown, datesFrom: activity.datesFrom)
            var payload: [UInt8] = []
            if let columns = ImportedRecord.columns(activity)?.withLayout() {
                rule.samples = columns
                rule.contentHash = ImportedRecord.columnsHash(value, samples: columns)
            } else {
                payload = Array(value.canonicalText.utf8)
            }
            records.append((key: "\(input.sourceKey)#\(n)", value: .success(value), payload: payload))
            rules.append(rule)
        }
        let prepared = try await prepare(
            kind: .workouts, records: records, source: source, receivedAt: receivedAt,
            ledgerKey: key, ledgerHash: hash, ledgerStamp: ledgerStamp, alsoQuarantine: also, fileRules: rules,
            neighbours: (nil, nil), knownUsers: [input.user: true])
        return PreparedWorkoutFile(
            report: report, work: .records(prepared, damaged: !damage.isEmpty, flags: flags), bytes: size)
    }

    /// The flags of a file's import: each activity's `partial_import` and `dates_disagree` notes, and a
    /// `partial_import` for the whole file when it was read in part (its damage: what came after it is missing).
    static func flags(_ file: WorkoutFile, damage: [ReadIssue], fileName: String) -> [ImportFlag] {
        var flags: [ImportFlag] = []
        if !damage.isEmpty {
            flags.append(
                ImportFlag(
                    code: ReasonCode.partialImport.rawValue, file: fileName, activity: nil,
                    detail: "read in part (" + damage.map(\.description).joined(separator: "; ")
                        + "): what came after the damage is missing"))
        }
        for (n, activity) in file.activities.enumerated() {
            for issue in activity.issues where issue.code.isFlag {
                flags.append(
                    ImportFlag(code: issue.code.rawValue, file: fileName, activity: n, detail: issue.detail))
            }
        }
        return flags
    }

    /// What `prepareWorkoutFile` reads whole rather than in chunks: 16 MiB, a FIT recording of several days (at most
    /// `importWorkoutFiles`' `ahead + group` files are held at once, and a group of more than one file holds less
    /// than its `groupBytes` before its last file).
    static let wholeFileBytes = 1 << 24

    /// The file's bytes when it holds at most `limit` (nil when it holds more, without reading them: read in chunks
    /// then).
    static func whole(_ url: URL, atMost limit: Int) throws -> [UInt8]? {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        guard try handle.seekToEnd() <= UInt64(limit) else { return nil }
        try handle.seek(toOffset: 0)
        return try handle.readToEnd().map { [UInt8]($0) } ?? []
    }

    /// SHA-256 (hex) and size of the contents, and their first `keep` bytes, reading a file in chunks (an Apple Health
    /// export is hundreds of MB: never whole in memory here).
    static func fingerprint(_ contents: WorkoutFileInput.Contents, keep: Int) throws -> (String, Int, [UInt8]) {
        switch contents {
        case .bytes(let bytes):
            return (Hashing.sha256Hex(bytes), bytes.count, Array(bytes.prefix(keep)))
        case .file(let url):
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            var hasher = SHA256()
            var size = 0
            var kept: [UInt8] = []
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                hasher.update(data: chunk)
                if kept.count < keep { kept += chunk.prefix(keep - kept.count) }
                size += chunk.count
            }
            return (lowercaseHex(hasher.finalize()), size, kept)
        }
    }
}

/// An imported activity as a workout record (docs/workout-records.md), with the figures the file's own summary gives.
public enum ImportedRecord {
    /// `<source>-<first 32 hex digits of the SHA-256 of the file's identity of the activity>`: stable across imports
    /// of the same file and of other files with the same activity identity (a FIT file's serial number and creation
    /// time, a TCX activity `Id`, an Apple Health workout's type, source and times). Where the file names what wrote
    /// it (GPX `creator`, TCX `Creator`) that is part of the identity too: the same ride from Strava and from
    /// Garmin Connect are two recordings — both kept, linked as one activity by the dedup, the richest the primary,
    /// whatever the order they came in — not one id whose second file is quarantined as `conflict`.
    public static func id(_ activity: ImportedActivity) -> String {
        let identity = activity.creator.map { activity.sourceIdentity + "\u{0}" + $0 } ?? activity.sourceIdentity
        return "\(activity.format.recordSource)-\(Hashing.sha256Hex(Array(identity.utf8)).prefix(32))"
    }

    /// What an imported record's content hash starts with when it is `columnsHash`'s (a hash without it is of the
    /// record's canonical text: API records, and records imported before).
    public static let columnsHashPrefix = "cols-"

    /// The content hash of an imported record with samples (docs/workout-records.md, "Content hash"):
    /// `cols-` and the lower-case hex SHA-256 of the canonical text of `value` (the record without its samples), a
    /// zero byte, and the samples' layout (`StoredSamples.body`). The layout holds every value exactly, so equal
    /// hashes mean equal records as the canonical text's hash did, without writing a number as text.
    public static func columnsHash(_ value: JSONValue, samples: SampleColumns) -> String {
        var hasher = SHA256()
        hasher.update(data: Array(value.canonicalText.utf8))
        hasher.update(data: [0])
        StoredSamples.body(samples).withUnsafeBytes { hasher.update(bufferPointer: $0) }
        return columnsHashPrefix + lowercaseHex(hasher.finalize())
    }

    /// The canonical text of `value` with `samples` as its `samples` member (`JSONValue.canonicalBytes(adding:raw:)`
    /// of their `SampleColumns.writeCanonicalJSON` text), hashed in 64 KiB pieces as it is written: its SHA-256 (the
    /// record's content hash), its size and its first `keep` bytes, never the whole text (150 MB for a 19-day FIT).
    static func canonicalDigest(_ value: JSONValue, samples: SampleColumns, keep: Int) -> StreamedDigest {
        let chunk = 1 << 16
        var digest = StreamedDigest(keep: keep)
        var text: [UInt8] = []
        text.reserveCapacity(chunk + 4096)
        value.writeCanonical(adding: "samples", into: &text) { out in
            samples.writeCanonicalJSON(into: &out, chunk: chunk) { digest.consume(&$0) }
        }
        digest.consume(&text)
        return digest
    }

    /// The record's JSON value without its samples (`columns` gives them).
    public static func json(_ a: ImportedActivity, user: UserID) -> JSONValue {
        let startMillis = Int64((a.start.timeIntervalSince1970 * 1000).rounded())
        let endMillis = Int64((a.end.timeIntervalSince1970 * 1000).rounded())
        var o: [String: JSONValue] = [
            "id": .string(id(a)), "user_id": .string(user.rawValue), "source": .string(a.format.recordSource),
            // The activity's end: the same activity imported again is the same version (a duplicate).
            "updated_at": .string(RFC3339.format(millis: endMillis)),
            "activity_type": .string(a.sport.rawValue),
            "start": .string(RFC3339.format(millis: startMillis)), "end": .string(RFC3339.format(millis: endMillis)),
            // Moving time where the file gives one (docs/workout-files.md: which figure and why); elapsed time when
            // the moving time is none (a track too sparse to see movement in: points a minute apart).
            "duration_s": .number(a.durationUsedS > 0 ? a.durationUsedS : a.durationS),
        ]
        if let v = a.distanceUsedM { o["distance_m"] = .number(v) }
        if let v = a.energyKcal { o["energy_kcal"] = .number(v) }
        if let v = a.avgHeartRateBpm { o["avg_hr"] = .number(v) }
        if let v = a.maxHeartRateBpm { o["max_hr"] = .number(v) }
        if let v = a.elevationGainM { o["elevation_gain_m"] = .number(v) }
        return .object(o)
    }

    /// The activity's samples as the record keeps them (docs/workout-records.md, "Samples"): `t` seconds since the
    /// start (samples before it or without a finite time left out), `hr_bpm`, `power_w`, `cadence_rpm`, `speed_mps`,
    /// `distance_m`, `altitude_m` where the sample has a finite value; a sample with none of them is left out. Nil when
    /// no sample is left.
    public static func columns(_ a: ImportedActivity) -> SampleColumns? {
        let n = a.samples.count
        var t: [Double] = [], hr: [Double] = [], power: [Double] = [], cadence: [Double] = []
        var speed: [Double] = [], distance: [Double] = [], altitude: [Double] = []
        t.reserveCapacity(n); hr.reserveCapacity(n); power.reserveCapacity(n); cadence.reserveCapacity(n)
        speed.reserveCapacity(n); distance.reserveCapacity(n); altitude.reserveCapacity(n)
        func value(_ v: Double?) -> Double { v.flatMap { $0.isFinite ? $0 : nil } ?? .nan }
        let start = a.start
        for s in a.samples {
            let time = s.time.timeIntervalSince(start)
            guard time >= 0, time.isFinite else { continue }
            let point = (
                value(s.heartRateBpm), value(s.powerW), value(s.cadenceRpm), value(s.speedMps), value(s.distanceM),
                value(s.altitudeM)
            )
            // A sample with none of the channels is left out (its object would hold `t` alone).
            guard
                !(point.0.isNaN && point.1.isNaN && point.2.isNaN && point.3.isNaN && point.4.isNaN
                    && point.5.isNaN)
            else { continue }
            t.append(time)
            hr.append(point.0); power.append(point.1); cadence.append(point.2)
            speed.append(point.3); distance.append(point.4); altitude.append(point.5)
        }
        guard !t.isEmpty else { return nil }
        return SampleColumns(
            count: t.count,
            values: [
                .t: t, .hrBpm: hr, .powerW: power, .cadenceRpm: cadence, .speedMps: speed, .distanceM: distance,
                .altitudeM: altitude,
            ])
    }
}
