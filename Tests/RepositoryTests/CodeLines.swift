import Foundation

/// One line of code in a Swift file of the repository, found by a rule that keeps a call or a name out of a tree.
struct CodeLine {
    /// The file's path relative to the folder searched.
    var file: String
    /// 1-based.
    var number: Int
    /// The line without its leading and trailing spaces.
    var code: String

    var description: String { "\(file):\(number): \(code)" }

    /// Every line of the Swift files under `folder` that contains one of `fragments`, comment lines skipped.
    static func containing(_ fragments: [String], under folder: URL) throws -> [CodeLine] {
        var found: [CodeLine] = []
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let url = files?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let relative = String(url.path.dropFirst(folder.path.count + 1))
            let text = try String(contentsOf: url, encoding: .utf8)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//"), fragments.contains(where: { code.contains($0) }) else { continue }
                found.append(CodeLine(file: relative, number: index + 1, code: code))
            }
        }
        return found
    }
}
