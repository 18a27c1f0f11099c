import Foundation

/// One calendar day of a training-load series (docs/metrics.md, "Training load"). JSON keys:
/// `date`, `daily_load`, `ctl`, `atl`, `tsb`, `ramp_7d`, `acwr_rolling`,
/// `acwr_uncoupled`, `acwr_ewma`; the optional ratios are absent where undefined.
public struct DayLoad: Sendable, Codable, Equatable {
    public var date: LocalDate
    /// Sum of the day's session loads (TSS, else HRSS); 0 on a rest day.
    public var dailyLoad: Double
    /// Chronic training load (fitness), 42-day constant.
    public var ctl: Double
    /// Acute training load (fatigue), 7-day constant.
    public var atl: Double
    /// Training stress balance: yesterday's CTL − ATL.
    public var tsb: Double
    /// CTL_d − CTL_{d−7}; nil for the first 7 days of the series.
    public var ramp7d: Double?
    /// mean(last 7 d) / mean(last 28 d); nil before day 28 or over a zero mean.
    public var acwrRolling: Double?
    /// mean(last 7 d) / mean(days d−27 … d−7); nil before day 28 or over a zero mean.
    public var acwrUncoupled: Double?
    /// EWMA(7) / EWMA(28) with λ = 2/(N+1), both seeded 0 (Williams et al. 2017); nil
    /// while the chronic EWMA is 0.
    public var acwrEwma: Double?

    public init(
        date: LocalDate, dailyLoad: Double, ctl: Double, atl: Double, tsb: Double, ramp7d: Double?,
        acwrRolling: Double?, acwrUncoupled: Double?, acwrEwma: Double?
    ) {
        self.date = date
        self.dailyLoad = dailyLoad
        self.ctl = ctl
        self.atl = atl
        self.tsb = tsb
        self.ramp7d = ramp7d
        self.acwrRolling = acwrRolling
        self.acwrUncoupled = acwrUncoupled
        self.acwrEwma = acwrEwma
    }

    enum CodingKeys: String, CodingKey {
        case date, dailyLoad = "daily_load", ctl, atl, tsb, ramp7d = "ramp_7d"
        case acwrRolling = "acwr_rolling", acwrUncoupled = "acwr_uncoupled", acwrEwma = "acwr_ewma"
    }
}

/// Performance-management series: CTL / ATL / TSB, ramp rate and acute:chronic workload
/// ratios, one step per calendar day (rest days included).
///
/// - CTL/ATL: `X_d = X_{d−1} + k·(load_d − X_{d−1})`. Convention `exp` (the pipeline's,
///   GoldenCheetah's PMC): `k = 1 − e^(−1/N)`; `invN` (TrainingPeaks' published formula):
///   `k = 1/N`. N = 42 (CTL) and 7 (ATL); both start at 0.
/// - TSB = CTL_{d−1} − ATL_{d−1} (TrainingPeaks and GoldenCheetah default).
/// - ACWR: rolling (Hulin et al. 2014), uncoupled (Lolli et al. 2019), EWMA (Williams,
///   West, Cross et al. 2017, *Br J Sports Med* 51:209).
///
/// Incremental use: `steps(after:dailyLoads:through:)` continues from the `State` stored
/// for the day before a change, so a new session recomputes the series from its date
/// onward, not from the first day.
public enum TrainingLoad {
    public enum Convention: String, Sendable, Codable {
        case exp
        case invN = "inv_n"

        /// The smoothing constant for a time constant of `days`.
        public func k(days: Double) -> Double {
            switch self {
            case .exp: return 1 - Foundation.exp(-1 / days)
            case .invN: return 1 / days
            }
        }
    }

    public static let ctlDays = 42.0
    public static let atlDays = 7.0

    /// Everything needed to continue a series after `date`: the last day's CTL, ATL and
    /// EWMAs, the last 28 daily loads and the last 7 CTL values. Codable, so the pipeline
    /// can store it with each day and resume from any of them.
    public struct State: Sendable, Codable, Equatable {
        /// The last day included; the next step is `date + 1`.
        public var date: LocalDate
        public var convention: Convention
        public var ctl: Double
        public var atl: Double
        public var ewmaAcute: Double
        public var ewmaChronic: Double
        /// Daily loads of the last (up to) 28 days, oldest first.
        public var recentLoads: [Double]
        /// CTL of the last (up to) 7 days, oldest first.
        public var recentCTL: [Double]
        /// Days stepped since the series began.
        public var days: Int

