// The one declaration of Sources/Store/StoredRecording.swift that the store's samples codec (SampleColumns.swift,
// StoredSamples.swift, ZstdFrame.swift, compiled into this target by Fuzz/fit/run.sh) and the recordings' columns
// (RecordColumns.swift, compiled into the FTMSDecode target by Fuzz/run.sh) need: the rest of that file uses the
// store's identifiers, which these targets do not compile. Same cases as the original.

public enum StoredRecordingError: Error, Equatable, Sendable {
    case corruptFrame(String)
}
