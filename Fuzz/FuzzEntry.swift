// libFuzzer entry for FTMSDecode: compiled together with Sources/FTMSDecode, FTMSRender and SessionAssembly by
// Fuzz/run.sh (`swiftc -sanitize=fuzzer,address`). Every input must run to completion
// without a trap; the invariants below trap (and so report a crash) when violated.

/// The UUIDs the single-value mode picks from (first byte of the payload, modulo count).
let fuzzUUIDs: [UInt16] = CharacteristicDecoder.knownCharacteristics.map(\.uuid) + [0xFFFF]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    guard let mode = input.first else { return 0 }
    let body = UnsafeRawBufferPointer(rebasing: input[1...])
    switch mode % 3 {
    case 0: fuzzBlob(Array(body))
    case 1:
        // A valid header in front, so the fuzzer spends its time in the records.
        var blob = BlobWriter(machineRaw: mode / 3 % 8, startMillis: 1_766_570_400_000).bytes
        blob.append(contentsOf: body)
        fuzzBlob(blob)
    default:
        guard let selector = body.first else { return 0 }
        let uuid = fuzzUUIDs[Int(selector) % fuzzUUIDs.count]
        fuzzValue(uuid: uuid, payload: Array(body.dropFirst()))
    }
    return 0
}

func fuzzBlob(_ bytes: [UInt8]) {
    // The store's columns of a recording (Sources/Store/RecordColumns.swift) give back every byte, and forged columns
    // are an error or bytes, never a trap.
    for order in [RecordColumns.PayloadOrder.records, .byteColumns] {
        if let columns = RecordColumns.split(bytes, order: order) {
            precondition(
                (try? RecordColumns.join(columns, order: order)) == bytes,
                "recording columns (\(order)) do not give the recording back")
        }
        _ = try? RecordColumns.join(bytes, order: order)
    }
    guard let blob = try? BlobReader.read(bytes) else { return }
    // Reading never allocates records for bytes that are not there.
    precondition(blob.records.count <= max(0, (bytes.count - 16) / 8))
    // A one-hour grid limit keeps each input fast; the limit logic itself is exercised
    // because fuzzed record times are mostly far beyond it.
    let configuration = SessionAssembler.Configuration(maxSeconds: 3_600)
    let whole = SessionAssembler.assemble(blob, configuration: configuration)
    let direct = try! SessionAssembler.assemble(bytes: bytes, configuration: configuration)
    var accumulator = SessionAccumulator(header: blob.header, configuration: configuration)
    for record in blob.records { accumulator.add(record) }
    precondition(accumulator.finish(end: blob.end) == whole, "record-by-record assembler differs")
    precondition(whole == direct, "zero-copy assembler differs from record path")
    let inGrid = blob.records.last { Int($0.timeMillis / 1000) < 3_600 }
    precondition(whole.seconds == (inGrid.map { Int($0.timeMillis / 1000) + 1 } ?? 0))
    precondition(whole.recordsPastLimit == blob.records.filter { Int($0.timeMillis / 1000) >= 3_600 }.count)
    precondition(whole.paused.count == whole.seconds)
    precondition(whole.derivedTotals.distanceM == whole.distanceM.reduce(0) { $1.isNaN ? $0 : $0 + $1 })
    for channel in [
        whole.powerW, whole.speedKmh, whole.cadenceRpm, whole.heartRateBpm, whole.distanceM, whole.energyKcal,
        whole.strokes,
    ] {
        precondition(channel.isEmpty || channel.count == whole.seconds)
    }
    for record in blob.records.prefix(16) {
        let value = record.decoded()
        _ = value.jsonObject(timeMillis: record.timeMillis, kindRaw: record.kindRaw)
    }
}

