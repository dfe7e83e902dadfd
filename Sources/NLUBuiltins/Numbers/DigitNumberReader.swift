/// Reads the numbers every language writes alike: a run of ASCII digits standing alone ("3", "2026"), optionally
/// after a minus sign. It is the number reader of a recognizer without a language (``BuiltinRecognizer``
/// with `language: nil`, used for a dataset in a language the built-ins do not read): digits glued to a "."
/// or "," and more digits ("1.500", "3,5") are left alone, since whether the mark is decimal or groups
/// thousands depends on the language, and a wrong value is worse than none.
final class DigitNumberReader: NumberReader {
    let text: TokenizedText

    init(_ text: TokenizedText) {
        self.text = text
    }

    func parse(at index: Int) -> NumberMatch? {
        guard let token = text.token(index) else { return nil }
        var start = index
        if token.isSymbol("-") || token.isSymbol("\u{2212}") {
            guard index == 0 || token.spaceBefore, let next = text.token(index + 1), next.isDigits, !next.spaceBefore else { return nil }
            start = index + 1
        }
        guard text[start].isDigits, !separated(start) else { return nil }
        let value = NumberValue(digits: Substring(text[start].text))
        return NumberMatch(value: start == index ? value : -value, firstToken: index, endToken: start + 1, kind: .cardinal,
                           spelled: false)
    }

    /// Whether the digits at `index` are one part of a number written with a mark between digits ("1.500", "3,5").
    private func separated(_ index: Int) -> Bool {
        func mark(_ token: Token?) -> Bool { token.map { $0.isSymbol(".") || $0.isSymbol(",") } ?? false }
        if mark(text.token(index + 1)), !text[index + 1].spaceBefore, let after = text.token(index + 2), after.isDigits,
           !after.spaceBefore { return true }
        if index >= 2, mark(text.token(index - 1)), !text[index].spaceBefore, !text[index - 1].spaceBefore,
           text[index - 2].isDigits { return true }
        return false
    }
}
