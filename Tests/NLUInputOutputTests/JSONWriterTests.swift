import Foundation
import NLUInputOutput
import Testing

/// `JSONWriter` writes what `JSONEncoder` (`[.sortedKeys, .withoutEscapingSlashes]`) writes for the same values.
@Suite struct JSONWriterTests {
    private func encoded(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    private func written(_ value: String) -> [UInt8] {
        var json = JSONWriter()
        json.string(value)
        return json.bytes
    }

    /// Every ASCII character alone and inside text (control characters, quotes, backslash, slash, DEL), and
    /// non-ASCII text of every UTF-8 length, escaped as `JSONEncoder` escapes it.
    @Test func stringsAreEscapedAsJSONEncoderEscapesThem() throws {
        var samples = (0..<128).map { String(UnicodeScalar(UInt8($0))) }
        samples += (0..<128).map { "a\(UnicodeScalar(UInt8($0)))b" }
        samples += ["", "plain", "a/b\\c\"d", "\u{1F}\u{7F}\u{80}", "é", "两千三百五十", "😀 and 🇫🇷", "\u{2028}\u{2029}",
                    "\u{FEFF}bom", "tab\tnew\nline\r\u{0C}\u{08}", "\u{0}\u{1}\u{1A}\u{1B}", String(repeating: "\\\"", count: 50)]
        for sample in samples {
            #expect(written(sample) == (try encoded(sample)), "\(sample.unicodeScalars.map { $0.value })")
        }
    }

    @Test func integersAreWrittenInDecimal() throws {
        for value in [0, 7, 9, 10, 42, -1, -10, 123_456_789, Int.max, Int.min] {
            var json = JSONWriter()
            json.integer(value)
            #expect(json.bytes == (try encoded(value)))
        }
    }

    /// Nested objects and arrays take their commas and colons where `JSONEncoder` puts them, empty ones included.
    @Test func nestedContainersMatchJSONEncoder() throws {
        struct Item: Encodable { var a: Int; var b: [String]; var c: [Int] }
        struct Line: Encodable { var items: [Item]; var name: String; var none: [Int] }
        let line = Line(items: [Item(a: 1, b: ["x", "y/z"], c: []), Item(a: 22, b: [], c: [3, 4])], name: "n\"m", none: [])
        var json = JSONWriter()
        json.beginObject()
        json.key("items")
        json.beginArray()
        for item in line.items {
            json.beginObject()
            json.key("a"); json.integer(item.a)
            json.key("b"); json.beginArray(); for text in item.b { json.string(text) }; json.endArray()
            json.key("c"); json.beginArray(); for number in item.c { json.integer(number) }; json.endArray()
            json.endObject()
        }
        json.endArray()
        json.key("name"); json.string(line.name)
        json.key("none"); json.beginArray(); json.endArray()
        json.endObject()
        #expect(String(decoding: json.bytes, as: UTF8.self) == String(decoding: try encoded(line), as: UTF8.self))
        // Values written one after another at the top level (lines of a stream) take no comma between them.
        json.removeAll()
        json.beginObject(); json.endObject(); json.raw("\n"); json.beginObject(); json.endObject()
        #expect(String(decoding: json.bytes, as: UTF8.self) == "{}\n{}")
    }
}
