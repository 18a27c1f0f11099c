import Foundation

/// The machines the generator simulates.
public enum SimulatedSport: String, Sendable, Codable, CaseIterable { case bike, rower, treadmill }

/// One simulated athlete's physiology.
public struct Physiology: Sendable {
    public var ftpW: Double
    public var restingHR: Double
    public var maxHR: Double
    public var massKg: Double
    /// Running speed at threshold, km/h.
    public var thresholdSpeedKmh: Double
    public init(ftpW: Double, restingHR: Double, maxHR: Double, massKg: Double, thresholdSpeedKmh: Double) {
        self.ftpW = ftpW; self.restingHR = restingHR; self.maxHR = maxHR; self.massKg = massKg;
        self.thresholdSpeedKmh = thresholdSpeedKmh
    }
}

/// The shape of a workout: warm-up, the main part, cool-down; intensities relative to threshold.
public enum WorkoutShape: String, Sendable, CaseIterable { case endurance, intervals, tempo, recovery }

/// A session as a body and a machine would produce it, second by second.
public struct SimulatedSession: Sendable {
    public var sport: SimulatedSport
    public var seconds: Int
    public var powerW: [Double]
    public var cadenceRpm: [Double]
    public var speedKmh: [Double]
    public var heartRate: [Double]
    public var strokeRateSpm: [Double]
    public var inclinePct: [Double]
    public var paused: [Bool]
    /// Cumulative, as the machine counts them.
    public var distanceM: [Double]
    public var energyKcal: [Double]
    public var strokes: [Double]
}

/// Simulates 1 Hz streams that behave like bodies and machines: heart rate lags effort with a first-order response
/// and drifts upward in long efforts; warm-up, intervals and cool-down; pauses where everything stops.
public enum BodySimulator {
    /// Relative intensity (fraction of threshold) for each second of a workout of `seconds`.
    static func intensityProfile(shape: WorkoutShape, seconds: Int, rng: inout SeededRandom) -> [Double] {
        var profile = [Double](repeating: 0, count: seconds)
        let warm = min(seconds / 6, 600), cool = min(seconds / 8, 420)
        let mainStart = warm, mainEnd = seconds - cool
        let base: Double =
            switch shape {
            case .endurance: rng.uniform(0.62, 0.75)
            case .tempo: rng.uniform(0.82, 0.9)
            case .intervals: rng.uniform(0.5, 0.6)
            case .recovery: rng.uniform(0.5, 0.58)
            }
        let work = rng.int(3, 5) * 60, rest = rng.int(2, 4) * 60
        let hard = rng.uniform(1.02, 1.18)
        for s in 0..<seconds {
            let value: Double
            if s < mainStart {
                value = 0.45 + (base - 0.45) * Double(s) / Double(max(warm, 1))
            } else if s >= mainEnd {
                value = base - (base - 0.4) * Double(s - mainEnd) / Double(max(cool, 1))
            } else if shape == .intervals {
                value = (s - mainStart) % (work + rest) < work ? hard : base
            } else if shape == .tempo {
                let block = (mainEnd - mainStart) / 5
                value = ((s - mainStart) / max(block, 1)) % 2 == 1 ? base : base - 0.15
            } else {
                value = base
            }
            profile[s] = value
        }
        return profile
    }

