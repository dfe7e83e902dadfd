import Testing
@testable import NLUIntents

/// Rasa's inline markup, well-formed and not: malformed markup stays plain text, and the first `]`
/// after a `[` ends its mention whatever else opens before it.
@Suite struct RasaMarkupTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var marked: String
        var text: String
        var entities: [EntityAnnotation]
        var testDescription: String { marked }
    }

    static let cases: [Case] = [
        Case(marked: "fly to [Paris](city)", text: "fly to Paris", entities: [EntityAnnotation(start: 7, end: 12, entity: "city", value: "Paris")]),
        Case(marked: "a [b] c", text: "a [b] c", entities: []),
        Case(marked: "[b](e", text: "[b](e", entities: []),
        Case(marked: "x ] y [ z", text: "x ] y [ z", entities: []),
        Case(marked: #"[b]{"entity": "e""#, text: #"[b]{"entity": "e""#, entities: []),
        Case(marked: "[b]{not json} z", text: "b z", entities: []),
        Case(marked: "[[b](e) x", text: "[b x", entities: [EntityAnnotation(start: 0, end: 2, entity: "e", value: "[b")]),
        Case(marked: "[a] [b](e)", text: "[a] b", entities: [EntityAnnotation(start: 4, end: 5, entity: "e", value: "b")]),
        Case(marked: "[b](e:v) and [c", text: "b and [c", entities: [EntityAnnotation(start: 0, end: 1, entity: "e", value: "v")]),
        Case(marked: #"[b]{"entity": "e", "value": {"x": 1}} z"#, text: "b z", entities: [EntityAnnotation(start: 0, end: 1, entity: "e", value: "b")]),
        Case(marked: #"[x]{[y]{"entity": "e"}"#, text: #"[x]{y"#, entities: [EntityAnnotation(start: 4, end: 5, entity: "e", value: "y")]),
        Case(marked: "[x](([y](e)", text: "x", entities: [EntityAnnotation(start: 0, end: 1, entity: "([y](e", value: "x")]),
    ]

    @Test(arguments: cases)
    func markup(_ example: Case) {
        let utterance = RasaAnnotationParser.parse(example.marked)
        #expect(utterance.text == example.text)
        #expect(utterance.entities == example.entities)
    }
}
