import Foundation
import Testing
@testable import NLUHub

/// Digests from FIPS 180-4's examples (also `hashlib.sha256(...).hexdigest()`).
@Suite struct SHA256Tests {
    private func hex(_ bytes: Data) -> String {
        var digest = SHA256()
        digest.update(bytes)
        return digest.hexDigest()
    }

    @Test func matchesTheStandardsTestVectors() {
        #expect(hex(Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex(Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(hex(Data(repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func digestDoesNotDependOnHowTheBytesArePieced() {
        let bytes = Data((0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        var pieced = SHA256()
        var start = 0
        for size in [1, 63, 64, 65, 7, 300] {
            pieced.update(bytes[start..<start + size])
            start += size
        }
        pieced.update(bytes[start...])
        // python3 -c "import hashlib;print(hashlib.sha256(bytes((i*31+7)%256 for i in range(1000))).hexdigest())"
        #expect(pieced.hexDigest() == hex(bytes))
        #expect(hex(bytes) == "5097e7d587352f5097062ae679f37bda5802d9f875aba14c8cb4d1a188ada179")
    }
}
