import Store

extension QuarantineRecord {
    /// The record with at most `maxBytes` of its payload: a longer payload is cut to that prefix, and the message says
    /// how many bytes there were and their SHA-256, so the evidence stays identifiable while a hostile client cannot
    /// make the quarantine hold whole 32 MiB bodies. Under the bound the record is unchanged. `sha256`: the payload's
    /// SHA-256 when the caller has it already (an imported file's record: its content hash), not computed again.
    /// `size`: the whole payload's size when `payload` holds only its first bytes (at least `maxBytes` of them, or all:
    /// an imported file's record, whose canonical text is hashed as it is written and never kept whole; `sha256` is
    /// then its hash); an empty `payload` (none kept) stays empty.
    public func bounded(to maxBytes: Int, sha256: String? = nil, size: Int? = nil) -> QuarantineRecord {
        let total = payload.isEmpty ? 0 : size ?? payload.count
        guard total > maxBytes else { return self }
        var record = self
        let hash = sha256 ?? Hashing.sha256Hex(payload)
        record.message += " [payload: first \(maxBytes) of \(total) bytes kept; SHA-256 of all: \(hash)]"
        record.payload = Array(payload.prefix(maxBytes))
        return record
    }
}
