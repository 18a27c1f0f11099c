import Foundation

/// Reads FIT activity files (and chains of them) into activities: one per `session` message, or one built from the
/// `record`s when the file has none (a recording cut short before its summary was written).
public enum FITReader {
    /// Seconds between the Unix epoch and the FIT epoch (1989-12-31T00:00:00Z).
    public static let fitEpochOffset: TimeInterval = 631_065_600

    static func date(_ fitSeconds: Double) -> Date { Date(timeIntervalSince1970: fitSeconds + fitEpochOffset) }

    /// Reads a whole FIT file (or chain). Throws only when the first header is not a FIT header.
    public static func read(_ bytes: [UInt8]) throws(WorkoutFileError) -> WorkoutFile {
        var issues = IssueLog()
        var chain = Chain()
        let result: Result<Void, WorkoutFileError> = bytes.withUnsafeBytes { raw in
            do throws(WorkoutFileError) {
                try FITDecoder.decode(raw, issues: &issues, sink: &chain)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
        if let done = chain.finishFile() {
            for message in done.unknownMessages.sorted() {
                issues.add(.fitUnknownMessage, "global message \(message) not used")
            }
            chain.activities += done.activities(fileIndex: chain.fileIndex)
        }
        return WorkoutFile(format: .fit, activities: chain.activities, issues: issues.issues)
    }

    /// The files of a chain: each file's builder gives its activities when the next file starts.
    struct Chain: FITSink {
        var builder: Builder? = nil
        var fileIndex = 0
        var activities: [ImportedActivity] = []
        /// The current file's records, kept here rather than in the builder so that appending one touches nothing else.
        var records: [Sample] = []
        /// Whether the current file's records came in time order, and their track distance (`Geo.trackDistance` of
        /// `records`, summed as they come: the activity of a file with one session or none uses it as it is).
        var recordsInOrder = true
        var track = Geo.Track()
        /// `builder != nil` (a flag: testing the optional would copy the builder), and the time of the last of
        /// `records` (−∞ while there is none).
        var hasBuilder = false
        var lastTime = Date(timeIntervalSinceReferenceDate: -.infinity)

        mutating func fileStart(_ index: Int) {
            if let done = finishFile() { activities += done.activities(fileIndex: fileIndex) }
            fileIndex = index
            builder = Builder()
            hasBuilder = true
        }

        /// The current file's builder with its records.
        mutating func finishFile() -> Builder? {
            guard var done = builder else { return nil }
            builder = nil
            hasBuilder = false
            lastTime = Date(timeIntervalSinceReferenceDate: -.infinity)
            done.records = records
            done.recordsInOrder = recordsInOrder
            done.recordsTrack = track
            records = []
            recordsInOrder = true
            track = Geo.Track()
            return done
        }

        mutating func message(_ message: FITMessage) { builder?.add(message) }

        @inline(__always)
        mutating func record(_ sample: consuming Sample) {
            guard hasBuilder else { return }
            if sample.time < lastTime { recordsInOrder = false }
            lastTime = sample.time
            track.add(sample.latitude, sample.longitude)
            records.append(sample)
        }

        mutating func expectRecords(_ count: Int) {
            records.reserveCapacity(records.count + count)
            // The whole capacity (the buffer pointer covers the elements only), before any of it is written.
            let capacity = records.capacity
            records.withUnsafeMutableBufferPointer { HugePages.advise($0.baseAddress, capacity: capacity) }
        }
    }

    /// Collects the messages of one FIT file of a chain.
    struct Builder {
        struct Session {
            var message: FITMessage
        }

        var serial: Int?
        var timeCreated: Int?
        var manufacturer: Int?
        var product: Int?
        var device = Device()
        var sportMessage: (sport: Int?, subSport: Int?, name: String?)?
        var utcOffset: Int?
        var sessions: [FITMessage] = []
        var laps: [FITMessage] = []
        var records: [Sample] = []
        /// Set with `records` by `Chain.finishFile`: whether they are in time order, and their track so far.
        var recordsInOrder = true
        var recordsTrack = Geo.Track()
        var timerEvents: [(time: Double, stop: Bool)] = []
        var unknownMessages = Set<UInt16>()

        /// Global messages that are read, or known and of no use to an activity (and so not reported).
        static let quietMessages: Set<UInt16> = [
            1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 13, 15, 22, 26, 27, 30, 31, 32, 33, 35, 37, 49, 72, 78, 101, 103, 104, 105,
            106, 113, 132, 141, 142, 145, 206, 207, 216, 225, 227, 258, 285, 288, 289, 290, 297, 312, 313, 317, 319,
            323, 324,
        ]

        mutating func add(_ m: FITMessage) {
            switch m.global {
            case 0: // file_id
                serial = m.integer(3)
                timeCreated = m.integer(4)
                manufacturer = m.integer(1)
                product = m.integer(2)
                device.manufacturer = manufacturer.map(FITProfile.manufacturerName)
                device.product = m.string(8) ?? product.map { String($0) }
                device.serialNumber = serial.map { String($0) }
            case 23: // device_info: the creator (device_index 0) gives the software version
                if m.number(0) == 0 || m.number(0) == nil && device.softwareVersion == nil {
                    if let v = m.number(5) { device.softwareVersion = String(format: "%.2f", v / 100) }
                    if let name = m.string(27), device.product == nil || device.product == product.map({ String($0) }) {
                        device.product = name
                    }
                }
            case 12: // sport
                sportMessage = (m.integer(0), m.integer(1), m.string(3))
            case 34: // activity: local_timestamp − timestamp is the device's UTC offset
                if let t = m.timestamp, let local = m.integer(5), abs(local - Int(t)) <= 86_400 {
                    utcOffset = local - Int(t)
                }
            case 18: sessions.append(m)
            case 19: laps.append(m)
            case 20: break // records come straight as samples (FITDecoder.readRecord), never as messages
            case 21: // event: timer (0) start (0) / stop (1) / stop_all (4) / stop_disable (8) / stop_disable_all (9)
                if m.number(0) == 0, let t = m.timestamp, let type = m.number(1) {
                    switch type {
                    case 0: timerEvents.append((Double(t), false))
                    case 1, 4, 8, 9: timerEvents.append((Double(t), true))
                    default: break
                    }
                }
            default:
                if !Self.quietMessages.contains(m.global) { unknownMessages.insert(m.global) }
            }
        }

        func activities(fileIndex: Int) -> [ImportedActivity] {
            let identityBase =
                "fit:\(serial.map { String($0) } ?? "-"):\(timeCreated.map { String($0) } ?? "-")"
                + (fileIndex > 0 ? ":f\(fileIndex)" : "")
            var records = self.records
            if !recordsInOrder { records.sort { $0.time < $1.time } }
            // The records' track distance as `Chain` summed it, valid for an activity that has all of them in file
            // order (sorting changes the order of the sum).
            let allRecordsTrack: Double?? = recordsInOrder ? .some(recordsTrack.distance) : nil
            var pauses: [Pause] = []
            for event in timerEvents.sorted(by: { $0.time < $1.time }) {
                if event.stop {
                    if pauses.last.map({ $0.end != nil }) ?? true {
                        pauses.append(Pause(start: FITReader.date(event.time), end: nil))
                    }
                } else if let last = pauses.last, last.end == nil {
                    pauses[pauses.count - 1].end = FITReader.date(event.time)
                }
            }
            // A stop that is the last timer event ends the recording, not a pause.
            if let last = pauses.last, last.end == nil { pauses.removeLast() }

            if sessions.isEmpty {
                guard let first = records.first, let last = records.last else { return [] }
                var activity = makeActivity(
                    identity: identityBase + ":r", start: first.time,
                    duration: last.time.timeIntervalSince(first.time), session: nil,
                    samples: records, pauses: pauses, laps: laps, trackDistance: allRecordsTrack)
                activity.datesFrom = "record.timestamp (first and last)"
                activity.issues.append(
                    ReadIssue(
                        code: .fitNoSession,
                        detail: "no session message: the summary is derived from the records"))
                return [activity]
            }
            // Each session's span; a record, pause or lap belongs to the first session (in file order) whose span
            // holds it, so overlapping sessions of a damaged file never count a record twice.
            let datesFrom = sessions.map { session in
                (session.number(2) != nil
                    ? "session.start_time" : records.isEmpty ? "session.timestamp" : "record.timestamp (first)")
                    + (session.number(7) != nil ? ", session.total_elapsed_time" : ", session.timestamp")
            }
            let spans: [(start: Date, elapsed: Double)] = sessions.map { session in
                let startSeconds =
                    session.number(2) ?? records.first.map { $0.time.timeIntervalSince1970 - FITReader.fitEpochOffset }
                    ?? Double(session.timestamp ?? 0)
                let elapsed =
                    session.number(7).map { $0 / 1000 } ?? session.timestamp.map { Double($0) - startSeconds } ?? 0
                return (FITReader.date(startSeconds), elapsed)
            }
            if sessions.count == 1 {
                // One session owns everything (no copy of what may be millions of records, unless some are left out
                // below). The dates the file agrees on: records far from the others' are left out, and a
                // session start outside the records' times yields to them.
                var (start, elapsed, from) = (spans[0].start, spans[0].elapsed, datesFrom[0])
                let (samples, outliers) = DateAgreement.majority(records)
                var disagreements: [String] = []
                if outliers > 0 {
                    disagreements.append(
                        "\(outliers) of \(records.count) record.timestamp far from the others' (left out)")
                }
                if let first = samples.first, let last = samples.last, !DateAgreement.agrees(start, with: samples) {
                    disagreements.append("session start is not within the records' times")
                    start = first.time
                    elapsed = last.time.timeIntervalSince(first.time)
                    from = "record.timestamp (first and last)"
                }
                var activity = makeActivity(
                    identity: identityBase + ":0", start: start, duration: elapsed,
                    session: sessions[0], samples: samples, pauses: pauses, laps: laps,
                    trackDistance: outliers > 0 ? nil : allRecordsTrack)
                activity.datesFrom = from
                if !disagreements.isEmpty {
                    activity.issues.append(
                        ReadIssue(
                            code: .datesDisagree,
                            detail: disagreements.joined(separator: "; ") + "; the dates are the records'"))
                }
                return [activity]
            }
            func owner(_ time: Date) -> Int? {
                spans.firstIndex { time >= $0.start && time <= $0.start.addingTimeInterval($0.elapsed) }
            }
            var samplesBySession = [[Sample]](repeating: [], count: sessions.count)
            for record in records { if let i = owner(record.time) { samplesBySession[i].append(record) } }
            var pausesBySession = [[Pause]](repeating: [], count: sessions.count)
            for pause in pauses { if let i = owner(pause.start) { pausesBySession[i].append(pause) } }
            var lapsBySession = [[FITMessage]](repeating: [], count: sessions.count)
            for lap in laps {
                if let i = owner(lap.number(2).map(FITReader.date) ?? spans[0].start) { lapsBySession[i].append(lap) }
            }
            return sessions.indices.map { i in
                var activity = makeActivity(
                    identity: identityBase + ":\(i)", start: spans[i].start, duration: spans[i].elapsed,
                    session: sessions[i],
                    samples: samplesBySession[i], pauses: pausesBySession[i], laps: lapsBySession[i])
                activity.datesFrom = datesFrom[i]
                return activity
            }
        }

        func makeActivity(
            identity: String, start: Date, duration: Double, session: FITMessage?, samples: [Sample],
            pauses: [Pause], laps: [FITMessage], trackDistance: Double?? = nil
        ) -> ImportedActivity {
            let sportNumber = session?.integer(5) ?? sportMessage?.sport ?? laps.first?.integer(25)
            let subSport = session?.integer(6) ?? sportMessage?.subSport
            let sport = FITProfile.sport(sportNumber, subSport)
            let pausedSeconds = pauses.reduce(0.0) {
                $0 + ($1.end ?? start.addingTimeInterval(duration)).timeIntervalSince($1.start)
            }
            var heartRates: [Double] {
                samples.compactMap(\.heartRateBpm)
            }
            var activity = ImportedActivity(
                format: .fit, sourceIdentity: identity, sport: sport,
                sourceSport: FITProfile.sportName(sportNumber, subSport),
                start: start, utcOffsetSeconds: utcOffset, durationS: duration,
                movingTimeS: session?.number(8).map { $0 / 1000 } ?? max(0, duration - pausedSeconds),
                distanceM: session?.number(9).map { $0 / 100 }
                    ?? samples.last(where: { $0.distanceM != nil })?.distanceM,
                trackDistanceM: trackDistance ?? Geo.trackDistance(samples),
                energyKcal: session?.number(11),
                avgHeartRateBpm: session?.number(16)
                    ?? {
                        let hr = heartRates; return hr.isEmpty ? nil : hr.reduce(0, +) / Double(hr.count)
                    }(),
                maxHeartRateBpm: session?.number(17) ?? heartRates.max(),
                elevationGainM: session?.number(22),
                laps: laps.map(FITReader.lap), pauses: pauses, samples: samples,
                device: device == Device() ? nil : device)
            for entry in session?.developer ?? [] { activity.developerFields[entry.name] = entry.value }
            return activity
        }
    }

    static func lap(_ m: FITMessage) -> Lap {
        Lap(
            start: (m.number(2) ?? m.timestamp.map(Double.init) ?? 0).fitDate,
            durationS: m.number(7).map { $0 / 1000 }, movingTimeS: m.number(8).map { $0 / 1000 },
            distanceM: m.number(9).map { $0 / 100 }, energyKcal: m.number(11),
            avgHeartRateBpm: m.number(15), maxHeartRateBpm: m.number(16), avgPowerW: m.number(19))
    }
}

extension Double {
    fileprivate var fitDate: Date { FITReader.date(self) }
}
