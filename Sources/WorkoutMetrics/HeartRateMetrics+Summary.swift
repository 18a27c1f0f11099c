import Foundation

extension HeartRateMetrics {
    /// Banister's TRIMP in its original form, over the session's **average** heart rate (Banister 1991, in
    /// *Physiological Testing of the High-Performance Athlete*; constants of Morton, Fitz-Clarke & Banister 1990):
    /// `duration_min · HRr · a·e^(b·HRr)` with `HRr = (HRavg − HRrest)/(HRmax − HRrest)` clipped at 0 below.
    /// For workout records that carry only a summary; with samples the per-second sum (`banisterTRIMP(_:athlete:)`)
    /// is used. Needs sex, resting and maximum HR; nil without them or for a non-positive duration or HR.
    public static func banisterTRIMP(averageHR: Double, durationS: Double, athlete: Athlete) -> Double? {
        guard averageHR > 0, durationS > 0, averageHR.isFinite, durationS.isFinite,
            let sex = athlete.sex, let rest = athlete.hrRest, let max = athlete.hrMax, max > rest
        else { return nil }
        let (a, b) = banisterConstants(sex)
        let r = Swift.max(0, (averageHR - rest) / (max - rest))
        return durationS / 60 * r * a * Foundation.exp(b * r)
    }
}
