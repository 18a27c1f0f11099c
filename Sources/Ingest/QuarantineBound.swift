import Store

extension QuarantineRecord {
    /// The record with at most `maxBytes` of its payload: a longer payload is cut to that prefix, and the message says
    /// how many bytes there were and their SHA-256, so the evidence stays identifiable while a hostile client cannot
    /// make the quarantine hold whole 32 MiB bodies. Under the bound the record is unchanged. `sha256`: the payload's
    /// SHA-256 when the caller has it already (an imported file's record: its content hash), not computed again.
    public func bounded(to maxBytes: Int, sha256: String? = nil) -> QuarantineRecord {
        guard payload.count > maxBytes else { return self }
        var record = self
        let hash = sha256 ?? Hashing.sha256Hex(payload)
        record.message += " [payload: first \(maxBytes) of \(payload.count) bytes kept; SHA-256 of all: \(hash)]"
        record.payload = Array(payload.prefix(maxBytes))
        return record
    }
}
