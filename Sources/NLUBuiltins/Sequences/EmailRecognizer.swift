/// Finds e-mail addresses ("v-abc@microsoft.com"): a local part, "@", and a domain with a dot and a
/// top-level label of two letters or more. Each "@" is looked at once, so the scan is linear.
struct EmailRecognizer: EntityRecognizer {
    var produces: Set<BuiltinEntityType> { [.email] }

    func recognize(_ text: TokenizedText, context: RecognitionContext, into matches: inout [EntityMatch]) {
        let scalars = text.scalars
        // The local part cannot reach back past the previous "@" or the previous address, so every
        // scalar is looked at a bounded number of times.
        var lastEnd = 0
        for at in scalars.indices where scalars[at] == "@" {
            defer { lastEnd = max(lastEnd, at + 1) }
            guard at >= lastEnd else { continue }
            var start = at
            while start > lastEnd, Self.isLocal(scalars[start - 1]) { start -= 1 }
            while start < at, scalars[start] == "." || scalars[start] == "-" { start += 1 }
            // A dot cannot start the local part or follow another dot ("a..bc@", ".abc@").
            guard start < at, start == 0 || scalars[start - 1] != ".", !hasDoubleDot(scalars, start..<at), let end = DomainScanner.domainEnd(scalars, from: at + 1, requireKnownTLD: false) else { continue }
            matches.append(EntityMatch(type: .email, start: start, end: end,
                                       resolution: .value(String(String.UnicodeScalarView(scalars[start..<end])).lowercased())))
            lastEnd = end - 1
        }
    }

    /// Local parts are ASCII letters, digits and ._%+-' (Recognizers-Text's and most providers' rule).
    static func isLocal(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (DomainScanner.isAlphanumeric(scalar) || "._%+-'".unicodeScalars.contains(scalar))
    }

    private func hasDoubleDot(_ scalars: [Unicode.Scalar], _ range: Range<Int>) -> Bool {
        range.dropFirst().contains { scalars[$0] == "." && scalars[$0 - 1] == "." }
    }
}

/// Reads a domain name ("mail.example.co.uk") forward from a position; shared by e-mail and URL.
enum DomainScanner {
    static let knownTopLevelDomains: Set<String> = [
        "com", "org", "net", "edu", "gov", "mil", "int", "io", "co", "ai", "app", "dev", "info", "biz", "me", "tv",
        "us", "uk", "cn", "de", "fr", "jp", "ru", "br", "in", "it", "es", "nl", "au", "ca", "ch", "se", "no", "fi",
        "dk", "pl", "be", "at", "kr", "mx", "nz", "za", "ie", "hk", "sg", "tw", "ly", "gl", "xyz", "online", "site",
    ]

    /// Whether a dot follows the alphanumeric run at `position` (else no domain can start there).
    static func couldStartDomain(_ scalars: [Unicode.Scalar], _ position: Int) -> Bool {
        var index = position
        while index < scalars.count, isAlphanumeric(scalars[index]) || scalars[index] == "-" { index += 1 }
        return index + 1 < scalars.count && scalars[index] == "."
    }

    static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        TokenizedText.isDigit(scalar) || TokenizedText.isLetter(scalar)
    }

    /// The end (exclusive) of a domain starting at `from`: labels of letters, digits and inner hyphens
    /// separated by dots, at least two labels, the last of two letters or more (a known one when asked).
    static func domainEnd(_ scalars: [Unicode.Scalar], from: Int, requireKnownTLD: Bool) -> Int? {
        var position = from
        var labelStart = from
        var labels = 0
        var lastLabel: Range<Int>?
        while position < scalars.count {
            let scalar = scalars[position]
            if isAlphanumeric(scalar) || (scalar == "-" && position > labelStart) {
                position += 1
            } else if scalar == ".", position > labelStart, position + 1 < scalars.count, isAlphanumeric(scalars[position + 1]) {
                lastLabel = labelStart..<position
                labels += 1
                position += 1
                labelStart = position
            } else {
                break
            }
        }
        if position > labelStart {
            lastLabel = labelStart..<position
            labels += 1
        }
        guard labels >= 2, let tld = lastLabel, tld.count >= 2, scalars[tld].allSatisfy(TokenizedText.isLetter) else { return nil }
        if requireKnownTLD {
            let name = String(String.UnicodeScalarView(scalars[tld])).lowercased()
            guard knownTopLevelDomains.contains(name) else { return nil }
        }
        return tld.upperBound
    }
}
