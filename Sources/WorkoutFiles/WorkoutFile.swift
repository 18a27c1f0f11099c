import Foundation

/// The formats the readers recognise (by content, not by file name).
public enum FileFormat: String, Sendable, Equatable {
    case fit, tcx, gpx
    case appleHealthXML = "apple_health_xml"
    case appleHealthZip = "apple_health_zip"

    /// The `source` a workout record from this format carries.
    public var recordSource: String {
        switch self {
        case .fit: "garmin_fit"
        case .tcx: "tcx"
        case .gpx: "gpx"
        case .appleHealthXML, .appleHealthZip: "apple_health"
        }
    }
}

/// Everything read from one file: its activities and what could not be read.
public struct WorkoutFile: Sendable, Equatable {
    public var format: FileFormat
    public var activities: [ImportedActivity]
    /// File-level issues (truncation, bad CRC, unknown messages, …). None of these stopped the file being read:
    /// the fatal cases throw `WorkoutFileError` instead.
    public var issues: [ReadIssue]

    public init(format: FileFormat, activities: [ImportedActivity], issues: [ReadIssue]) {
        self.format = format
        self.activities = activities
        self.issues = issues
    }

    /// True when an issue says the file is damaged (it is still read, but the caller should keep it in quarantine).
    public var isDamaged: Bool { issues.contains { $0.code.isDamage } }
}

/// A reason code: stable strings for quarantine records and metrics (never renamed once shipped).
public struct ReasonCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    // Fatal (thrown as WorkoutFileError): nothing could be read.
    public static let emptyFile = ReasonCode(rawValue: "empty_file")
    public static let unknownFormat = ReasonCode(rawValue: "unknown_format")
    public static let fitBadHeader = ReasonCode(rawValue: "fit_bad_header")
    public static let xmlNotWellFormed = ReasonCode(rawValue: "xml_not_well_formed")
    public static let zipNoExportXML = ReasonCode(rawValue: "zip_no_export_xml")
    public static let zipCorrupt = ReasonCode(rawValue: "zip_corrupt")
    public static let unreadable = ReasonCode(rawValue: "unreadable")
    public static let gzipCorrupt = ReasonCode(rawValue: "gzip_corrupt")
    public static let noActivity = ReasonCode(rawValue: "no_activity")
    /// One XML token (text run, tag, comment, …) is longer than the tokenizer's bound (`XMLTokenizer.maxTokenBytes`).
    public static let xmlTokenTooLong = ReasonCode(rawValue: "xml_token_too_long")
    /// A zip entry or a gzip file inflates to more than `ArchiveLimits` allow (its size, or its expansion ratio), or
    /// to more than its zip header declares: a decompression bomb is refused without inflating it whole.
    public static let archiveTooLarge = ReasonCode(rawValue: "archive_too_large")

    // Damage (read anyway, flagged): the file should be kept in quarantine alongside the import.
    public static let fitTruncated = ReasonCode(rawValue: "fit_truncated")
    public static let fitBadCRC = ReasonCode(rawValue: "fit_bad_crc")
    public static let fitBadHeaderCRC = ReasonCode(rawValue: "fit_bad_header_crc")
    public static let fitUndefinedLocalMessage = ReasonCode(rawValue: "fit_undefined_local_message")
    public static let fitTrailingBytes = ReasonCode(rawValue: "fit_trailing_bytes")
    public static let xmlTruncated = ReasonCode(rawValue: "xml_truncated")
    public static let zipBadCRC = ReasonCode(rawValue: "zip_bad_crc")
    public static let gzipTruncated = ReasonCode(rawValue: "gzip_truncated")

    // Notes (nothing lost that the pipeline uses).
    public static let fitUnknownMessage = ReasonCode(rawValue: "fit_unknown_message")
    public static let fitNoSession = ReasonCode(rawValue: "fit_no_session")
    public static let fitUndescribedDeveloperField = ReasonCode(rawValue: "fit_undescribed_developer_field")
    public static let extensionMismatch = ReasonCode(rawValue: "extension_mismatch")
    public static let badValue = ReasonCode(rawValue: "bad_value")
    public static let routeMissing = ReasonCode(rawValue: "health_route_missing")

    // Flags: the activity was imported, but not all of it is what the device recorded; shown with the
    // import (`pipeline import`, `POST /v1/me/files`) and kept in the quarantine list for the operator.
    /// Part of the activity is missing (points without a time, a TCX without trackpoints, a file read in part): the
    /// detail says what.
    public static let partialImport = ReasonCode(rawValue: "partial_import")
    /// The file's header or laps and its samples disagree on the dates; the majority of the timed samples was used.
    public static let datesDisagree = ReasonCode(rawValue: "dates_disagree")

    /// Codes shown to the user with the import (the activity is stored, flagged).
    public var isFlag: Bool { self == .partialImport || self == .datesDisagree }

    /// Codes that mean the file is damaged.
    public var isDamage: Bool {
        [
            ReasonCode.fitTruncated, .fitBadCRC, .fitBadHeaderCRC, .fitUndefinedLocalMessage, .fitTrailingBytes,
            .xmlTruncated, .zipBadCRC,
            .gzipTruncated,
        ]
        .contains(self)
    }
}

/// One thing a reader could not read. `detail` names positions and element/message names, never health values.
public struct ReadIssue: Sendable, Equatable, CustomStringConvertible {
    public var code: ReasonCode
    public var detail: String
    /// Byte offset in the file (or in the zip entry) where it was found, when known.
    public var offset: Int?
    /// How many times it happened (repeated notes are counted, not listed).
    public var count: Int

    public init(code: ReasonCode, detail: String, offset: Int? = nil, count: Int = 1) {
        self.code = code
        self.detail = detail
        self.offset = offset
        self.count = count
    }

    public var description: String {
        "\(code)" + (offset.map { " at \($0)" } ?? "") + ": \(detail)" + (count > 1 ? " (×\(count))" : "")
    }
}

/// A file that could not be read at all.
public struct WorkoutFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: ReasonCode
    public var detail: String
    public var offset: Int?

    public init(code: ReasonCode, detail: String, offset: Int? = nil) {
        self.code = code
        self.detail = detail
        self.offset = offset
    }

    public var description: String { "\(code)" + (offset.map { " at \($0)" } ?? "") + ": \(detail)" }
}

/// Collects issues, merging repeats of the same code and detail into a count.
struct IssueLog {
    private(set) var issues: [ReadIssue] = []
    private var index: [String: Int] = [:]

    mutating func add(_ code: ReasonCode, _ detail: String, offset: Int? = nil) {
        let key = code.rawValue + "\u{0}" + detail
        if let i = index[key] {
            issues[i].count += 1
        } else {
            index[key] = issues.count
            issues.append(ReadIssue(code: code, detail: detail, offset: offset))
        }
    }

    func contains(_ code: ReasonCode) -> Bool { issues.contains { $0.code == code } }
}
