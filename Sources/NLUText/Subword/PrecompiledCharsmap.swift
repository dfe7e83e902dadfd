import Foundation

/// SentencePiece's compiled normalization rules (`precompiled_charsmap` of a model's
/// `normalizer_spec`, the `Precompiled` normalizer of a `tokenizer.json`): a Darts double-array
/// trie over UTF-8 byte strings whose values point into a blob of NUL-terminated replacements.
/// Applied as Hugging Face `tokenizers` applies it: per extended grapheme cluster, the whole
/// cluster (when shorter than 6 bytes) is looked up first, else each of its scalars; the first
/// (shortest) prefix the trie knows gives the replacement.
///
///     let charsmap = try PrecompiledCharsmap(data: Data(base64Encoded: field)!)
///     charsmap.replacement(for: Array("ｈ".utf8))   // "h"
public struct PrecompiledCharsmap: Sendable {
    private let trie: [UInt32]
    private let normalized: [UInt8]

    /// Parses `[trie size in bytes: u32 LE][trie: u32 LE units][replacements]`.
    /// - Throws: ``BertTokenizerError/invalidFile(file:detail:)`` when the sizes do not fit.
    public init(data: Data, source: String = "tokenizer.json") throws {
        let bytes = [UInt8](data)
        func fail(_ detail: String) -> Error {
            BertTokenizerError.invalidFile(file: source, detail: "normalizer.precompiled_charsmap: \(detail)")
        }
        guard bytes.count >= 4 else { throw fail("\(bytes.count) bytes, expected at least 4") }
        let trieSize = Int(UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24)
        guard trieSize % 4 == 0, trieSize >= 4, trieSize <= bytes.count - 4 else {
            throw fail("trie size \(trieSize) does not fit in \(bytes.count - 4) bytes")
        }
        trie = stride(from: 4, to: 4 + trieSize, by: 4).map { offset in
            UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
        }
        normalized = Array(bytes[(4 + trieSize)...])
        guard String(bytes: normalized, encoding: .utf8) != nil else {
            throw fail("the replacement strings are not UTF-8")
        }
    }

    /// The values of every prefix of `key` the trie holds, shortest first (Darts'
    /// `commonPrefixSearch`; stops at a NUL byte). A malformed trie yields no match rather than a crash.
    func prefixValues(_ key: some Sequence<UInt8>) -> [Int] {
        var results: [Int] = []
        guard let root = trie.first else { return results }
        var position = Self.offset(root)
        for byte in key {
            if byte == 0 { break }
            position ^= Int(byte)
            guard position < trie.count else { return results }
            let unit = trie[position]
            guard unit & (1 << 31 | 0xFF) == UInt32(byte) else { return results }
            position ^= Self.offset(unit)
            if (unit >> 8) & 1 == 1 {
                guard position < trie.count else { return results }
                results.append(Int(trie[position] & ((1 << 31) - 1)))
            }
        }
        return results
    }

    @inline(__always)
    static func offset(_ unit: UInt32) -> Int {
        Int((unit >> 10) << ((unit & (1 << 9)) >> 6))
    }

    /// The replacement of the first prefix of `key` the trie knows, or nil.
    public func replacement(for key: [UInt8]) -> String? {
        guard let index = prefixValues(key).first, index <= normalized.count else { return nil }
        var end = index
        while end < normalized.count && normalized[end] != 0 { end += 1 }
        return String(decoding: normalized[index..<end], as: UTF8.self)
    }

    /// Normalizes `text` with its alignments, as `tokenizers`' `Precompiled::normalize`.
    func normalize(_ text: inout AlignedText) {
        var changes: [(scalar: Unicode.Scalar, change: Int)] = []
        changes.reserveCapacity(text.scalars.count)
        var modified = false
        // Hugging Face's replace(): new scalars replace the old ones one for one; extra new ones
        // count as insertions, and when fewer come back, the last one absorbs the removals.
        func replace(oldCount: Int, with new: String) {
            let added = Array(new.unicodeScalars)
            changes += added.map { (scalar: $0, change: 0) }
            let difference = added.count - oldCount
            if difference > 0 {
                for index in (changes.count - difference)..<changes.count { changes[index].change = 1 }
            } else if difference < 0, !changes.isEmpty {
                changes[changes.count - 1].change += difference
            }
        }
        for cluster in text.string {
            let scalars = Array(cluster.unicodeScalars)
            let utf8 = Array(String(cluster).utf8)
            if utf8.count < 6, let new = replacement(for: utf8) {
                modified = true
                replace(oldCount: scalars.count, with: new)
                continue
            }
            for scalar in scalars {
                if let new = replacement(for: Array(String(scalar).utf8)) {
                    modified = true
                    replace(oldCount: 1, with: new)
                } else {
                    changes.append((scalar: scalar, change: 0))
                }
            }
        }
        if modified { text.transform(range: 0..<text.scalars.count, with: changes) }
    }
}
