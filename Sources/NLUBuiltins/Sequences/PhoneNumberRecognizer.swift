/// Finds phone numbers in international and national formats: "+1 (425) 555-0199", "425-555-0199",
/// "(541) 754-3010", "+44 20 7946 0958", "020 7946 0958", "0176/12345678": groups of digits joined by single
/// spaces, hyphens, dots, slashes or parentheses, 7 to 15 digits in all, shaped like a number a person dials; in
/// Chinese and Japanese text too, where nothing separates them from the words around ("号码是13604779660或…").
struct PhoneNumberRecognizer: EntityRecognizer {
    var produces: Set<BuiltinEntityType> { [.phonenumber] }

    func recognize(_ text: TokenizedText, context: RecognitionContext, into matches: inout [EntityMatch]) {
        var index = 0
        var previousLast = -1
        while index < text.count {
            guard let found = phone(in: text, at: index, afterPhone: previousLast, language: context.language) else {
                index += 1
                continue
            }
            // As Recognizers-Text writes it: as written, an extension's "X" or "EXT" lowercased.
            var match = EntityMatch(type: .phonenumber, tokens: text, first: index, last: found.last,
                                    resolution: .value(text.text(from: index, through: found.last).lowercased()))
            match.yieldsOnEqualSpan = found.shapeOnly && !Self.cueBefore(text, index, language: context.language)
            matches.append(match)
            previousLast = found.last
            index = found.last + 1
        }
    }

