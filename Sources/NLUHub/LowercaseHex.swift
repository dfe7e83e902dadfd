/// Names made of lowercase hex digits, as the Hub writes them: commit hashes (40 digits), LFS blob
/// names (a SHA-256, 64 digits), NLUKit's older model fingerprints (16 digits).
enum LowercaseHex {
    /// Whether `text` is exactly `count` digits `0-9a-f`.
    static func matches(_ text: String, count: Int) -> Bool {
        text.utf8.count == count && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
