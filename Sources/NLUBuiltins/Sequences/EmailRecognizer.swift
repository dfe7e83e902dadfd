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
                                       resolution: .value(String(scalars: scalars[start..<end]).lowercased())))
            lastEnd = end - 1
        }
        recognizeSpoken(text, into: &matches)
    }

    /// Addresses said aloud, as Duckling reads them: "alice at example.io", "asdf dot k@fb dot com" — "at" for
    /// "@" (with a known top-level domain) and " dot " for "." in the local part or the domain.
    private func recognizeSpoken(_ text: TokenizedText, into matches: inout [EntityMatch]) {
        for at in 0..<text.count {
            let token = text[at]
            let spokenAt = token.isWord && token.text == "at" && token.spaceBefore && (text.token(at + 1)?.spaceBefore ?? false)
            guard spokenAt || token.isSymbol("@"), at > 0, at + 1 < text.count else { continue }
            guard let local = spokenRuns(text, from: at - 1, forward: false, glued: !spokenAt),
                  let domain = spokenRuns(text, from: at + 1, forward: true, glued: !spokenAt),
                  spokenAt || local.spoken || domain.spoken else { continue }
            let localPart = local.labels.joined(separator: "."), domainPart = domain.labels.joined(separator: ".")
            let domainScalars = Array(domainPart.unicodeScalars)
            guard localPart.unicodeScalars.allSatisfy(Self.isLocal), !localPart.hasPrefix("."), !localPart.hasSuffix("."),
                  DomainScanner.domainEnd(domainScalars, from: 0, requireKnownTLD: spokenAt) == domainScalars.count else { continue }
            matches.append(EntityMatch(type: .email, start: text[local.edge].start, end: text[domain.edge].end,
                                       resolution: .value((localPart + "@" + domainPart).lowercased())))
        }
    }

    /// The runs of glued tokens going away from "at"/"@" from token `index`, joined by the word "dot": their
    /// texts (nearest last when going backwards is undone), the farthest token, and whether a "dot" was said.
    /// The first run must touch the "@" when `glued`; at most 16 runs of at most 32 tokens (linear scan).
    private func spokenRuns(_ text: TokenizedText, from index: Int, forward: Bool, glued: Bool) -> (labels: [String], edge: Int, spoken: Bool)? {
        let step = forward ? 1 : -1
        var labels: [String] = []
        var position = index
        var edge = index
        var spoken = false
        while true {
            // One run: tokens with no space between them.
            var run: [String] = []
            var runEdge = position
            var cursor = position
            while let token = text.token(cursor), !token.isWord || token.text != "at" || !run.isEmpty,
                  token.isWord || token.isDigits || (token.kind == .symbol && token.text.unicodeScalars.allSatisfy(Self.isLocal)),
                  run.count < 32 {
                let joinedToPrevious = run.isEmpty || (forward ? !token.spaceBefore : !text[cursor - step].spaceBefore)
                guard joinedToPrevious else { break }
                run.append(text.text(from: cursor, through: cursor))
                runEdge = cursor
                cursor += step
            }
            // A sentence's full stop after the domain is not part of it.
            while run.count > 1, Self.isDot(run.last) {
                run.removeLast()
                runEdge -= step
            }
            if run.isEmpty || Self.isDot(run.last) { break }
            if labels.isEmpty, glued {
                let touching = forward ? !text[position].spaceBefore : !text[position + 1].spaceBefore
                guard touching else { return nil }
            }
            labels.append((forward ? run : run.reversed()).joined())
            edge = runEdge
            // " dot " and another run.
            guard labels.count < 16, let dot = text.token(runEdge + step), dot.isWord, dot.text == "dot",
                  text.token(runEdge + 2 * step) != nil else { break }
            position = runEdge + 2 * step
            spoken = true
        }
        guard !labels.isEmpty else { return nil }
        return (forward ? labels : labels.reversed(), edge, spoken)
    }

    /// Whether a run's token is ".", compared by bytes: `==` compares canonical forms, and a word under 10,000
    /// Hebrew points took Swift time quadratic in the marks to tell from ".".
    private static func isDot(_ token: String?) -> Bool {
        token.map { $0.utf8.elementsEqual(".".utf8) } ?? false
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
        "sa", "ms", "si", "am", "pm", "academy", "aws", "website", "tech", "store", "cloud", "news", "blog",
    ]

    static let longestKnownTopLevelDomain = knownTopLevelDomains.map(\.unicodeScalars.count).max() ?? 0

    /// Letters and digits a domain label is made of. Chinese and Japanese letters are not: a domain written in
    /// unspaced text ends at the first of them ("官网是microsoft.com哦"), and "百度.com" is no domain.
    static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        TokenizedText.isDigit(scalar) || (TokenizedText.isLetter(scalar) && !TokenizedText.isUnspacedLetter(scalar))
    }

    /// The end (exclusive) of a domain starting at `from`: labels of letters, digits and inner hyphens
    /// separated by dots, at least two labels, the last of two letters or more (a known one when asked).
    static func domainEnd(_ scalars: [Unicode.Scalar], from: Int, requireKnownTLD: Bool) -> Int? {
        scanDomain(scalars, from: from, requireKnownTLD: requireKnownTLD).end
    }

    /// ``domainEnd(_:from:requireKnownTLD:)`` and where the scan stopped. A scan from a later start
    /// before `stop` reads the same labels after its first one, so it fails too when this one failed
    /// (and a known-TLD scan fails wherever a plain one does): callers skip those starts instead of
    /// rescanning a long run once per token.
    static func scanDomain(_ scalars: [Unicode.Scalar], from: Int, requireKnownTLD: Bool) -> (end: Int?, stop: Int) {
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
        guard labels >= 2, let tld = lastLabel, tld.count >= 2, scalars[tld].allSatisfy(TokenizedText.isLetter) else {
            return (nil, position)
        }
        if requireKnownTLD {
            // Longer labels are no known domain; hashing one of 100,000 letters that are combining marks (Hebrew
            // points) took Swift a minute.
            guard tld.count <= longestKnownTopLevelDomain else { return (nil, position) }
            let name = String(scalars: scalars[tld]).lowercased()
            guard knownTopLevelDomains.contains(name) else { return (nil, position) }
        }
        return (tld.upperBound, position)
    }

    /// The end of the run of letters, digits and hyphens at `position`, and whether a dot and
    /// another character follow it (else no domain can start anywhere in the run).
    static func run(_ scalars: [Unicode.Scalar], _ position: Int) -> (end: Int, couldStartDomain: Bool) {
        var index = position
        while index < scalars.count, isAlphanumeric(scalars[index]) || scalars[index] == "-" { index += 1 }
        return (index, index + 1 < scalars.count && scalars[index] == ".")
    }
}
