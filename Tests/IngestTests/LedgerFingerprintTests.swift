import Store
import Testing

@testable import Ingest

/// The ingest ledger's fingerprint of a batch body (docs/inbox.md, "The ledger's fingerprint"): XXH3's 128-bit hash in
/// its canonical form. The expected digests were computed apart from the pipeline, by the `xxhash` package from PyPI
/// (its own copy of xxHash 0.8.4, `xxhash.xxh3_128_hexdigest`), and the empty input's is the one xxHash documents.
@Suite struct LedgerFingerprintTests {
    @Test func knownAnswersFromAnotherImplementation() {
        #expect(Hashing.ledgerFingerprint([]) == "xxh3-128:99aa06d3014798d86001c324468d497f")
        #expect(Hashing.ledgerFingerprint(Array("abc".utf8)) == "xxh3-128:06b05ab6733a618578af5f94892f3950")
        // Long enough for XXH3's striped loop over several blocks, as a batch file is.
        let long = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        #expect(Hashing.ledgerFingerprint(long) == "xxh3-128:d9e155dd16e141d00c056f6fcc340974")
    }

    /// An entry written before the fingerprint holds the body's SHA-256: the same bytes still match it, other bytes
    /// and an oversized file's `size:N` do not.
    @Test func entriesFromBeforeTheFingerprintStillMatch() {
        let body = Array(#"{"sessions":[]}"#.utf8)
        let fingerprint = Hashing.ledgerFingerprint(body)
        #expect(Hashing.ledgerEntry(fingerprint, matches: body, fingerprint: fingerprint))
        #expect(Hashing.ledgerEntry(sha256Hex(body), matches: body, fingerprint: fingerprint))
        let other = body + [0x0A]
        let otherFingerprint = Hashing.ledgerFingerprint(other)
        #expect(otherFingerprint != fingerprint)
        #expect(!Hashing.ledgerEntry(fingerprint, matches: other, fingerprint: otherFingerprint))
        #expect(!Hashing.ledgerEntry(sha256Hex(body), matches: other, fingerprint: otherFingerprint))
        #expect(!Hashing.ledgerEntry("size:\(body.count)", matches: body, fingerprint: fingerprint))
        // 64 characters that are not the body's SHA-256 (the prefix's own length does not make a SHA-256 entry).
        #expect(!Hashing.ledgerEntry(String(repeating: "0", count: 64), matches: body, fingerprint: fingerprint))
    }
}
