/// Finds URLs: with a scheme ("https://abc.com/path?q=1", "ftp://…"), starting "www.", or a bare domain
/// with a known top-level label ("abc.com"), or "localhost"; a path, query and fragment may follow. The value is
/// the URL lowercased, as Recognizers-Text returns it.
struct URLRecognizer: EntityRecognizer {
    var produces: Set<BuiltinEntityType> { [.url] }

    private static let schemes = ["https://", "http://", "ftp://", "sftp://", "file://"]

    func recognize(_ text: TokenizedText, context: RecognitionContext, into matches: inout [EntityMatch]) {
        let scalars = text.scalars
        var position = 0
        var lastEnd = 0
        // Linear time over long runs of hyphenated tokens ("1-1-1-…", "a-b-c-…"): the run a token starts
        // in, and where failed domain scans stopped, are kept, so the run's other tokens are not rescanned.
        var run = (end: 0, couldStartDomain: false)
        var failedScans = (knownTLD: 0, anyTLD: 0)  // scans from starts before these fail (DomainScanner.scanDomain)
        func domainEnd(from start: Int, requireKnownTLD: Bool) -> Int? {
            guard start >= (requireKnownTLD ? failedScans.knownTLD : failedScans.anyTLD) else { return nil }
            let scan = DomainScanner.scanDomain(scalars, from: start, requireKnownTLD: requireKnownTLD)
            if scan.end == nil {
                failedScans.knownTLD = max(failedScans.knownTLD, scan.stop)
                if !requireKnownTLD { failedScans.anyTLD = max(failedScans.anyTLD, scan.stop) }
            }
            return scan.end
        }
        // A URL starts at a token, or inside a word where Latin letters follow Chinese or Japanese ones ("官网是microsoft.com").
        func starts(of token: Token) -> [Int] {
            // An ASCII word (its text as long in bytes as in scalars) has no such place.
            guard token.kind == .word, token.text.utf8.count != token.end - token.start else { return [token.start] }
            return [token.start] + (token.start + 1..<token.end).filter {
                TokenizedText.isUnspacedLetter(scalars[$0 - 1]) && DomainScanner.isAlphanumeric(scalars[$0])
            }
        }
        for token in text.tokens where token.kind != .symbol && token.end > lastEnd {
            for start in starts(of: token) where start >= lastEnd {
                position = start
                if position >= run.end { run = DomainScanner.run(scalars, position) }
                let first = scalars[position]
                guard run.couldStartDomain || ["h", "f", "s", "w", "l"].contains(where: { Self.lowercases(first, to: $0) })
                else { continue }
                // Not inside a word, an address or a path ("httt://abc.com" is no URL); a scheme may follow a full stop,
                // and a colon after Chinese or Japanese ("详情:https://…").
                if position > 0, DomainScanner.isAlphanumeric(scalars[position - 1]) || scalars[position - 1] == "@"
                    || scalars[position - 1] == "/"
                    || (scalars[position - 1] == ":" && !(position > 1 && TokenizedText.isUnspacedLetter(scalars[position - 2])))
                    || (scalars[position - 1] == "." && !Self.schemes.contains { hasPrefix(scalars, at: position, $0) }) { continue }
                var hostStart = position
                var hasScheme = false
                for scheme in Self.schemes where hasPrefix(scalars, at: position, scheme) {
                    hostStart = position + scheme.unicodeScalars.count
                    hasScheme = true
                    break
                }
                let isWWW = hasPrefix(scalars, at: hostStart, "www.")
                guard var end = domainEnd(from: hostStart, requireKnownTLD: !hasScheme && !isWWW)
                        ?? (hasScheme ? hostEnd(scalars, from: hostStart) : nil) ?? localhostEnd(scalars, from: hostStart) else { continue }
                if end < scalars.count, scalars[end] == "@" { continue }
                // Port, path, query, fragment: up to whitespace, then trailing punctuation is dropped.
                if end < scalars.count, ":/?#".unicodeScalars.contains(scalars[end]) {
                    while end < scalars.count, !scalars[end].properties.isWhitespace, scalars[end] != "\"", scalars[end] != "<", scalars[end] != ">",
                          !Self.endsUnspacedURL(scalars[end]) {
                        end += 1
                    }
                    while end > hostStart, ".,;:!?)]'".unicodeScalars.contains(scalars[end - 1]) { end -= 1 }
                }
                matches.append(EntityMatch(type: .url, start: position, end: end,
                                           resolution: .value(String(scalars: scalars[position..<end]).lowercased())))
                lastEnd = end
            }
        }
    }

    /// Whether `scalar` ends a URL's path in unspaced text: a Chinese or Japanese letter, or CJK or fullwidth
    /// punctuation ("https://luis.ai?action=add以获取…", "…/cv。").
    private static func endsUnspacedURL(_ scalar: Unicode.Scalar) -> Bool {
        TokenizedText.isUnspacedLetter(scalar) || (0x3000...0x303F).contains(scalar.value) || (0xFF00...0xFFEF).contains(scalar.value)
    }

    /// A host after a scheme that is no domain: an IP address ("127.0.0.1") or one name of letters and
    /// digits with a letter ("localhost", "kimchi", "myserver"); not "362" nor a run of hyphenated words.
    private func hostEnd(_ scalars: [Unicode.Scalar], from: Int) -> Int? {
        var end = from
        while end < scalars.count, DomainScanner.isAlphanumeric(scalars[end]) || scalars[end] == "." || scalars[end] == "-" { end += 1 }
        guard end > from else { return nil }
        let host = scalars[from..<end]
        if host.allSatisfy({ TokenizedText.isDigit($0) || $0 == "." }) {
            return host.filter { $0 == "." }.count == 3 ? end : nil
        }
        guard host.allSatisfy(DomainScanner.isAlphanumeric), host.contains(where: TokenizedText.isLetter),
              end == scalars.count || scalars[end] != "." || !(end + 1 < scalars.count && DomainScanner.isAlphanumeric(scalars[end + 1])) else { return nil }
        return end
    }

    /// "localhost", "localhost:8000" with no scheme: the end of "localhost".
    private func localhostEnd(_ scalars: [Unicode.Scalar], from: Int) -> Int? {
        guard hasPrefix(scalars, at: from, "localhost") else { return nil }
        let end = from + 9
        guard end == scalars.count || !DomainScanner.isAlphanumeric(scalars[end]) else { return nil }
        return end
    }

    /// Whether `prefix` (ASCII) is written at `position`, in any case.
    private func hasPrefix(_ scalars: [Unicode.Scalar], at position: Int, _ prefix: String) -> Bool {
        var index = position
        for scalar in prefix.unicodeScalars {
            guard index < scalars.count, Self.lowercases(scalars[index], to: scalar) else { return false }
            index += 1
        }
        return true
    }

    /// Whether `scalar` lower-cases to `ascii`, an ASCII character: ASCII without Unicode's tables (building a
    /// `String` of the mapping for every token was a tenth of the URL recognizer's time on long text, and a third in
    /// Chinese); beyond ASCII only the Kelvin sign lower-cases to ASCII ("k").
    static func lowercases(_ scalar: Unicode.Scalar, to ascii: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 128 { return (value >= 65 && value <= 90 ? value | 0x20 : value) == ascii.value }
        return value == 0x212A && ascii == "k"
    }
}
