import Foundation
import NLUTestSupport
import Testing

/// `nlu entities extract` end to end: JSON and table output, and bad input.
@Suite struct EntitiesCommandTests {
    let reference = ["--reference-time", "2016-11-07T10:00:00"]

    @Test func jsonLinesCarryTextAndResolvedEntities() throws {
        let run = try runNLU(["entities", "extract", "--json"] + reference, input: "transfer $1.5k tomorrow at 7pm\n\nfifty percent\n")
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 3)
        let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(first["text"] as? String == "transfer $1.5k tomorrow at 7pm")
        let entities = try #require(first["entities"] as? [[String: Any]])
        #expect(entities.map { $0["entity"] as? String } == ["currency", "datetime"])
        #expect(entities.map { $0["start"] as? Int } == [9, 15])
        #expect(entities.map { $0["end"] as? Int } == [14, 30])
        let money = try #require(entities[0]["resolution"] as? [String: Any])
        #expect(money["value"] as? String == "1500" && money["unit"] as? String == "Dollar")
        let when = try #require((entities[1]["resolution"] as? [String: Any])?["values"] as? [[String: Any]])
        #expect(when.first?["timex"] as? String == "2016-11-08T19")
        #expect(when.first?["value"] as? String == "2016-11-08 19:00:00")
        #expect(lines[1] == #"{"entities":[],"text":""}"#)
        #expect(lines[2].contains(#""entity":"percentage""#) && lines[2].contains(#""value":"50""#))
    }

    @Test func typesFilterAndTableOutput() throws {
        let run = try runNLU(["entities", "extract", "--types", "number", "pay 20 dollars on May 4th"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "pay 20 dollars on May 4th\n  [4..<6]  number  20  20\n")
    }

    /// Chinese and Japanese: numbers, percentages and date-times inside unspaced text, offsets in Unicode scalars; an
    /// unknown code is a usage error listing the supported codes.
    @Test func chineseAndJapaneseAreReadInsideUnspacedText() throws {
        let chinese = try runNLU(["entities", "extract", "--language", "zh-CN", "--json", "我有两千三百五十个苹果和百分之二十的梨"])
        #expect(chinese.status == 0, "\(chinese.stderr)")
        #expect(chinese.stdout == #"{"entities":[{"end":8,"entity":"number","resolution":{"value":"2350"},"start":2,"text":"两千三百五十"},"#
                + #"{"end":17,"entity":"percentage","resolution":{"value":"20"},"start":12,"text":"百分之二十"}],"#
                + #""text":"我有两千三百五十个苹果和百分之二十的梨"}"# + "\n")
        let japanese = try runNLU(["entities", "extract", "--language", "ja-JP", "--types", "ordinal", "前から3番目の席"])
        #expect(japanese.status == 0, "\(japanese.stderr)")
        #expect(japanese.stdout == "前から3番目の席\n  [3..<6]  ordinal  3番目  3\n")
        let japaneseDate = try runNLU(["entities", "extract", "--language", "ja", "--types", "date", "--reference-time", "2016-11-07T10:00:00", "明日"])
        #expect(japaneseDate.status == 0, "\(japaneseDate.stderr)")
        #expect(japaneseDate.stdout == "明日\n  [0..<2]  date  明日  2016-11-08 [2016-11-08]\n")
        let chineseDateTime = try runNLU(["entities", "extract", "--language", "zh", "--reference-time", "2016-11-07T10:00:00",
                                          "下周一下午3点开会，两个小时"])
        #expect(chineseDateTime.status == 0, "\(chineseDateTime.stderr)")
        #expect(chineseDateTime.stdout == "下周一下午3点开会，两个小时\n  [0..<7]    datetime  下周一下午3点  2016-11-14 15:00:00 [2016-11-14T15]\n"
                + "  [10..<14]  duration  两个小时     7200 [PT2H]\n")
        let unknown = try runNLU(["entities", "extract", "--language", "ko-KR", "x"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("supported: en, fr, es, de, pt, it, nl, zh, ja"), "\(unknown.stderr)")
    }

    @Test func unknownTypeIsAUsageErrorListingTheKnownOnes() throws {
        let run = try runNLU(["entities", "extract", "--types", "number,money", "x"])
        #expect(run.status == 2)
        #expect(run.stderr.contains(#"unknown kind "money""#))
        #expect(run.stderr.contains("known kinds: number, ordinal, percentage, currency"))
    }

    @Test func invalidReferenceTimeNamesTheArgumentAndFormat() throws {
        let run = try runNLU(["entities", "extract", "--reference-time", "next tuesday", "x"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("--reference-time"))
        #expect(run.stderr.contains("YYYY-MM-DDTHH:MM"))
    }

    /// A spelled number next to Int64's limit where a year may stand: converting it through `Double` rounded it up
    /// to 2^63, which `Int` trapped on (the process died with SIGILL). Run as a subprocess so a crash fails the test.
    @Test func hugeSpelledNumberWhereAYearMayStandIsANumber() throws {
        let text = "in nine quintillion 223 quadrillion 372 trillion 36 billion 854 million 775 thousand 807"
        let run = try runNLU(["entities", "extract", "--json"] + reference + [text])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(#""value":"9223372036854775807""#), "\(run.stdout)")
    }

    @Test func invalidUTF8NamesTheLine() throws {
        let url = TestScratch.file("nlu-entities", extension: "txt")
        try Data([0x6F, 0x6B, 0x0A, 0xFF, 0xFE, 0x0A]).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let run = try runNLU(["entities", "extract", "--file", url.path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("line 2: not valid UTF-8"))
    }
}
