/// A value from a user, a file or a request (a field's text, a path, a JSON key, a number's
/// digits) as an error message quotes it: at most ``maxScalars`` Unicode scalars, then "…". A
/// message names what was wrong without sending a client's megabyte back to it, or into the logs
/// and dashboards that show error messages.
///
///     "field 'encoding_format': expected \"float\" or \"base64\", got \"\(EchoedValue.prefix(format))\""
///
/// Scalars, not `Character`s: one grapheme cluster can hold any number of combining marks.
public enum EchoedValue {
    /// How much of a value a message quotes.
    public static let maxScalars = 64

    /// `value` itself when it is short, else its first ``maxScalars`` scalars and "…".
    public static func prefix(_ value: some StringProtocol) -> String {
        let scalars = value.unicodeScalars
        guard let cut = scalars.index(scalars.startIndex, offsetBy: maxScalars, limitedBy: scalars.endIndex),
              cut != scalars.endIndex else {
            return String(value)
        }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: scalars[scalars.startIndex..<cut])
        return String(kept) + "…"
    }
}
