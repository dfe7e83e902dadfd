import Testing
@testable import NLUText

/// The tokenizers index their input in 32 bits: the limit's boundary, and its message.
@Suite struct TextLengthLimitTests {
    @Test func theLimitIsTheLargest32BitOffset() throws {
        #expect(TextLengthLimit.maximumUTF8Bytes == 2_147_483_647)
        try TextLengthLimit.check(utf8Count: 2_147_483_647)
        try TextLengthLimit.check("héllo")
        #expect(throws: BertTokenizerError.textTooLong(name: "line 3", bytes: 2_147_483_648, limit: 2_147_483_647)) {
            try TextLengthLimit.check(utf8Count: 2_147_483_648, name: "line 3")
        }
    }

    @Test func theMessageNamesTheTextAndTheLimit() {
        let message = BertTokenizerError.textTooLong(name: "the document", bytes: 3_000_000_000, limit: 2_147_483_647).description
        #expect(message == "the document is 3000000000 bytes of UTF-8; the tokenizers take at most 2147483647 (2 GiB - 1: they count offsets in 32 bits)")
    }
}