        /// The state before a series' first day: everything 0.
        public static func initial(before first: LocalDate, convention: Convention = .exp) -> State {
            State(
                date: first.adding(days: -1), convention: convention, ctl: 0, atl: 0, ewmaAcute: 0,
                ewmaChronic: 0, recentLoads: [], recentCTL: [], days: 0)
        }

        enum CodingKeys: String, CodingKey {
            case date, convention, ctl, atl, ewmaAcute = "ewma_acute", ewmaChronic = "ewma_chronic"
            case recentLoads = "recent_loads", recentCTL = "recent_ctl", days
        }
    }

    /// One day's output and the state after it.
    public struct Step: Sendable, Equatable {
        public var day: DayLoad
        public var state: State
    }

    /// Advances `state` by one calendar day with that day's load.
    public static func step(_ state: inout State, load: Double) -> DayLoad {
        let date = state.date.adding(days: 1)
        let kCTL = state.convention.k(days: ctlDays)
        let kATL = state.convention.k(days: atlDays)
        let tsb = state.ctl - state.atl
        let ctl = state.ctl + kCTL * (load - state.ctl)
        let atl = state.atl + kATL * (load - state.atl)

        let lambdaA = 2.0 / (7 + 1), lambdaC = 2.0 / (28 + 1)
        let ewmaA = load * lambdaA + (1 - lambdaA) * state.ewmaAcute
        let ewmaC = load * lambdaC + (1 - lambdaC) * state.ewmaChronic

        var loads = state.recentLoads
        loads.append(load)
        if loads.count > 28 { loads.removeFirst(loads.count - 28) }
        let dayIndex = state.days // 0-based index of `date` in the series

        // ramp_7d: CTL_d − CTL_{d−7}, from the 8th day on.
        var ramp: Double?
        if dayIndex >= 7, state.recentCTL.count == 7 { ramp = ctl - state.recentCTL[0] }

        var rolling: Double?, uncoupled: Double?
        if dayIndex >= 27, loads.count == 28 {
            let acute = loads[21..<28].reduce(0, +) / 7
            let chronic = loads.reduce(0, +) / 28
            let older = loads[0..<21].reduce(0, +) / 21 // days d−27 … d−7
            rolling = chronic > 0 ? acute / chronic : nil
            uncoupled = older > 0 ? acute / older : nil
        }

        var ctls = state.recentCTL
        ctls.append(ctl)
        if ctls.count > 7 { ctls.removeFirst(ctls.count - 7) }

        state = State(
            date: date, convention: state.convention, ctl: ctl, atl: atl, ewmaAcute: ewmaA,
            ewmaChronic: ewmaC, recentLoads: loads, recentCTL: ctls, days: dayIndex + 1)
        return DayLoad(
            date: date, dailyLoad: load, ctl: ctl, atl: atl, tsb: tsb, ramp7d: ramp,
            acwrRolling: rolling, acwrUncoupled: uncoupled,
            acwrEwma: ewmaC > 0 ? ewmaA / ewmaC : nil)
    }

    /// Continues a series from `state` (the day before the first day to compute) through
    /// `through`, inclusive, one step per calendar day; days missing from `dailyLoads`
    /// have load 0. Each step carries the state to store for resuming later.
    public static func steps(after state: State, dailyLoads: [LocalDate: Double], through: LocalDate) -> [Step] {
        var s = state
        let count = s.date.days(to: through)
        guard count > 0 else { return [] }
        var out: [Step] = []
        out.reserveCapacity(count)
        for _ in 0..<count {
            let date = s.date.adding(days: 1)
            let day = step(&s, load: dailyLoads[date] ?? 0)
            out.append(Step(day: day, state: s))
        }
        return out
    }

    /// The series from `from` to `to` inclusive, starting from zero before `from`.
    public static func series(
        dailyLoads: [LocalDate: Double], from: LocalDate, to: LocalDate,
        convention: Convention = .exp
    ) -> [DayLoad] {
        steps(after: .initial(before: from, convention: convention), dailyLoads: dailyLoads, through: to).map(\.day)
    }

    /// Sums session loads by local date (`daily_load`). Sessions with no load (neither TSS
    /// nor HRSS) are skipped.
    public static func dailyLoads(_ sessions: [(date: LocalDate, load: Double?)]) -> [LocalDate: Double] {
        var out: [LocalDate: Double] = [:]
        for s in sessions {
            guard let load = s.load else { continue }
            out[s.date, default: 0] += load
        }
        return out
    }
}
