import Foundation
import GRDB
import PostgresNIO
import PropertyBased
import Store
import Testing

@testable import Store
@testable import StorePostgres
@testable import StoreSQLite

/// Workout samples stored in columns (issue 40, `StoredSamples`; docs/workout-records.md, "How samples are stored"):
/// what is read back is what was stored, bit for bit, and its JSON text is the text the record had; samples of another
/// shape and rows stored before read back as their text; the columns are a fifth of the JSON or less.
@Suite(.shrinking) struct StoredSamplesTests {
    /// A value of a channel: nil ("no value"), or a finite number from one of several kinds — whole numbers, one or
    /// two decimals, full-precision doubles, and the extremes (the largest and smallest finite, subnormals, 2^53 and
    /// the 10^15 boundary where canonical JSON switches from integers to Swift's text).
    static var valueGenerator: Generator<Double?, AnySequence<Any>> {
        zip(Gen.int(in: 0...7), Gen.int(in: -2_000_000...2_000_000), Gen.double(in: -1e6...1e6)).map {
            kind, n, x -> Double? in
            switch kind {
            case 0: nil
            case 1: Double(n)
            case 2: Double(n) / 10
            case 3: Double(n) / 100
            case 4: x
            case 5:
                [
                    Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude, Double.leastNonzeroMagnitude,
                    Double.leastNormalMagnitude, 9_007_199_254_740_992, 1e15, 999_999_999_999_999, 1e15 + 2, 1e-7,
                    -123_456.789e-12,
                ][abs(n) % 10]
            case 6: Double(n) * 1e9 + 0.5
            default: Double(n) / 1_000_000
            }
        }
        .eraseToAny()
    }

    /// Columns of 0 to 200 samples (a single point and none among them), each channel absent, sparse or full.
    static var columnsGenerator: Generator<SampleColumns, AnySequence<Any>> {
        zip(
            Gen.int(in: 0...200), Gen.int(in: 0...255), valueGenerator.array(of: 1...8),
            Gen.int(in: 0...3)
        )
        .map { count, mask, pool, tKind in
            var values: [SampleColumns.Channel: [Double]] = [:]
            values[.t] = (0..<count).map { i in
                switch tKind {
                case 0: Double(i)
                case 1: Double(i) * 0.25
                case 2: pool[i % pool.count] ?? Double(i)
                default: Double(i) + 1e-9 * Double(i % 7)
                }
            }
            for channel in SampleColumns.Channel.allCases.dropFirst() where mask & (1 << channel.rawValue) != 0 {
                values[channel] = (0..<count).map { i in pool[(i * (channel.rawValue + 3)) % pool.count] ?? .nan }
            }
            return SampleColumns(count: count, values: count == 0 ? [:] : values)!
        }
        .eraseToAny()
    }

    @Test func columnsReadBackBitForBit() async {
        await propertyCheck(count: 300, input: Self.columnsGenerator) { columns in
            let stored = StoredSamples.encode(columns)
            #expect(stored.first == StoredSamples.formatColumns)
            guard case .columns(let back) = try? StoredSamples.decode(stored) else {
                Issue.record("stored columns did not decode as columns")
                return
            }
            #expect(back == columns)
            for channel in SampleColumns.Channel.allCases {
                #expect(back.column(channel).map(\.bitPattern) == columns.column(channel).map(\.bitPattern))
            }
            // The JSON text is the canonical text of the same samples, and stored as text it comes back as columns.
            let text = columns.canonicalJSON
            #expect(text == Self.referenceJSON(columns))
            #expect(StoredSamples.encode(json: text).first == StoredSamples.formatColumns)
            #expect((try? StoredSamples.decode(StoredSamples.encode(json: text)))?.json == text)
        }
    }

    /// Canonical JSON written the slow way (Foundation's number text for non-integers, as `JSONValue` writes them),
    /// independently of `SampleColumns.writeCanonicalJSON`.
    static func referenceJSON(_ columns: SampleColumns) -> String {
        let keyed = SampleColumns.Channel.allCases.map { ($0.key, columns.column($0)) }.filter { !$0.1.isEmpty }
            .sorted { $0.0 < $1.0 }
        let objects = (0..<columns.count).map { i in
            "{"
                + keyed.compactMap { key, column in
                    column[i].isNaN
                        ? nil
                        : "\"\(key)\":"
                            + (column[i] == column[i].rounded() && abs(column[i]) < 1e15
                                ? String(Int64(column[i])) : "\(column[i])")
                }.joined(separator: ",") + "}"
        }
        return "[" + objects.joined(separator: ",") + "]"
    }

