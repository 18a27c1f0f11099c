/// The athlete parameters the definitions need; every one optional, and a metric that
/// needs a missing one is `nil` (never computed from a made-up default).
///
/// JSON keys as in docs/metrics.md: `ftp_w`, `cp_w`, `wprime_j`, `sex`, `hr_rest`, `hr_max`,
/// `lthr`, `mass_kg`.
public struct Athlete: Sendable, Codable, Equatable {
    /// The sex used to choose Banister TRIMP constants (Morton 1990).
    public enum Sex: String, Sendable, Codable, Equatable {
        case male, female
    }

    /// Functional threshold power, W.
    public var ftpW: Double?
    /// Critical power, W.
    public var cpW: Double?
    /// W′, the work capacity above CP, J.
    public var wprimeJ: Double?
    public var sex: Sex?
    /// Resting heart rate, bpm.
    public var hrRest: Double?
    /// Maximum heart rate, bpm.
    public var hrMax: Double?
    /// Lactate-threshold heart rate, bpm.
    public var lthr: Double?
    /// Body mass, kg.
    public var massKg: Double?

    public init(
        ftpW: Double? = nil, cpW: Double? = nil, wprimeJ: Double? = nil, sex: Sex? = nil,
        hrRest: Double? = nil, hrMax: Double? = nil, lthr: Double? = nil, massKg: Double? = nil
    ) {
        self.ftpW = ftpW
        self.cpW = cpW
        self.wprimeJ = wprimeJ
        self.sex = sex
        self.hrRest = hrRest
        self.hrMax = hrMax
        self.lthr = lthr
        self.massKg = massKg
    }

    enum CodingKeys: String, CodingKey {
        case ftpW = "ftp_w", cpW = "cp_w", wprimeJ = "wprime_j", sex
        case hrRest = "hr_rest", hrMax = "hr_max", lthr, massKg = "mass_kg"
    }
}