func fuzzValue(uuid: UInt16, payload: [UInt8]) {
    let value = CharacteristicDecoder.decode(uuid: uuid, kind: nil, payload: payload)
    _ = value.jsonObject(timeMillis: 0, kind: nil)
    precondition(value.ok == (value.error == nil))
    precondition(payload.isEmpty ? !value.ok || value.characteristic == "unknown" : true, "empty payload decoded ok")
    // Typed decode → encode → decode is a fixed point.
    func roundTrip<T: Equatable>(_ decode: ([UInt8]) throws(DecodeError) -> T, _ encode: (T) -> [UInt8]) {
        guard let first = try? decode(payload) else { return }
        let again = try! decode(encode(first))
        precondition(again == first, "round trip changed \(T.self)")
    }
    switch uuid {
    case 0x2AD2: roundTrip(IndoorBikeData.decode, { $0.encode() })
    case 0x2AD1: roundTrip(RowerData.decode, { $0.encode() })
    case 0x2ACD: roundTrip(TreadmillData.decode, { $0.encode() })
    case 0x2ACE: roundTrip(CrossTrainerData.decode, { $0.encode() })
    case 0x2ACF: roundTrip(StepClimberData.decode, { $0.encode() })
    case 0x2AD0: roundTrip(StairClimberData.decode, { $0.encode() })
    case 0x2A37: roundTrip(HeartRateMeasurement.decode, { $0.encode() })
    case 0x2A63: roundTrip(CyclingPowerMeasurement.decode, { $0.encode() })
    case 0x2A5B: roundTrip(CSCMeasurement.decode, { $0.encode() })
    case 0x2ADA: roundTrip(FitnessMachineStatus.decode, { $0.encode() })
    case 0x2AD9: roundTrip(ControlPointMessage.decode, { $0.encode() })
    case 0x2ACC: roundTrip(FitnessMachineFeature.decode, { $0.encode() })
    default: break
    }
    // Streaming decoders: the fast path (one length check, unchecked reads) and the checked
    // walk hand over the same fields or throw the same error, nothing visited on error.
    switch uuid {
    case 0x2AD2: streamAgrees(IndoorBikeData.self, payload)
    case 0x2AD1: streamAgrees(RowerData.self, payload)
    case 0x2ACD: streamAgrees(TreadmillData.self, payload)
    case 0x2ACE: streamAgrees(CrossTrainerData.self, payload)
    case 0x2ACF: streamAgrees(StepClimberData.self, payload)
    case 0x2AD0: streamAgrees(StairClimberData.self, payload)
    case 0x2A63: streamAgrees(CyclingPowerMeasurement.self, payload)
    case 0x2A5B: streamAgrees(CSCMeasurement.self, payload)
    case 0x2A37:
        // The in-place view decodes exactly as the owned value.
        payload.withUnsafeBytes { bytes in
            let view = try? HeartRateMeasurement.decodeView(bytes: bytes)
            precondition(view?.measurement == (try? HeartRateMeasurement.decode(bytes: bytes)), "view differs")
            if let view, let rr = view.rrIntervals {
                // The intervals fill the rest of the value after flags, heart rate and energy.
                let head = 1 + (view.uses16BitHeartRate ? 2 : 1) + (view.energyExpendedKJ == nil ? 0 : 2)
                precondition(rr.count == (bytes.count - head) / 2, "RR count")
            }
        }
    default: break
    }
    // The same value inside a blob gives the same decode.
    var writer = BlobWriter(machine: .indoorBike, startMillis: 0)
    if payload.count <= BlobReader.maxPayloadLength {
        writer.append(timeMillis: 0, uuid: uuid, kind: .notification, payload: payload)
        let blob = try! BlobReader.read(writer.bytes)
        precondition(blob.records.count == 1 && blob.end == .complete)
        precondition(
            blob.records[0].decoded() == CharacteristicDecoder.decode(uuid: uuid, kind: .notification, payload: payload)
        )
        _ = SessionAssembler.assemble(blob)
    }
}

/// The streaming decoder's path and the checked walk agree (`fastPathMatchesCheckedWalk`).
func streamAgrees<T: FlaggedDataCharacteristic>(_ type: T.Type, _ payload: [UInt8]) {
    payload.withUnsafeBytes { bytes in
        precondition(T.fastPathMatchesCheckedWalk(bytes), "streaming path differs from the checked walk")
    }
}
