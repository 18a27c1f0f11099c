import Foundation
import Testing

@testable import PlanEngine

/// Paces and race equivalents against Daniels' published VDOT tables.
///
/// Sources (found with the project's `search` tool, corpus "pages"):
/// - Daniels' Running Formula, Table 3.1 "VDOT values associated with times raced over popular distances", as quoted in
///   "Dissecting Daniels – Part 4: Fitness Benchmarks", r/artc, 14 Aug 2017
///   (https://reddit.birdcat.cafe/r/artc/comments/6tnemg/dissecting_daniels_part_4_fitness_benchmarks):
///   VDOT 30: 5k 30:40, 10k 63:46, half 2:21:04, marathon 4:49:17; VDOT 40: 24:08, 50:03, 1:50:59, 3:49:45;
///   VDOT 50: 19:57, 41:21, 1:31:35, 3:10:49.
/// - VDOT 49 training paces from Daniels' table, "GEAR GUIDE: Daniels' Running Formula", fit360.blogspot.com, 4 May 2009
///   (http://fit360.blogspot.com/2009/05/gear-guide-daniels-running-formula.html): E 8:40/mi, M 7:24/mi,
///   T 4:20/km, I 3:59/km, R 1:29 per 400 m.
/// - Threshold paces, run-fit.com "pace tables" (https://run-fit.com/pacetables/): VDOT 80 (half 1:00:54) T 4:41/mi;
///   VDOT 40 (half 1:50:59) T 8:12/mi.
/// - VDOT 46.4 from a 15 km in 1:07:48, predicted marathon 3:22:58.7, "The 15K as a Warm-up for a Marathon",
///   marathonquest.blogspot.com, 3 Sep 2007 (http://marathonquest.blogspot.com/2007/09/15k-as-warm-up-for-marathon.html).
/// - VDOT 38 from a 5 km in 24:48: marathon 3:59:35, E 10:35/mi, M 9:08/mi, T 8:33/mi, "DIY 5K Benchmark",
///   steveisrunning.blogspot.com, 23 Sep 2010 (https://steveisrunning.blogspot.com/2010/09/diy-5k-benchmark.html).
@Suite struct DanielsTableTests {
    static let mile = 1.609344

    struct RaceRow: Sendable {
        let vdot: Double; let fiveK: Double; let tenK: Double; let half: Double; let marathon: Double
    }
    static let table31: [RaceRow] = [
        RaceRow(
            vdot: 30, fiveK: 30 * 60 + 40, tenK: 63 * 60 + 46, half: 2 * 3600 + 21 * 60 + 4,
            marathon: 4 * 3600 + 49 * 60 + 17),
        RaceRow(
            vdot: 40, fiveK: 24 * 60 + 8, tenK: 50 * 60 + 3, half: 3600 + 50 * 60 + 59,
            marathon: 3 * 3600 + 49 * 60 + 45),
        RaceRow(
            vdot: 50, fiveK: 19 * 60 + 57, tenK: 41 * 60 + 21, half: 3600 + 31 * 60 + 35,
            marathon: 3 * 3600 + 10 * 60 + 49),
    ]

    @Test(arguments: table31)
    func raceEquivalentsMatchTable31(row: RaceRow) {
        for (d, t) in [(5000.0, row.fiveK), (10_000, row.tenK), (21_097.5, row.half), (42_195, row.marathon)] {
            let predicted = Daniels.predictedTime(distanceM: d, vdot: row.vdot)
            #expect(abs(predicted - t) / t < 0.005, "VDOT \(row.vdot) \(d) m: \(predicted) s vs table \(t) s")
            #expect(abs(Daniels.vdot(distanceM: d, timeS: t)! - row.vdot) < 0.3)
        }
    }

    @Test func vdot49TrainingPaces() {
        let p = Daniels.trainingPaces(vdot: 49)
        #expect(abs(p.threshold.mid - 260) <= 2) // 4:20/km
        #expect(abs(p.interval.mid - 239) <= 2) // 3:59/km
        #expect(abs(p.repetition.mid - 89 / 0.4) <= 2) // 1:29 per 400 m
        #expect(abs(p.marathon.mid - 444 / Self.mile) <= 2) // 7:24/mi
        let e = 520 / Self.mile // 8:40/mi
        #expect(p.easy.minSPerKm <= e && e <= p.easy.maxSPerKm)
    }

