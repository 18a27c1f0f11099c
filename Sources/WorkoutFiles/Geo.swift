import Foundation

enum Geo {
    /// Mean Earth radius (IUGG), m.
    static let earthRadiusM = 6_371_008.8

    /// Great-circle (haversine) distance between two points in degrees, m.
    static func distance(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let toRad = Double.pi / 180
        let dLat = (lat2 - lat1) * toRad, dLon = (lon2 - lon1) * toRad
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * toRad) * cos(lat2 * toRad) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * earthRadiusM * asin(min(1, sqrt(a)))
    }

    /// Sum of the distances between consecutive samples with a position; nil when fewer than two have one.
    static func trackDistance(_ samples: [Sample]) -> Double? {
        var track = Track()
        samples.withUnsafeBufferPointer { buffer in
            for i in buffer.indices { track.add(buffer[i].latitude, buffer[i].longitude) }
        }
        return track.distance
    }

    /// `trackDistance` point by point (the FIT reader adds each record as it decodes it, rather than reading the
    /// whole series again afterwards): `distance` step by step, with each point's cosine computed once (the same
    /// operations, so the same sum).
    struct Track {
        var total = 0.0
        var previous: (lat: Double, lon: Double, cos: Double)? = nil
        var points = 0

        /// The distance so far; nil while fewer than two points had a position.
        var distance: Double? { points >= 2 ? total : nil }

        @inline(__always)
        mutating func add(_ latitude: Double?, _ longitude: Double?) {
            guard let lat = latitude, let lon = longitude else { return }
            let toRad = Double.pi / 180
            let cosLat = cos(lat * toRad)
            if let p = previous {
                let dLat = (lat - p.lat) * toRad, dLon = (lon - p.lon) * toRad
                let sLat = sin(dLat / 2), sLon = sin(dLon / 2)
                let a = sLat * sLat + p.cos * cosLat * sLon * sLon
                total += 2 * earthRadiusM * asin(min(1, sqrt(a)))
            }
            previous = (lat, lon, cosLat)
            points += 1
        }
    }

    /// Moving time of a track without a device timer (GPX, a Health route): Σ Δt between consecutive samples
    /// (`segmentBreaks` excluded) that are at most `maxGapS` apart and, where both have a position, moved at
    /// ≥ `minSpeedMps`. See docs/workout-files.md.
    static func movingTime(
        _ samples: [Sample], segmentStarts: Set<Int> = [], maxGapS: Double = 10, minSpeedMps: Double = 0.5
    ) -> Double {
        var total = 0.0
        guard samples.count > 1 else { return 0 }
        for i in 1..<samples.count where !segmentStarts.contains(i) {
            let a = samples[i - 1], b = samples[i]
            let dt = b.time.timeIntervalSince(a.time)
            guard dt > 0, dt <= maxGapS else { continue }
            if let la = a.latitude, let oa = a.longitude, let lb = b.latitude, let ob = b.longitude {
                if distance(la, oa, lb, ob) / dt < minSpeedMps { continue }
            }
            total += dt
        }
        return total
    }
}
