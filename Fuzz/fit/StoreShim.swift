// The one declaration of Sources/Store/StoredRecording.swift that the store's samples codec (SampleColumns.swift,
// StoredSamples.swift, ZstdFrame.swift, compiled into this target by Fuzz/fit/run.sh) needs: the rest of that file
// uses the store's identifiers, which this target does not compile. Same cases as the original.

public enum StoredRecordingError: Error, Equatable, Sendable {
    case corruptFrame(String)
}
