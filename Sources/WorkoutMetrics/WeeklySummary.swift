/// Weekly summaries over ISO weeks (Monday to Sunday, by local date).
public enum WeeklySummary {
    /// What one session contributes to the weekly helpers.
    public struct SessionEntry: Sendable, Equatable {
        public var date: LocalDate
        public var sport: Sport
        public var durationS: Double
        public var distanceM: Double?
        public var intensity: IntensityMinutes?

        public init(
            date: LocalDate, sport: Sport, durationS: Double, distanceM: Double? = nil,
            intensity: IntensityMinutes? = nil
        ) {
            self.date = date
            self.sport = sport
            self.durationS = durationS
            self.distanceM = distanceM
            self.intensity = intensity
        }
    }

    /// Minutes at low, moderate and high intensity (three-zone model).
    public struct IntensityMinutes: Sendable, Codable, Equatable {
        public var low: Double
        public var moderate: Double
        public var high: Double

        public init(low: Double, moderate: Double, high: Double) {
            self.low = low
            self.moderate = moderate
            self.high = high
        }

        public static let zero = IntensityMinutes(low: 0, moderate: 0, high: 0)

        static func + (a: IntensityMinutes, b: IntensityMinutes) -> IntensityMinutes {
            IntensityMinutes(low: a.low + b.low, moderate: a.moderate + b.moderate, high: a.high + b.high)
        }

        /// From a session's metrics: with power zones, low = Coggan levels 1–2 (< 75 % FTP),
        /// moderate = levels 3–4 (75–105 %), high = levels 5–7 (≥ 105 %); otherwise from
        /// Edwards HR zones, low = 50–80 % HRmax, moderate = 80–90 %, high = ≥ 90 % (seconds
        /// below 50 % HRmax are not counted). nil when neither is available.
        public init?(_ metrics: SessionMetrics) {
            if let z = metrics.timeInPowerZonesS, z.count == 7 {
                self.init(
                    low: Double(z[0] + z[1]) / 60, moderate: Double(z[2] + z[3]) / 60,
                    high: Double(z[4] + z[5] + z[6]) / 60)
            } else if let z = metrics.timeInHrZonesS, z.count == 5 {
                self.init(low: Double(z[0] + z[1] + z[2]) / 60, moderate: Double(z[3]) / 60, high: Double(z[4]) / 60)
            } else {
                return nil
            }
        }

        enum CodingKeys: String, CodingKey {
            case low = "low_min", moderate = "moderate_min", high = "high_min"
        }
    }

    /// Volume of one sport in one ISO week. JSON: `week_start`, `sport`, `sessions`,
    /// `duration_s`, `distance_m`.
    public struct SportVolume: Sendable, Codable, Equatable {
        public var weekStart: LocalDate
        public var sport: Sport
        public var sessions: Int
        public var durationS: Double
        public var distanceM: Double

        public init(weekStart: LocalDate, sport: Sport, sessions: Int, durationS: Double, distanceM: Double) {
            self.weekStart = weekStart
            self.sport = sport
            self.sessions = sessions
            self.durationS = durationS
            self.distanceM = distanceM
        }

        enum CodingKeys: String, CodingKey {
            case weekStart = "week_start", sport, sessions, durationS = "duration_s", distanceM = "distance_m"
        }
    }

    /// Weekly volume by sport, ordered by week then sport; weeks without sessions are absent.
    public static func volumeBySport(_ sessions: [SessionEntry]) -> [SportVolume] {
        struct Key: Hashable { var week: LocalDate; var sport: Sport }
        var acc: [Key: SportVolume] = [:]
        for s in sessions {
            let key = Key(week: s.date.startOfWeek, sport: s.sport)
            var v =
                acc[key] ?? SportVolume(weekStart: key.week, sport: s.sport, sessions: 0, durationS: 0, distanceM: 0)
            v.sessions += 1
            v.durationS += s.durationS
            v.distanceM += s.distanceM ?? 0
            acc[key] = v
        }
        return acc.values.sorted { ($0.weekStart, $0.sport.rawValue) < ($1.weekStart, $1.sport.rawValue) }
    }

    /// Weekly intensity distribution (minutes low / moderate / high), every ISO week from
    /// the first session's week to the last's (weeks without sessions are zero).
    public static func intensityDistribution(_ sessions: [SessionEntry]) -> [(
        weekStart: LocalDate, minutes: IntensityMinutes
    )] {
        guard let first = sessions.map(\.date).min(), let last = sessions.map(\.date).max() else { return [] }
        var acc: [LocalDate: IntensityMinutes] = [:]
        for s in sessions {
            acc[s.date.startOfWeek, default: .zero] = acc[s.date.startOfWeek, default: .zero] + (s.intensity ?? .zero)
        }
        var out: [(LocalDate, IntensityMinutes)] = []
        var week = first.startOfWeek
        while week <= last {
            out.append((week, acc[week] ?? .zero))
            week = week.adding(days: 7)
        }
        return out
    }
}
