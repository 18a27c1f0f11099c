import FTMSDecode
import Ingest
import PlanEngine
import SessionAssembly
import Store
import WorkoutFiles
import WorkoutMetrics

// What each benchmark measures, one non-inlined function per stage, shared by the package-benchmark target
// (Benchmarks/PipelineBenchmarks) and the instruction counter (`pipeline-workload`, which scripts/benchmark-thresholds.sh
// runs under valgrind with only the call of one of these collected).

/// Every record of the recording through the framing and its characteristic's typed decoder (owned values), every
/// value folded into the result so that nothing is optimised away.
@inline(never) public func workloadFTMSDecode(_ bytes: [UInt8]) -> Int {
    var check = 0
    _ = bytes.withUnsafeBytes { raw in
        try? BlobReader.scan(raw) { view in
            let p = view.payload
            switch view.uuid {
            case 0x2AD2:
                if let v = try? IndoorBikeData.decode(bytes: p) {
                    check &+=
                        (v.powerW ?? 0) &+ Int(v.speedKmh ?? 0) &+ Int(v.cadenceRpm ?? 0)
                        &+ (v.totalDistanceM ?? 0) &+ (v.elapsedTimeS ?? 0) &+ (v.heartRateBpm ?? 0)
                } else {
                    check &+= 1 << 20
                }
            case 0x2A37:
                if let v = try? HeartRateMeasurement.decode(bytes: p) {
                    check &+= v.heartRateBpm &+ (v.rrIntervals?.count ?? 0)
                } else {
                    check &+= 1 << 20
                }
            case 0x2AD1:
                if let v = try? RowerData.decode(bytes: p) { check &+= (v.strokeCount ?? 0) &+ (v.powerW ?? 0) }
            case 0x2ACD:
                if let v = try? TreadmillData.decode(bytes: p) { check &+= (v.totalDistanceM ?? 0) }
            default:
                check &+= 1
            }
        }
    }
    return check
}

/// The recording's 1 Hz series, as the nightly assembles it.
@inline(never) public func workloadAssemble(_ bytes: [UInt8]) -> Int {
    guard let series = try? SessionAssembler.assemble(bytes: bytes) else { return -1 }
    return series.seconds &+ series.recordCount &+ Int(series.derivedTotals.distanceM)
}

/// The session's metric set (power, heart rate, load, mean-maximal curve…), as the nightly computes it.
@inline(never) public func workloadMetrics(_ stream: Stream1Hz, _ athlete: Athlete) -> SessionMetrics {
    SessionMetricsCalculator.compute(sport: .bike, athlete: athlete, stream: stream)
}

/// A FIT file read into typed activities.
@inline(never) public func workloadFITRead(_ bytes: [UInt8]) -> Int {
    guard let file = try? WorkoutFileReader.read(bytes: bytes, fileName: "ride.fit") else { return -1 }
    return file.activities.reduce(0) { $0 &+ $1.samples.count }
}

/// An Apple Health export.xml read into typed activities.
@inline(never) public func workloadHealthRead(_ bytes: [UInt8]) -> Int {
    guard let file = try? HealthExportReader.read(xmlBytes: bytes) else { return -1 }
    return file.activities.reduce(0) { $0 &+ $1.samples.count }
}

/// A batch body read, parsed, validated, its recordings' Base64 decoded and checked, hashed: everything of ingest but
/// the store's transaction (the user is known, no ledger key: the store is not asked).
@inline(never) public func workloadIngest(_ input: IngestInput) async -> Int {
    guard
        let prepared = try? await input.processor.prepare(
            body: input.body, context: input.context, user: .known(input.user))
    else { return -1 }
    return prepared.sessionCount
}

/// A training plan from a request, as `POST /v1/plan` makes it.
@inline(never) public func workloadPlan(_ request: PlanRequest) -> Int {
    let document = PlanEngine.generate(request)
    return document.plan?.weeks.count ?? -1
}
