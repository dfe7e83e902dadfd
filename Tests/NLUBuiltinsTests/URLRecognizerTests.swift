@testable import NLUBuiltins
import Testing

/// The URL recognizer compares schemes and "www." without building strings; what it assumes of Unicode's tables is
/// checked against them.
@Suite struct URLRecognizerTests {
    @Test func onlyTheKelvinSignLowerCasesToASCIIBeyondASCII() {
        var found: [UInt32] = []
        for value in UInt32(128)...0x10_FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let mapping = scalar.properties.lowercaseMapping.unicodeScalars
            if mapping.count == 1, let only = mapping.first, only.isASCII { found.append(value) }
        }
        #expect(found == [0x212A])
        for scalar in "Kk\u{212A}Zz@".unicodeScalars {
            let ascii = scalar.properties.lowercaseMapping.unicodeScalars.first ?? scalar
            #expect(URLRecognizer.lowercases(scalar, to: ascii))
        }
        #expect(!URLRecognizer.lowercases("K", to: "K") && !URLRecognizer.lowercases("å", to: "a"))
    }

    @Test func schemesAreFoundInAnyCaseInUnspacedText() {
        let entities = BuiltinRecognizer(types: [.url]).entities(in: "详情请访问HTTPS://Example.COM/帮助或WWW.bing.com")
        #expect(entities.map(\.text) == ["HTTPS://Example.COM/", "WWW.bing.com"])
    }
}