    /// The phone number starting at `index`: its last token, and whether its shape is all it has — digit groups after
    /// single spaces that also read as a number with space group separators (a first group of one to three digits,
    /// then groups of three, no trunk "0"), with no "+", parentheses, hyphens, dots or extension. Recognizers-Text
    /// reads "1 234 567" as the number 1234567 (its number spec); a phone number needs more than that.
    /// `afterPhone` is the last token of the phone number found before, which another may follow after a space or
    /// a comma ("13604779660 13604770960", "021-68812753,021-68808888").
    private func phone(in text: TokenizedText, at index: Int, afterPhone: Int, language: BuiltinLanguage?) -> (last: Int, shapeOnly: Bool)? {
        let first = text[index]
        let listed = afterPhone >= 0 && (index == afterPhone + 1 || (index == afterPhone + 2 && text[index - 1].isSymbol(",")))
        // Not in the middle of a word or number, nor starting at the second group of one.
        if index > 0, first.isDigits, text[index - 1].isDigits, first.start == text[index - 1].end + 1, !listed { return nil }
        // After a Chinese or Japanese word with no space ("号码是+1 541…") as after a space.
        if index > 0, !first.spaceBefore, !text.isUnspacedWord(index - 1) {
            let previous = text[index - 1]
            // Nor glued to an operator, a closing parenthesis or a "#" ("45*31-339243873", "(45)+(31)", "#20020211895").
            if previous.kind != .symbol || previous.isSymbol("-") || previous.isSymbol(".") || previous.isSymbol("/")
                || previous.isSymbol("+") || previous.isSymbol("*") || previous.isSymbol(")") || previous.isSymbol("#")
                || (previous.isSymbol(",") && !listed) { return nil }
        }
        var position = index
        var plus = false
        var groups: [Int] = []
        if first.isSymbol("+") {
            plus = true
            position += 1
        } else if first.isSymbol("("), text.token(index + 1)?.isSymbol("+") == true, let code = text.token(index + 2),
                  code.isDigits, code.text.count <= 3, text.token(index + 3)?.isSymbol(")") == true,
                  let next = text.token(index + 4), next.isDigits || next.isSymbol("("), next.start <= text[index + 3].end + 1 {
            // "(+1) 650-701-8887", "(+31) (12) 3456789": the country code in parentheses.
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
                    // Two long runs are two numbers ("13604779660 13604770960").
                    if let previousGroup = groups.last, previousGroup >= 10, token.text.count >= 10 { break }
                    separators.insert(" ")
                }
                groups.append(token.text.count)
                digitCount += token.text.count
                last = position
                position += 1
            } else if token.isSymbol("("), text.token(position + 1)?.isDigits == true,
                      text.token(position + 2)?.isSymbol(")") == true, let inside = text.token(position + 1),
                      inside.text.count <= 4 || (inside.text.count == 5 && inside.text.hasPrefix("0")) {
                if position > index, token.start > text[position - 1].end + 1 { break }
                parentheses = true
                groups.append(text[position + 1].text.count)
                digitCount += text[position + 1].text.count
                last = position + 2
                position += 3
            } else if (token.isSymbol("-") || token.isSymbol(".") || token.isSymbol("/")), !token.spaceBefore || token.isSymbol("-"),
                      !token.isSymbol("/") || plus || (groups.first ?? 0) >= 3,
                      last >= 0, last == position - 1, let next = text.token(position + 1), next.isDigits || next.isSymbol("("),
                      next.start <= token.end + 1 {
                separators.insert(token.text)
                position += 1
            } else {
                break
            }
        }
        guard last >= 0, digitCount >= 7, digitCount <= 15, let longest = groups.max(), let firstGroup = groups.first else { return nil }
        // A slash joins an area code and its number ("0176/12345678", "+49 176/ 12345678"); short, it is a date.
        if separators.contains("/"), digitCount < 9 { return nil }
        // Followed by letters or more digits glued on: part of something else (an extension glued on is read below).
        if let after = text.token(last + 1), !after.spaceBefore, after.isDigits
            || (after.isWord && !text.isUnspacedWord(last + 1, atStart: true) && extensionEnd(text, after: last) == nil) {
            return nil
        }
        if separators.count > 1, separators.contains("."), !(plus && separators == [" ", "."]) { return nil }
        if separators == ["."] && !plus && groups.count < 3 { return nil }
        let leadingZero = text[plus ? index + 1 : index].text.hasPrefix("0")
        func cued() -> Bool { Self.cueBefore(text, index, language: language) }
        // "00" dials abroad as "+" does ("0044 07456934723", "00 49 17612345678").
        let abroad = plus || first.text.hasPrefix("00")
        if groups.count == 1 {
            // One run of digits: with a "+", a trunk "0", nine digits and more ("652123123", "1235554567"), or fewer
            // after a word that says so ("phone number 12345678", "电话：7629236", not "card number 12345678").
            // An area code whose "(" is missing counts as such a word ("19) 35831647").
            let areaCodeBefore = index >= 2 && text[index - 1].isSymbol(")") && text[index - 2].isDigits && text[index - 2].text.count <= 4
            guard plus || (leadingZero && digitCount >= 8) || digitCount >= 9 || cued() || (digitCount == 8 && areaCodeBefore) else { return nil }
        } else {
            // Not a US social security number (3-2-4) nor a card number (groups of four, which no card starts with "0").
            if groups == [3, 2, 4] && separators == ["-"] { return nil }
            if groups.count >= 3 && groups.allSatisfy({ $0 == 4 }) && !leadingZero { return nil }
            // Nor a date ("16-04-2010", "2010.04.16").
            if (groups == [2, 2, 4] || groups == [4, 2, 2]) && separators.count == 1 && !separators.contains(" ") { return nil }
            // A country code said without "+" before a mobile number ("86 18911111111") is as long as one with it.
            let countryCode = groups.count == 2 && firstGroup <= 3 && !leadingZero
            guard longest <= 9 || ((abroad || countryCode) && longest <= 12) else { return nil }
            if groups.count == 2 {
                // Two groups: an area or trunk code and the number ("020 11111111", "0176-12345678").
                // Seven digits as 3-4 ("223-4567") only after a word that says so.
                guard digitCount >= 8 || plus || parentheses || (groups == [3, 4] && separators == ["-"] && cued()), firstGroup <= 7 else { return nil }
            }
        }
        let extended = extensionEnd(text, after: last)
        let groupedLikeANumber = !plus && !parentheses && !leadingZero && separators.isSubset(of: [" "]) && groups.count >= 2
            && firstGroup <= 3 && groups.dropFirst().allSatisfy { $0 == 3 }
        // Eight or nine digits in one run are as likely a number ("123456789 votes") as a phone number.
        let shortRun = !plus && !leadingZero && groups.count == 1 && digitCount <= 9
        return (extended ?? last, (groupedLikeANumber || shortRun) && extended == nil)
    }

    /// Words that say the digits after them are a phone number ("call 1 234 567", "phone: 123 456 789").
    private static let cues: Set<String> = [
        "phone", "phones", "telephone", "tel", "ph", "mobile", "mob", "cell", "cellphone", "fax", "call", "calling",
        "dial", "ring", "text", "sms", "whatsapp", "hotline", "helpline",
    ]

    /// The same cues in the other languages; Chinese and Japanese ones are found inside the unspaced word before
    /// the number ("我的电话号是").
    private static let languageCues: [BuiltinLanguage: Set<String>] = [
        .french: ["téléphone", "tél", "portable", "mobile", "appelez", "appeler", "fax"],
        .spanish: ["teléfono", "telefono", "móvil", "movil", "celular", "llame", "llamar", "fax"],
        .german: ["telefon", "telefonnummer", "handy", "mobil", "anrufen", "ruf", "fax"],
        .portuguese: ["telefone", "celular", "ligue", "ligar", "fax"],
        .italian: ["telefono", "cellulare", "chiama", "chiamare", "fax"],
        .dutch: ["telefoon", "telefoonnummer", "mobiel", "bel", "bellen", "fax"],
        .chinese: ["电话", "手机", "号码", "传真", "致电", "拨打"],
        .japanese: ["電話", "番号", "携帯", "ファックス"],
    ]

    /// Whether a cue word is among the three words before `index` ("my phone number is …"); the symbols ":" (and
    /// the fullwidth "："), "#" and "." between them are passed over ("tel. no.: …"), any other stops the search.
    private static func cueBefore(_ text: TokenizedText, _ index: Int, language: BuiltinLanguage?) -> Bool {
        let ownCues = language.flatMap { languageCues[$0] } ?? []
        var position = index - 1
        var words = 0
        while position >= 0, words < 3 {
            let token = text[position]
            if let word = text.word(position) {
                if cues.contains(word) || ownCues.contains(word) { return true }
                // Only the last characters of a long unspaced word are looked at, so a cue costs the same anywhere.
                if text.isUnspacedWord(position), ownCues.contains(where: { String(word.suffix(8)).contains($0) }) { return true }
                words += 1
            } else if !(token.isSymbol(":") || token.isSymbol("：") || token.isSymbol("#") || token.isSymbol(".")) {
                return false
            }
            position -= 1
        }
        return false
    }

    /// "… ext 897", "… ext. 12", "… extension 4", "… x 55", "…4036x470", "…1482ext63888": an extension after the
    /// number; its last token.
    private func extensionEnd(_ text: TokenizedText, after last: Int) -> Int? {
        guard let word = text.word(last + 1), word == "ext" || word == "extension" || word == "x" else { return nil }
        var position = last + 2
        // Glued to the number, glued to its digits.
        if !text[last + 1].spaceBefore, text.token(position)?.spaceBefore != false { return nil }
        if text.token(position)?.isSymbol(".") == true, word == "ext" { position += 1 }
        guard let digits = text.token(position), digits.isDigits, digits.text.count <= 5,
              !(text.token(position + 1).map { !$0.spaceBefore && ($0.isWord || $0.isDigits) } ?? false) else { return nil }
        return position
    }
}
