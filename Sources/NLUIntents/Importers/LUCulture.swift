import Foundation
import NLUBuiltins

/// The culture of a top-level `.lu` file: its `> !# @app.culture = fr-fr` header, else the culture in its
/// name, as the Bot Framework CLI names a project's files per culture (`main.fr-fr.lu`, `main.en-us.lu`:
/// `bf luis:build` reads that part). A folder with files of several cultures is one app per culture:
/// ``LUImporter`` reads the files of one of them (and those of none), never utterances of two mixed.
///
///     LUCulture.inName("booking.fr-fr.lu")   // "fr-fr"
///     LUCulture.inName("booking.lu")         // nil
///     LUCulture.inName("v1.2.lu")            // nil: "2" is no culture
enum LUCulture {
    /// The culture part of a file name `name.<culture>.lu`: a language and a region (`fr-fr`, `zh_CN`), so
    /// that a dotted name (`v1.2.lu`, `faq.old.lu`) is not read as one.
    static func inName(_ path: String) -> String? {
        let name = (path as NSString).lastPathComponent
        guard name.hasSuffix(".lu") else { return nil }
        let parts = name.dropLast(3).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2, let last = parts.last.map(String.init), LanguageCode.isCulture(last) else { return nil }
        return last
    }

    /// The culture a file's text declares (`> !# @app.culture = en-us`), the first if several.
    static func declared(in text: String) -> String? {
        for line in text.split(whereSeparator: \.isNewline) {
            if let culture = header(line.trimmingCharacters(in: .whitespaces)) { return culture }
        }
        return nil
    }

    /// The culture a trimmed header line `> !# @app.culture = en-us` states, `nil` for any other line.
    static func header(_ line: String) -> String? {
        guard line.hasPrefix(">"), let range = line.range(of: "@app.culture") else { return nil }
        let value = line[range.upperBound...].drop { $0 == " " || $0 == "=" }.trimmingCharacters(in: .whitespaces)
        return value.isEmpty ? nil : value
    }
}