    public static func simulate(
        sport: SimulatedSport, shape: WorkoutShape, seconds: Int, body: Physiology,
        pause: (start: Int, length: Int)?, rng: inout SeededRandom
    ) -> SimulatedSession {
        let intensity = intensityProfile(shape: shape, seconds: seconds, rng: &rng)
        var power = [Double](repeating: 0, count: seconds), cadence = power, speed = power, hr = power
        var strokeRate = power, incline = power, distance = power, energy = power, strokes = power
        var paused = [Bool](repeating: false, count: seconds)
        var currentHR = body.restingHR + 15
        var dist = 0.0, kcal = 0.0, strokeCount = 0.0
        var hardSeconds = 0.0
        for s in 0..<seconds {
            let isPaused = pause.map { s >= $0.start && s < $0.start + $0.length } ?? false
            paused[s] = isPaused
            var effort = isPaused ? 0 : max(0, intensity[s] * (1 + 0.04 * rng.normal()))
            if !isPaused && rng.chance(0.002) { effort *= 1.6 } // a short surge
            switch sport {
            case .bike:
                let p = isPaused ? 0 : (effort * body.ftpW).rounded()
                power[s] = p
                cadence[s] = isPaused ? 0 : max(55, min(120, (92 - 6 * (effort - 0.7) + 2.5 * rng.normal()).rounded()))
                let v = bikeSpeed(watts: p, massKg: body.massKg + 9)
                speed[s] = v * 3.6
                dist += v
                kcal += p / (0.24 * 4184)
            case .rower:
                let p = isPaused ? 0 : (0.8 * effort * body.ftpW).rounded()
                power[s] = p
                let rate = isPaused ? 0 : max(16, min(36, (19 + 10 * effort + 1.2 * rng.normal()).rounded()))
                strokeRate[s] = rate
                let v = p > 0 ? 500 / (500 * pow(2.80 / p, 1.0 / 3.0)) : 0 // Concept2: pace = 500·(2.80/W)^(1/3)
                speed[s] = v * 3.6
                dist += v
                strokeCount += rate / 60
                kcal += p / (0.2 * 4184) + (isPaused ? 0 : 1.2 / 60)
            case .treadmill:
                let kmh = isPaused ? 0 : max(5, (effort * body.thresholdSpeedKmh * 10).rounded() / 10)
                speed[s] = kmh
                let grade = isPaused ? 0 : (shape == .tempo ? 1.0 : (s / 300) % 3 == 2 ? 3.0 : 0.5)
                incline[s] = grade
                let metresPerMin = kmh * 1000 / 60
                // ACSM running equation: VO2 = 0.2·v + 0.9·v·grade + 3.5 (ml/kg/min), 5 kcal per litre O2.
                let vo2 = isPaused ? 3.5 : 0.2 * metresPerMin + 0.9 * metresPerMin * grade / 100 + 3.5
                kcal += vo2 * body.massKg / 1000 * 5 / 60
                dist += kmh / 3.6
                power[s] = 0
            }
            // Heart rate: first-order response to effort (faster up than down) plus cardiac drift after ~15 min of work.
            if effort > 0.6 { hardSeconds += 1 }
            let drift = max(0, hardSeconds - 900) / 60 * 0.12
            let target = body.restingHR + (body.maxHR - body.restingHR) * min(1, 0.3 + 0.6 * effort) + drift
            let tau = target > currentHR ? 28.0 : 45.0
            currentHR += (target - currentHR) / tau
            hr[s] = max(body.restingHR, min(body.maxHR, (currentHR + 0.8 * rng.normal()).rounded()))
            distance[s] = dist
            energy[s] = kcal
            strokes[s] = strokeCount
        }
        return SimulatedSession(
            sport: sport, seconds: seconds, powerW: power, cadenceRpm: cadence, speedKmh: speed,
            heartRate: hr, strokeRateSpm: strokeRate, inclinePct: incline, paused: paused,
            distanceM: distance, energyKcal: energy, strokes: strokes)
    }

    /// Flat-road speed (m/s) at `watts`: solves P = (Crr·m·g + ½·ρ·CdA·v²)·v by bisection
    /// (Crr 0.005, CdA 0.32 m², ρ 1.2 kg/m³) — the virtual speed a smart trainer reports.
    static func bikeSpeed(watts: Double, massKg: Double) -> Double {
        guard watts > 0 else { return 0 }
        var lo = 0.0, hi = 30.0
        for _ in 0..<40 {
            let v = (lo + hi) / 2
            let p = (0.005 * massKg * 9.81 + 0.5 * 1.2 * 0.32 * v * v) * v
            if p < watts { lo = v } else { hi = v }
        }
        return (lo + hi) / 2
    }
}
