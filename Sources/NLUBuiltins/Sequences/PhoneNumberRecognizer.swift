/// Finds phone numbers in international and national formats: "+1 (425) 555-0199", "425-555-0199",
/// "(541) 754-3010", "+44 20 7946 0958", "020 7946 0958": groups of digits joined by single spaces,
/// hyphens, dots or parentheses, 7 to 15 digits in all, shaped like a number a person dials.
struct PhoneNumberRecognizer: EntityRecognizer {
    var produces: Set<BuiltinEntityType> { [.phonenumber] }

    func recognize(_ text: TokenizedText, context: RecognitionContext, into matches: inout [EntityMatch]) {
        var index = 0
        while index < text.count {
            guard let found = phone(in: text, at: index) else {
                index += 1
                continue
            }
            var match = EntityMatch(type: .phonenumber, tokens: text, first: index, last: found.last,
                                    resolution: .value(text.text(from: index, through: found.last)))
            match.yieldsOnEqualSpan = found.shapeOnly && !Self.cueBefore(text, index)
            matches.append(match)
            index = found.last + 1
        }
    }

    /// The phone number starting at `index`: its last token, and whether its shape is all it has — digit groups after
    /// single spaces that also read as a number with space group separators (a first group of one to three digits,
    /// then groups of three, no trunk "0"), with no "+", parentheses, hyphens, dots or extension. Recognizers-Text
    /// reads "1 234 567" as the number 1234567 (its number spec); a phone number needs more than that.
    private func phone(in text: TokenizedText, at index: Int) -> (last: Int, shapeOnly: Bool)? {
        let first = text[index]
        // Not in the middle of a word or number, nor starting at the second group of one.
        if index > 0, first.isDigits, text[index - 1].isDigits, first.start == text[index - 1].end + 1 { return nil }
        if index > 0, !first.spaceBefore {
            let previous = text[index - 1]
            if previous.kind != .symbol || previous.isSymbol("-") || previous.isSymbol(".") || previous.isSymbol("/")
                || previous.isSymbol("+") || previous.isSymbol(",") { return nil }
        }
        var position = index
        var plus = false
        var groups: [Int] = []
        if first.isSymbol("+") {
            plus = true
            position += 1
        } else if first.isSymbol("("), text.token(index + 1)?.isSymbol("+") == true, let code = text.token(index + 2),
                  code.isDigits, code.text.count <= 3, text.token(index + 3)?.isSymbol(")") == true,
                  let next = text.token(index + 4), next.isDigits, next.start <= text[index + 3].end + 1 {
            // "(+1) 650-701-8887": the country code in parentheses.
            plus = true
            groups.append(code.text.count)
            position += 4
        }
        var digitCount = groups.reduce(0, +)
        var parentheses = false
        var separators = Set<String>()
        var last = -1
        while position < text.count, position - index < 16 {
            let token = text[position]
            if token.isDigits {
                if !groups.isEmpty, token.spaceBefore, position > index, text[position - 1].isDigits || text[position - 1].isSymbol(")") {
                    // A single space between groups.
                    guard token.start == text[position - 1].end + 1 else { break }
                    separators.insert(" ")
                }
                groups.append(token.text.count)
                digitCount += token.text.count
                last = position
                position += 1
            } else if token.isSymbol("("), text.token(position + 1)?.isDigits == true,
                      text.token(position + 2)?.isSymbol(")") == true, (text.token(position + 1)?.text.count ?? 0) <= 4 {
                if position > index, token.start > text[position - 1].end + 1 { break }
                parentheses = true
                groups.append(text[position + 1].text.count)
                digitCount += text[position + 1].text.count
                last = position + 2
                position += 3
            } else if (token.isSymbol("-") || token.isSymbol(".")), !token.spaceBefore || token.isSymbol("-"),
                      last == position - 1, let next = text.token(position + 1), next.isDigits || next.isSymbol("("),
                      next.start <= token.end + 1 {
                separators.insert(token.text)
                position += 1
            } else {
                break
            }
        }
        guard last >= 0, digitCount >= 7, digitCount <= 15, let longest = groups.max(), let firstGroup = groups.first else { return nil }
        // Followed by letters or more digits glued on: part of something else.
        if let after = text.token(last + 1), !after.spaceBefore, after.isWord || after.isDigits { return nil }
        if separators.count > 1, separators.contains("."), !(plus && separators == [" ", "."]) { return nil }
        if separators == ["."] && !plus && groups.count < 3 { return nil }
        let leadingZero = text[plus ? index + 1 : index].text.hasPrefix("0")
        if groups.count == 1 {
            // One run of digits: with a "+", a trunk "0", or ten digits and more ("1235554567").
            guard plus || (leadingZero && digitCount >= 8) || digitCount >= 10 else { return nil }
        } else {
            // Not a US social security number (3-2-4) nor a card number (groups of four).
            if groups == [3, 2, 4] && separators == ["-"] { return nil }
            if groups.count >= 3 && groups.allSatisfy({ $0 == 4 }) { return nil }
            guard longest <= 9 || (plus && longest <= 12) else { return nil }
            if groups.count == 2 {
                // Two groups: an area or trunk code and the number ("020 11111111", "0176-12345678").
                guard digitCount >= 8 || plus || parentheses, firstGroup <= 7 else { return nil }
            }
        }
        let extended = extensionEnd(text, after: last)
        let groupedLikeANumber = !plus && !parentheses && !leadingZero && separators.isSubset(of: [" "]) && groups.count >= 2
            && firstGroup <= 3 && groups.dropFirst().allSatisfy { $0 == 3 }
        return (extended ?? last, groupedLikeANumber && extended == nil)
    }

    /// Words that say the digits after them are a phone number ("call 1 234 567", "phone: 123 456 789").
    private static let cues: Set<String> = [
        "phone", "phones", "telephone", "tel", "ph", "mobile", "mob", "cell", "cellphone", "fax", "call", "calling",
        "dial", "ring", "text", "sms", "whatsapp", "hotline", "helpline",
    ]

    /// Whether a cue word is among the three words before `index` ("my phone number is …"); the symbols ":", "#"
    /// and "." between them are passed over ("tel. no.: …"), any other stops the search.
    private static func cueBefore(_ text: TokenizedText, _ index: Int) -> Bool {
        var position = index - 1
        var words = 0
        while position >= 0, words < 3 {
            let token = text[position]
            if let word = text.word(position) {
                if cues.contains(word) { return true }
                words += 1
            } else if !(token.isSymbol(":") || token.isSymbol("#") || token.isSymbol(".")) {
                return false
            }
            position -= 1
        }
        return false
    }

    /// "… ext 897", "… ext. 12", "… extension 4", "… x 55": an extension after the number; its last token.
    private func extensionEnd(_ text: TokenizedText, after last: Int) -> Int? {
        guard let word = text.word(last + 1), word == "ext" || word == "extension" || word == "x" else { return nil }
        var position = last + 2
        if text.token(position)?.isSymbol(".") == true, word == "ext" { position += 1 }
        guard let digits = text.token(position), digits.isDigits, digits.text.count <= 5,
              !(text.token(position + 1).map { !$0.spaceBefore && ($0.isWord || $0.isDigits) } ?? false) else { return nil }
        return position
    }
}
