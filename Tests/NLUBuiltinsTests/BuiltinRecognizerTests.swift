import Foundation
import NLUBuiltins
import Testing

/// Hand-worked examples (values computed by hand from the issue's and LUIS's documentation) and bad input.
@Suite struct BuiltinRecognizerTests {
    func found(_ text: String, _ types: Set<BuiltinEntityType>) -> [(String, String, String?)] {
        BuiltinRecognizer(types: types).entities(in: text, reference: ReferenceTime(date: CivilDate(year: 2016, month: 11, day: 7)!))
            .map { entity in
                if case .value(let value, let unit, _) = entity.resolution { return (entity.text, value, unit) }
                return (entity.text, "", nil)
            }
    }

    @Test func numbersResolveInDigitsWordsSuffixesAndFractions() {
        let result = found("twenty-one thousand, 1,234.5, 1.5k, three quarters, a dozen, 2 1/4, minus five", [.number])
        #expect(result.map(\.0) == ["twenty-one thousand", "1,234.5", "1.5k", "three quarters", "a dozen", "2 1/4", "minus five"])
        #expect(result.map(\.1) == ["21000", "1234.5", "1500", "0.75", "12", "2.25", "-5"])
    }

    @Test func ordinalsInDigitsAndWords() {
        let result = found("the 21st and the twenty-first, then the last one", [.ordinal])
        #expect(result.map(\.1) == ["21", "21", "end+0"])
    }

    @Test func moneyCarriesValueAndUnit() {
        let result = found("transfer $1.5k or 20 euros, USD 30 and 3 dollars 50 cents", [.currency])
        #expect(result.map(\.0) == ["$1.5k", "20 euros", "USD 30", "3 dollars 50 cents"])
        #expect(result.map(\.1) == ["1500", "20", "30", "3.5"])
        #expect(result.map(\.2) == ["Dollar", "Euro", "United States dollar", "Dollar"])
    }

    @Test func percentagesAndTemperatures() {
        #expect(found("down 50% or twelve percent", [.percentage]).map(\.1) == ["50", "12"])
        let temperatures = found("set it to twenty-two degrees, it is -5 °F outside", [.temperature])
        #expect(temperatures.map(\.1) == ["22", "-5"])
        #expect(temperatures.map(\.2) == ["Degree", "F"])
    }

    /// Recognizers-Text's TemperatureModel spec: "convert 51 fahrenheit to degrees celsius" has the amount
    /// and the bare scale `{"unit": "C"}`, with no value.
    @Test func aScaleNamedWithoutAnAmountIsAUnitWithNoValue() throws {
        let entities = BuiltinRecognizer(types: [.temperature]).entities(in: "could you convert 51 fahrenheit to degrees celsius",
                                                                          reference: ReferenceTime(date: CivilDate(year: 2016, month: 11, day: 7)!))
        #expect(entities.map(\.text) == ["51 fahrenheit", "degrees celsius"])
        #expect(entities.map(\.resolution) == [.value("51", unit: "F"), .unit("C")])
        #expect(entities.map(\.scalarRange) == [18..<31, 35..<50])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(entities[1].resolution), as: UTF8.self) == #"{"unit":"C"}"#)
        // Single letters stay units only after an amount ("F Block", "13F filing").
        #expect(BuiltinRecognizer(types: [.temperature]).entities(in: "PA 23456 F Block, the F and C keys").isEmpty)
    }

    /// Words are compared lowercased; letters beyond ASCII too ("ÉTÉ" is "été"), with offsets in scalars.
    @Test func wordsAreLowercasedBeyondASCIIWithScalarOffsets() {
        let entities = BuiltinRecognizer(types: [.number]).entities(in: "ÉTÉ Zürich TWENTY-ONE straße 7")
        #expect(entities.map(\.text) == ["TWENTY-ONE", "7"])
        #expect(entities.map(\.resolution.value) == ["21", "7"])
        #expect(entities.map(\.scalarRange) == [11..<21, 29..<30])
    }

    @Test func emailsURLsAndPhoneNumbers() {
        let text = "call me on +1 (425) 555-0199 or mail Bob.Smith@Example.com, see https://example.com/a?b=1."
        let result = found(text, [.email, .url, .phonenumber])
        #expect(result.map(\.0) == ["+1 (425) 555-0199", "Bob.Smith@Example.com", "https://example.com/a?b=1"])
        #expect(result[1].1 == "bob.smith@example.com")
    }

    @Test func offsetsCountUnicodeScalars() throws {
        let text = "🎉 nai\u{308}ve: 42"  // the emoji is one scalar, "ï" two (i + combining diaeresis)
        let entity = try #require(BuiltinRecognizer(types: [.number]).entities(in: text).first)
        #expect(entity.scalarRange == 10..<12)
        #expect(text[entity.range] == "42")
    }

    /// Digits grouped in threes by single spaces read as a number among all kinds (Recognizers-Text's number spec:
    /// "1 234 567" is 1234567); the same span is a phone number only with something that says so.
    @Test func spaceGroupedDigitsAreANumberUnlessSomethingSaysPhone() {
        let all = Set(BuiltinEntityType.allCases)
        #expect(found("1 234 567", all).map { "\($0.0)=\($0.1)" } == ["1 234 567=1234567"])
        #expect(BuiltinRecognizer().entities(in: "a population of 1 414 021 100 people").map(\.type) == [.number])
        // Evidence of a phone number: a cue word before it, a "+", a trunk "0", hyphens, an extension.
        for text in ["call 1 234 567", "my phone number is 123 456 789", "tel.: 12 345 678", "+1 234 567", "0161 123 456",
                     "1 234-567", "1 234 567 ext 12"] {
            #expect(BuiltinRecognizer().entities(in: text).map(\.type) == [.phonenumber], "\(text)")
        }
        // Asked for phone numbers alone, the shape is enough (as in Recognizers-Text's phone spec).
        #expect(found("123 456 789", [.phonenumber]).map(\.0) == ["123 456 789"])
    }

    @Test func longerEntityWinsOverlaps() {
        let result = BuiltinRecognizer().entities(in: "pay $20 please").map(\.type)
        #expect(result == [.currency])
    }

    @Test func numbersBeyondInt64AndDoubleKeepTheirDigits() {
        let digits = String(repeating: "9", count: 400)
        #expect(found(digits, [.number]).map(\.1) == [digits])
        #expect(found("123456789012345678901234567890", [.number]).map(\.1) == ["123456789012345678901234567890"])
        // Larger than any Double: still an answer, not a trap.
        #expect(found(digits + " trillion", [.number]).count == 1)
    }

    @Test func emptyAndSymbolOnlyTextsHaveNoEntities() {
        #expect(BuiltinRecognizer().entities(in: "").isEmpty)
        #expect(BuiltinRecognizer().entities(in: "  ...  ---  @@@ ((( ").isEmpty)
    }

    @Test func encodesInTheLUISShape() throws {
        let entity = try #require(BuiltinRecognizer(types: [.currency]).entities(in: "transfer $1.5k").first)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(entity), as: UTF8.self)
        #expect(json == #"{"end":14,"entity":"currency","resolution":{"unit":"Dollar","value":"1500"},"start":9,"text":"$1.5k"}"#)
    }
}
