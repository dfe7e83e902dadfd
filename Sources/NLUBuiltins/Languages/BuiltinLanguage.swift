import Foundation

/// The language a ``BuiltinRecognizer`` reads. English has every built-in kind; the other languages have
/// numbers, ordinals and percentages written their way (words, decimal comma, thousands dots or spaces,
/// "1er", "3.", "2º"), money and temperatures in their words ("323 millions d'euros", "40 grados Celsius"),
/// plus the kinds whose form does not depend on the language (e-mails, URLs, phone numbers), and date-times ("demain
/// à 15h30", "el próximo lunes a las 3 de la tarde", "morgen um 18 Uhr", "domani alle 8:00am", "morgen om 15.00").
/// Chinese and Japanese have numbers, ordinals, percentages, money and temperatures found inside unspaced text
/// ("两千四百五", "第三", "百分之五十", "3番目", "5割", "1万亿日元", "20摄氏度", "華氏98.6度"), e-mails, URLs and
/// phone numbers, and date-times ("2016年11月3日", "下周一下午3点", "来週の月曜日", "午後3時30分", "3天", "毎週").
/// ``supportedTypes`` says which.
///
///     let french = try BuiltinLanguage(code: "fr-FR")
///     BuiltinRecognizer(language: french).entities(in: "quatre-vingt-dix-sept pour cent").map(\.text)
///     // ["quatre-vingt-dix-sept pour cent"]
public enum BuiltinLanguage: String, CaseIterable, Sendable, Codable {
    case english = "en"
    case french = "fr"
    case spanish = "es"
    case german = "de"
    case portuguese = "pt"
    case italian = "it"
    case dutch = "nl"
    case chinese = "zh"
    case japanese = "ja"

    /// The language of a code or culture: "fr", "fr-FR", "fr_fr", "FR"; the region is not checked beyond its
    /// shape (``LanguageCode``), since every region of a language writes its numbers the same way here.
    public init(code: String) throws(BuiltinLanguageError) {
        guard let first = LanguageCode.language(of: code) else { throw .malformed(code) }
        guard let language = BuiltinLanguage(rawValue: first) else { throw .unsupported(code) }
        self = language
    }

    /// The kinds this language recognizes.
    public var supportedTypes: Set<BuiltinEntityType> {
        if self == .english { return Set(BuiltinEntityType.allCases) }
        var common: Set<BuiltinEntityType> = [.number, .ordinal, .percentage, .currency, .temperature, .email, .url, .phonenumber]
        if unitLexicon?.measures.isEmpty == false || cjkUnits?.measures.isEmpty == false { common.formUnion([.age, .dimension]) }
        return dateTimeLexicon == nil && cjkDateTimeWords == nil ? common : common.union(BuiltinEntityType.dateTimeTypes)
    }

    /// The date-time words of a language other than English that has them (English keeps its own parsers).
    var dateTimeLexicon: DateTimeLexicon? {
        switch self {
        case .french: FrenchDateTimeWords.lexicon
        case .spanish: SpanishDateTimeWords.lexicon
        case .german: GermanDateTimeWords.lexicon
        case .portuguese: PortugueseDateTimeWords.lexicon
        case .italian: ItalianDateTimeWords.lexicon
        case .dutch: DutchDateTimeWords.lexicon
        case .english, .chinese, .japanese: nil
        }
    }

    /// The kinds a recognizer without a language reads (``BuiltinRecognizer`` with `language: nil`): those
    /// written alike in every language. Numbers are then digits only ("3", not "three" nor "1.500").
    public static let languageIndependentTypes: Set<BuiltinEntityType> = [.number, .email, .url, .phonenumber]

    /// The language's name in English ("French").
    public var name: String {
        switch self {
        case .english: "English"
        case .french: "French"
        case .spanish: "Spanish"
        case .german: "German"
        case .portuguese: "Portuguese"
        case .italian: "Italian"
        case .dutch: "Dutch"
        case .chinese: "Chinese"
        case .japanese: "Japanese"
        }
    }

    /// The money and temperature words of a language other than English (English keeps its own tables).
    var unitLexicon: UnitLexicon? {
        switch self {
        case .english, .chinese, .japanese: nil
        case .french: FrenchUnitWords.lexicon
        case .spanish: SpanishUnitWords.lexicon
        case .german: GermanUnitWords.lexicon
        case .portuguese: PortugueseUnitWords.lexicon
        case .italian: ItalianUnitWords.lexicon
        case .dutch: DutchUnitWords.lexicon
        }
    }

    /// The number words and rules of a language other than English (English keeps its own parser).
    var numberLexicon: NumberLexicon? {
        switch self {
        case .english, .chinese, .japanese: nil
        case .french: FrenchNumberWords.lexicon
        case .spanish: SpanishNumberWords.lexicon
        case .german: GermanNumberWords.lexicon
        case .portuguese: PortugueseNumberWords.lexicon
        case .italian: ItalianNumberWords.lexicon
        case .dutch: DutchNumberWords.lexicon
        }
    }
}

extension BuiltinLanguage {
    /// The numerals of a language written without spaces (Chinese, Japanese), read on characters rather than words.
    var cjkNumerals: CJKNumerals? {
        switch self {
        case .chinese: ChineseNumerals.numerals
        case .japanese: JapaneseNumerals.numerals
        default: nil
        }
    }

    /// The date-time words of a language written without spaces.
    var cjkDateTimeWords: CJKDateTimeWords? {
        switch self {
        case .chinese: ChineseDateTimeWords.words
        case .japanese: JapaneseDateTimeWords.words
        default: nil
        }
    }

    /// The money and temperature words of a language written without spaces.
    var cjkUnits: CJKUnits? {
        switch self {
        case .chinese: ChineseUnits.units
        case .japanese: JapaneseUnits.units
        default: nil
        }
    }
}

/// A language code the built-in recognizers cannot use; the message lists the ones they can.
public enum BuiltinLanguageError: Error, CustomStringConvertible, Equatable {
    case malformed(String)
    case unsupported(String)

    public var description: String {
        let supported = BuiltinLanguage.allCases.map(\.rawValue).joined(separator: ", ")
        switch self {
        case .malformed(let code):
            return "'\(code)' is not a language code (\(LanguageCode.expectedShape)); supported: \(supported)"
        case .unsupported(let code):
            return "built-in entities do not support the language '\(code)'; supported: \(supported)"
        }
    }
}
