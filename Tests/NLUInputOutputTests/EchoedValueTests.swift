import Testing
import NLUInputOutput

/// What an error message quotes of a value: all of a short one, the first 64 Unicode scalars of a long one.
@Suite struct EchoedValueTests {
    @Test func shortValuesAreKeptAndLongOnesCutAfter64Scalars() {
        #expect(EchoedValue.prefix("int8") == "int8")
        #expect(EchoedValue.prefix("") == "")
        let exactly64 = String(repeating: "x", count: 64)
        #expect(EchoedValue.prefix(exactly64) == exactly64)
        #expect(EchoedValue.prefix(exactly64 + "y") == exactly64 + "…")
        #expect(EchoedValue.prefix(String(repeating: "x", count: 10_000)[...]) == exactly64 + "…")
    }

    /// One grapheme cluster of 1,000 combining marks is one `Character`: counting scalars cuts it too.
    @Test func aLongGraphemeClusterIsCut() {
        let cluster = "e" + String(repeating: "\u{301}", count: 1000)
        #expect(cluster.count == 1)
        #expect(EchoedValue.prefix(cluster).unicodeScalars.count == 65)
    }
}
