import Crypto
import Foundation
import Store
import Testing

/// `lowercaseHex`, which every stored SHA-256 text (content hashes, quarantine payload hashes, deletion audits' user
/// hashes, content digests) goes through: known vectors, and the same text as the `String(format: "%02x")` it replaced.
@Suite struct HexTests {
    @Test func sha256DigestsOfKnownVectors() {
        #expect(
            lowercaseHex(SHA256.hash(data: Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            lowercaseHex(SHA256.hash(data: [UInt8]()))
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        var hasher = SHA256()
        hasher.update(data: Data("a".utf8))
        hasher.update(data: Data("bc".utf8))
        #expect(lowercaseHex(hasher.finalize()) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func everyByteIsTwoLowerCaseDigitsAsFormatGaveThem() {
        let bytes = (0...255).map { UInt8($0) }
        #expect(lowercaseHex(bytes) == bytes.map { String(format: "%02x", $0) }.joined())
        #expect(lowercaseHex([0x00, 0x0f, 0xa0, 0xff]) == "000fa0ff")
        #expect(lowercaseHex([UInt8]()) == "")
    }
}