    /// Numbers written from their decimal scale are the text Swift writes for them (`CanonicalNumber.write`).
    @Test func decimalNumbersAreSwiftsText() {
        var state: UInt64 = 11
        for n in 0..<100_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let digits = [3, 6, 9, 12, 15][n % 5]
            var m = Int64(state >> 1) % Int64(pow(10, Double(digits)))
            if state & 1 == 1 { m = -m }
            let s = n % 6 + 1
            let d = Double(m) / StoredSamples.power(s)
            var out: [UInt8] = []
            CanonicalNumber.write(d, scale: StoredSamples.decimalScale([d]), into: &out)
            #expect(String(decoding: out, as: UTF8.self) == CanonicalNumber.format(d), "\(m) / 10^\(s)")
            #expect(CanonicalNumber.format(d) == (d == d.rounded() ? String(Int64(d)) : d.description))
        }
    }

    /// Samples of any other shape are kept as their text, exactly: white space, `null`, other keys, strings, keys out
    /// of order, numbers in another spelling, no `t`, not an array.
    @Test(arguments: [
        #"[{"t": 0, "hr_bpm": 120}]"#, #"[{"hr_bpm":null,"t":0}]"#, #"[{"lat":52.1,"t":0}]"#,
        #"[{"hr_bpm":"120","t":0}]"#, #"[{"t":0,"hr_bpm":120}]"#, #"[{"t":1.50}]"#, #"[{"t":1E2}]"#,
        #"[{"hr_bpm":120}]"#, #"{"laps":4}"#, #"[]x"#, #"[{"t":-0}]"#, #"[{"t":0},]"#, "", "null", "[[1,2]]",
    ])
    func otherShapesAreKeptAsText(_ text: String) throws {
        let stored = StoredSamples.encode(json: text)
        #expect(stored.first == StoredSamples.formatJSON)
        #expect(try StoredSamples.decode(stored) == .json(text))
        #expect(try StoredSamples.decode(stored).json == text)
    }

    @Test func canonicalShapesAreColumns() throws {
        for text in [
            "[]", #"[{"t":0}]"#, #"[{"altitude_m":35.4,"hr_bpm":131,"t":5}]"#, #"[{"grade":-0.05,"t":1e-05}]"#,
        ] {
            let stored = StoredSamples.encode(json: text)
            #expect(stored.first == StoredSamples.formatColumns, "\(text)")
            #expect(try StoredSamples.decode(stored).json == text)
        }
    }

    /// Rows stored before issue 40 hold the JSON text itself: read as it is, whatever its shape.
    @Test func oldRowsReadAsText() throws {
        for text in [#"[{"hr_bpm":120,"t":0}]"#, #"{"laps":4}"#, " [1]", "\t[]"] {
            #expect(try StoredSamples.decode(Array(text.utf8)) == .json(text))
        }
        #expect(try StoredSamples.decode([]) == .json(""))
    }

    @Test func aDamagedFrameIsAnErrorAndReadsAsUnreadableSamples() throws {
        let columns = SampleColumns(
            count: 5_000,
            values: [.t: (0..<5_000).map(Double.init), .hrBpm: (0..<5_000).map { Double(100 + $0 % 50) }])!
        let stored = StoredSamples.encode(columns)
        var flipped = stored
        flipped[stored.count / 2] ^= 0x40
        #expect(throws: StoredRecordingError.self) { try StoredSamples.decode(flipped) }
        #expect(throws: StoredRecordingError.self) { try StoredSamples.decode(Array(stored.dropLast(3))) }
        #expect(StoredSamples.read(flipped) == .json(""))
        // A frame whose content is not the layout (here JSON text behind the columns' format byte).
        var wrong = StoredSamples.encode(json: #"{"laps":4}"#)
        wrong[0] = StoredSamples.formatColumns
        #expect(throws: StoredRecordingError.self) { try StoredSamples.decode(wrong) }
    }

    /// A damaged row is refused before anything is allocated for what it claims (found while writing the WorkoutFiles
    /// fuzz target's samples mode): a frame header claiming far more than its frame can hold, and a layout claiming
    /// more samples than its bytes.
    @Test func claimsBeyondTheBytesAreRefused() throws {
        // A 9-byte frame header behind the format byte: magic, single segment, a 4-byte content size of 2^31 − 1.
        let claim: [UInt8] = [StoredSamples.formatColumns, 0x28, 0xB5, 0x2F, 0xFD, 0xA0, 0xFF, 0xFF, 0xFF, 0x7F]
        #expect(throws: StoredRecordingError.self) { try StoredSamples.decode(claim) }
        // Version 1, 2^32 − 1 samples, t alone, all present, decimal scale 0, one delta.
        let body: [UInt8] = [1, 0xFF, 0xFF, 0xFF, 0xFF, 1, 0, 1, 0, 0]
        #expect(StoredSamples.columns(body) == nil)
        #expect(StoredSamples.columns([1, 1, 0, 0, 0, 1, 0, 1, 0, 0]) != nil) // the same with one sample reads
    }

    /// The layout's bytes for a small case, spelled out (docs/workout-records.md, "How samples are stored").
    @Test func layoutBytes() throws {
        let columns = SampleColumns(
            count: 3, values: [.t: [0, 1, 2], .hrBpm: [120, .nan, 121.5], .grade: [0.1, 0.2, 1 / 3]])!
        let body = StoredSamples.body(columns)
        let planes = (0..<8).flatMap { b in
            [0.1, 0.2, 1.0 / 3].map { UInt8(truncatingIfNeeded: $0.bitPattern >> (8 * UInt64(b))) }
        }
        #expect(
            body
                == [1, 3, 0, 0, 0, 0b1000_0011]
                + [0, 1, 0, 0, 2, 2] // t: all present, decimal scale 0, deltas 0, +1, +1 (zigzag 0, 2, 2)
                + [1, 0b101, 1, 1, 0xE0, 0x12, 0x1E] // hr: bitmap 101, scale 1: 1200 (zigzag 2400), then +15 (30)
                + [0, 0] + planes) // grade: all present, float64 planes (1/3 has no decimal scale)
        #expect(StoredSamples.columns(body) == columns)
    }

    /// A million points as a GPX gives them (1 Hz, elevation with one decimal, heart rate): the stored bytes are at
    /// most a fifth of the JSON text's.
    @Test func aMillionPointsInAFifthOfTheirJSON() throws {
        let n = 1_000_000
        var altitude = 350.0
        var state: UInt64 = 42
        var t = [Double](), hr = [Double](), ele = [Double]()
        for i in 0..<n {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            altitude = ((altitude * 10).rounded() + Double(Int(state >> 61) - 3)) / 10
            t.append(Double(i))
            ele.append(altitude)
            hr.append(Double(120 + Int(state >> 58) % 40))
        }
        let columns = SampleColumns(count: n, values: [.t: t, .altitudeM: ele, .hrBpm: hr])!
        let json = columns.canonicalJSON.utf8.count
        let stored = StoredSamples.encode(columns)
        #expect(stored.count * 5 <= json, "\(stored.count) bytes stored for \(json) of JSON")
        #expect(try StoredSamples.decode(stored) == .columns(columns))
    }

    // MARK: - Both backends

    static func storedBytes(_ t: TestStore, _ w: WorkoutRecord) async throws -> [UInt8]? {
        switch t.kind {
        case .sqlite(let store, _):
            return try await store.writer.read { db in
                try Data.fetchOne(
                    db, sql: "SELECT samples_json FROM workouts WHERE user_id = ? AND workout_id = ?",
                    arguments: [w.userID.rawValue, w.workoutID.rawValue])
            }.map { [UInt8]($0) }
        case .postgres(let store, _):
            return try await store.read("test") { db in
                try await db.rows(
                    """
                    SELECT samples_json FROM workouts
                    WHERE user_id = \(w.userID.rawValue) AND workout_id = \(w.workoutID.rawValue)
                    """
                ).first.flatMap { try $0.get("samples_json", as: Data?.self) }.map { [UInt8]($0) }
            }
        }
    }

    /// What a row stored before issue 40 holds: the JSON text (SQLite: as TEXT; PostgreSQL: its UTF-8 bytes, what
    /// 0021's conversion makes of the text).
    static func overwriteWithText(_ t: TestStore, _ w: WorkoutRecord, _ text: String) async throws {
        switch t.kind {
        case .sqlite(let store, _):
            try await store.writer.write { db in
                try db.execute(
                    sql: "UPDATE workouts SET samples_json = ? WHERE user_id = ? AND workout_id = ?",
                    arguments: [text, w.userID.rawValue, w.workoutID.rawValue])
            }
        case .postgres(let store, _):
            try await store.write("test") { db in
                try await db.execute(
                    """
                    UPDATE workouts SET samples_json = convert_to(\(text), 'UTF8')
                    WHERE user_id = \(w.userID.rawValue) AND workout_id = \(w.workoutID.rawValue)
                    """)
            }
        }
    }

    static let samplesText =
        #"[{"altitude_m":35,"distance_m":0,"hr_bpm":128,"speed_mps":2.9,"t":0},"#
        + #"{"altitude_m":35.4,"distance_m":15.2,"hr_bpm":131,"speed_mps":3.1,"t":5},{"t":6}]"#

    /// Samples given as JSON (the API's records) and as columns (an imported file's) read back as the same text; a
    /// record whose samples have another shape keeps its text; a row holding the text the old way reads and digests
    /// as the same record stored the new way.
    @Test(arguments: Backend.available) func workoutsStoreColumnsAndReadBackTheirText(_ backend: Backend) async throws {
        var fromText = Fixtures.workout("hk-text", version: 1)
        fromText.samplesJSON = Self.samplesText
        var fromColumns = Fixtures.workout("hk-columns", version: 1)
        fromColumns.samples = .columns(try #require(SampleColumns(canonicalJSON: Self.samplesText)))
        var other = Fixtures.workout("hk-other", version: 1)
        other.samplesJSON = #"{"laps": [1, 2], "hr_bpm": null}"#
        let none = Fixtures.workout("hk-none", version: 1)
        var digests: [String] = []
        for old in [false, true] {
            try await withTestStore(backend) { t in
                try await t.store.upsertUser(Fixtures.user())
                _ = try await t.store.apply(
                    IngestUnit(
                        workouts: [fromText, fromColumns, other, none].map {
                            WorkoutCandidate(workout: $0, conflictQuarantine: Fixtures.quarantine())
                        }))
                let stored = try #require(try await Self.storedBytes(t, fromText))
                #expect(stored.first == StoredSamples.formatColumns)
                #expect(stored.count < Self.samplesText.utf8.count)
                #expect(try await Self.storedBytes(t, other)?.first == StoredSamples.formatJSON)
                #expect(try await Self.storedBytes(t, none) == nil)
                if old {
                    for w in [fromText, fromColumns, other] { try await Self.overwriteWithText(t, w, w.samplesJSON!) }
                    #expect(try await Self.storedBytes(t, fromText) == Array(Self.samplesText.utf8))
                }
                let read = try await t.store.workouts(user: Fixtures.alice, includeDeleted: false)
                let byID = Dictionary(uniqueKeysWithValues: read.map { ($0.workoutID.rawValue, $0) })
                #expect(byID["hk-text"]?.samplesJSON == Self.samplesText)
                #expect(byID["hk-columns"]?.samplesJSON == Self.samplesText)
                #expect(byID["hk-other"]?.samplesJSON == other.samplesJSON)
                #expect(byID["hk-none"]?.samples == nil)
                if !old, case .columns(let c) = byID["hk-text"]?.samples {
                    #expect(c.column(.speedMps).prefix(2) == [2.9, 3.1])
                } else if !old {
                    Issue.record("samples stored from text did not read back as columns")
                }
                digests.append(try await t.store.contentDigest())
            }
        }
        #expect(digests.count == 2 && digests[0] == digests[1])
    }
}