    @Test func thresholdAtVdot40And80() {
        #expect(abs(Daniels.trainingPaces(vdot: 40).threshold.mid - 492 / Self.mile) <= 2) // 8:12/mi
        #expect(abs(Daniels.trainingPaces(vdot: 80).threshold.mid - 281 / Self.mile) <= 2) // 4:41/mi
        #expect(abs(Daniels.vdot(distanceM: 21_097.5, timeS: 3600 + 50 * 60 + 59)! - 40) < 0.3)
        #expect(abs(Daniels.vdot(distanceM: 21_097.5, timeS: 3600 + 54)! - 80) < 0.3)
    }

    @Test func fifteenKToMarathon() {
        let v = Daniels.vdot(distanceM: 15_000, timeS: 3600 + 7 * 60 + 48)!
        #expect(abs(v - 46.4) < 0.2)
        #expect(abs(Daniels.predictedTime(distanceM: 42_195, vdot: 46.4) - (3 * 3600 + 22 * 60 + 58.7)) < 60)
    }

    @Test func fiveKTrialPaces() {
        let v = Daniels.vdot(distanceM: 5000, timeS: 24 * 60 + 48)!
        #expect(v.rounded(.down) == 38) // the table's VDOT 38 row covers 24:48
        let p = Daniels.trainingPaces(vdot: 38)
        #expect(abs(Daniels.predictedTime(distanceM: 42_195, vdot: 38) - (3 * 3600 + 59 * 60 + 35)) < 90)
        #expect(abs(p.marathon.mid - 548 / Self.mile) <= 3) // 9:08/mi
        #expect(abs(p.threshold.mid - 513 / Self.mile) <= 3) // 8:33/mi
        let e = 635 / Self.mile // 10:35/mi
        #expect(p.easy.minSPerKm <= e && e <= p.easy.maxSPerKm)
    }

    /// plan-format.md's example: a 1:45:00 half marathon gives these ranges.
    @Test func planFormatExample() {
        let v = Daniels.vdot(distanceM: 21_097.5, timeS: 6300)!
        let p = Daniels.trainingPaces(vdot: v, goalTimeS: 13_200)
        #expect(abs(p.easy.minSPerKm - 349) <= 2 && abs(p.easy.maxSPerKm - 384) <= 2)
        #expect(abs(p.threshold.minSPerKm - 287) <= 2 && abs(p.threshold.maxSPerKm - 293) <= 2)
        #expect(abs(p.interval.minSPerKm - 264) <= 2 && abs(p.interval.maxSPerKm - 270) <= 2)
        #expect(abs(p.repetition.minSPerKm - 248) <= 2 && abs(p.repetition.maxSPerKm - 254) <= 2)
        #expect(p.marathon.minSPerKm >= 308 && p.marathon.maxSPerKm <= 318)
    }

    @Test(arguments: [30.0, 35, 42.6, 50, 60, 70, 85])
    func pacesOrderedAndEasyMarathonApart(vdot: Double) {
        for goal in [nil, 2 * 3600.0 + 600, 6 * 3600.0] as [Double?] {
            let p = Daniels.trainingPaces(vdot: vdot, goalTimeS: goal)
            #expect(p.repetition.mid < p.interval.mid && p.interval.mid < p.threshold.mid)
            #expect(p.threshold.mid < p.marathon.mid && p.marathon.mid < p.easy.mid)
            #expect(p.easy.minSPerKm > p.marathon.maxSPerKm)
            let fit = Daniels.marathonPace(vdot: vdot)
            let g = goal.map { $0 / 42.195 } ?? fit
            #expect(p.marathon.minSPerKm >= min(fit, g) - 4 && p.marathon.maxSPerKm <= max(fit, g) + 4)
        }
    }
}
