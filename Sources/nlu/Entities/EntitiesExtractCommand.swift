import ArgumentParser
import Foundation
import NLUKit

/// `nlu entities extract`: the built-in entities of each input line, resolved.
struct EntitiesExtractCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract: "Find and resolve built-in entities in text (English by default, --language for others).",
        discussion: """
        Inputs are the TEXT arguments, or else the lines of --file or of standard input (one input per line).

        Kinds: \(BuiltinEntityType.allCases.map(\.rawValue).joined(separator: ", ")). Relative dates ("tomorrow", \
        "next Friday") are resolved against --reference-time (default: now, local time). Where entities \
        overlap, the longest wins.

        Output: a table per input, or with --json one JSON object per input line: \
        {"text": ..., "entities": [{"entity", "start", "end", "text", "resolution"}]}, offsets in Unicode \
        scalars (end exclusive); "resolution" is {"value"} (with "unit", "isoCurrency" for money, \
        temperatures, ages and dimensions; {"unit"} alone for a unit said without an amount) or {"values": [{"timex", "type", \
        "value" | "start", "end"}]} for date-times.

        Languages (--language, a code or culture such as fr, fr-FR, de-de, zh-CN, ja-JP): \
        \(BuiltinLanguage.allCases.map(\.rawValue).joined(separator: ", ")). English has every kind; the others \
        have number, ordinal and percentage (written their way: "quatre-vingt-dix", "2.000,352", "1er"; Chinese and \
        Japanese inside unspaced text: "两千四百五", "第三", "百分之五十", "3番目", "5割"), currency, temperature, age \
        and dimension ("323 millions d'euros", "40 grados Celsius", "1万亿日元", "20摄氏度", "5 Jahre alt", "660 mètres \
        carrés", "168公分", units named in the language), \
        the kinds that do not depend on the language (email, url, phonenumber), and date-times ("demain à 15h30", \
        "下周一下午3点", "来週の月曜日"); asking for another kind is an error.

        Example: nlu entities extract --reference-time 2016-11-07T10:00:00 --json "transfer $1.5k tomorrow at 7pm"
        """)

    @Option(help: ArgumentHelp("The language of the texts: a code or culture (en, fr, fr-FR, de-de; default: en).",
                               valueName: "code"))
    var language: String?

    @Flag(help: "Say on stderr when a text is written in a script the language does not use.")
    var verbose = false

    @Option(help: ArgumentHelp("Comma-separated kinds to report (default: all).", valueName: "kinds"))
    var types: String?

    @Option(help: ArgumentHelp("The time relative dates are resolved against: YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS].",
                               valueName: "iso8601"))
    var referenceTime: String?

    @Option(help: ArgumentHelp("Read inputs from this file (one per line) instead of standard input.", valueName: "file"))
    var file: String?

    @Flag(help: "Print one JSON object per input on stdout.")
    var json = false

    @Argument(help: "Texts to search (each argument is one input).")
    var texts: [String] = []

    @OptionGroup var inputSize: InputSizeOption

    func validate() throws {
        let language = try builtinLanguage()
        if types != nil {
            let unsupported = try kinds().subtracting(language.supportedTypes)
            guard unsupported.isEmpty else {
                throw ValidationError("--types: \(language.name) has no " + unsupported.map(\.rawValue).sorted().joined(separator: ", ")
                    + "; it has " + language.supportedTypes.map(\.rawValue).sorted().joined(separator: ", "))
            }
        }
        _ = try reference()
        guard file == nil || texts.isEmpty else { throw ValidationError("give TEXT arguments or --file, not both") }
    }

    func run() throws {
        let language = try builtinLanguage()
        let recognizer = BuiltinRecognizer(language: language, types: try kinds())
        let reference = try reference()
        // JSON goes into `lines` (bytes), the table into `output`; either is written out when it grows large.
        var output = ""
        var lines = JSONWriter()
        // The flags read once: an argument-parser property is a look-up of its own at every read.
        let (verbose, json) = (self.verbose, self.json)
        func flushIfLarge() {
            if output.utf8.count > 1 << 16 {
                Console.write(output)
                output = ""
            }
            if lines.bytes.count > 1 << 16 {
                Console.write(lines.bytes)
                lines.removeAll()
            }
        }
        // The entities of a line are written as the recognizer finds them (it reads a long line in windows), so
        // a line dense with entities needs no list of them all: JSON is written in pieces, the table in blocks.
        func answer(_ input: String) throws {
            if verbose { ScriptNotes.note(on: input, language: language.rawValue, reader: "the built-ins") }
            if json {
                // Keys sorted, as `Console.json` writes every other command's JSON.
                lines.beginObject()
                lines.key("entities")
                lines.beginArray()
                recognizer.forEachEntity(in: input, reference: reference) { entity in
                    entity.writeJSON(to: &lines)
                    flushIfLarge()
                }
                lines.endArray()
                lines.key("text")
                lines.string(input)
                lines.endObject()
                lines.raw("\n")
            } else {
                output += input + "\n"
                var block: [BuiltinEntity] = [], any = false
                recognizer.forEachEntity(in: input, reference: reference) { entity in
                    block.append(entity)
                    any = true
                    if block.count == EntityTable.blockRows {
                        output += EntityTable.rows(block)
                        block.removeAll(keepingCapacity: true)
                        flushIfLarge()
                    }
                }
                output += any ? EntityTable.rows(block) : "  (no entities)\n"
            }
            flushIfLarge()
        }
        // Lines stream: one is held at a time, so a file of any length runs in bounded memory.
        if texts.isEmpty {
            try Console.forEachLine(path: file, answer)
        } else {
            for text in texts { try answer(text) }
        }
        Console.write(output)
        Console.write(lines.bytes)
    }

    private func kinds() throws -> Set<BuiltinEntityType> {
        guard let types else { return Set(BuiltinEntityType.allCases) }
        var kinds = Set<BuiltinEntityType>()
        for name in types.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            guard let kind = BuiltinEntityType(rawValue: trimmed) else {
                throw ValidationError("--types: unknown kind \"\(trimmed)\"; known kinds: "
                    + BuiltinEntityType.allCases.map(\.rawValue).joined(separator: ", "))
            }
            kinds.insert(kind)
        }
        return kinds
    }

    private func builtinLanguage() throws -> BuiltinLanguage {
        guard let language else { return .english }
        do {
            return try BuiltinLanguage(code: language)
        } catch {
            throw ValidationError("--language: \(error.description)")
        }
    }

    private func reference() throws -> ReferenceTime {
        guard let referenceTime else { return .now() }
        do {
            return try ReferenceTime(iso8601: referenceTime)
        } catch let error as ReferenceTimeError {
            throw ValidationError("--reference-time: \(error.description)")
        }
    }
}

/// The readable form: the input, then one aligned row per entity.
enum EntityTable {
    /// The rows aligned together: a line holding more entities is aligned a block at a time, as they are found.
    static let blockRows = 1_000

    /// One aligned row per entity: offsets, kind, text, resolution.
    static func rows(_ entities: [BuiltinEntity]) -> String {
        var out = ""
        let rows = entities.map { entity in
            [SpanNotation.text(start: entity.scalarRange.lowerBound, end: entity.scalarRange.upperBound), entity.type.rawValue, entity.text,
             summary(entity.resolution)]
        }
        let widths = (0..<3).map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            let padded = (0..<3).map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
            out += "  " + padded.joined(separator: "  ") + "  " + row[3] + "\n"
        }
        return out
    }

    private static func summary(_ resolution: BuiltinResolution) -> String {
        switch resolution {
        case .value(let value, let unit, let iso):
            return [value, unit, iso.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
        case .unit(let unit):
            return unit
        case .dateTimes(let values):
            return values.map { value in
                let what = value.value ?? "\(value.start ?? "…") to \(value.end ?? "…")"
                return what + " [" + value.timex + (value.mod.map { ", " + $0 } ?? "") + "]"
            }.joined(separator: " | ")
        }
    }
}
