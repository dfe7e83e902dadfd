import Foundation

/// The official SQuAD v1.1 / v2.0 metrics: exact match and token F1 after normalization
/// (lower-case, drop ASCII punctuation and the articles a/an/the, collapse whitespace), the best
/// over the gold answers; an unanswerable question's only gold answer is "".
///
///     SQuADMetrics.exactMatch(prediction: "The Fox!", gold: ["fox"])   // 1
///     SQuADMetrics.f1(prediction: "brown fox", gold: ["quick brown fox"])  // 0.8
public enum SQuADMetrics {
    private static let punctuation = Set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~".unicodeScalars)

    /// The official `normalize_answer`.
    public static func normalize(_ text: String) -> String {
        let lowered = text.lowercased().unicodeScalars.filter { !punctuation.contains($0) }
        // remove_articles: whole \w runs "a", "an", "the" become a space.
        var output = String.UnicodeScalarView()
        var run = String.UnicodeScalarView()
        func flushRun() {
            let word = String(run)
            if word == "a" || word == "an" || word == "the" { output.append(" ") } else { output.append(contentsOf: run) }
            run = String.UnicodeScalarView()
        }
        for scalar in lowered {
            if isWordScalar(scalar) {
                run.append(scalar)
            } else {
                flushRun()
                output.append(scalar)
            }
        }
        flushRun()
        return tokens(String(output)).joined(separator: " ")
    }

    // Python's \w in Unicode mode: letters, digits and numerics, and the underscore.
    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    // Python's str.split(): runs of whitespace separate.
    private static func tokens(_ text: String) -> [String] {
        text.unicodeScalars.split(whereSeparator: { $0.properties.isWhitespace }).map { String(String.UnicodeScalarView($0)) }
    }

    /// 1 when the normalized prediction equals a normalized gold answer, else 0.
    public static func exactMatch(prediction: String, gold: [String]) -> Double {
        let golds = effectiveGold(gold)
        let predicted = normalize(prediction)
        return golds.contains { normalize($0) == predicted } ? 1 : 0
    }

    /// The best token F1 of the prediction against the gold answers.
    public static func f1(prediction: String, gold: [String]) -> Double {
        effectiveGold(gold).map { f1(prediction, $0) }.max() ?? 0
    }

    // Gold answers that normalize to nothing are dropped; none left means "no answer" is right.
    private static func effectiveGold(_ gold: [String]) -> [String] {
        let kept = gold.filter { !normalize($0).isEmpty }
        return kept.isEmpty ? [""] : kept
    }

    private static func f1(_ prediction: String, _ gold: String) -> Double {
        let predicted = tokens(normalize(prediction)), expected = tokens(normalize(gold))
        if predicted.isEmpty || expected.isEmpty { return predicted == expected ? 1 : 0 }
        var counts: [String: Int] = [:]
        for token in expected { counts[token, default: 0] += 1 }
        var same = 0
        for token in predicted where counts[token, default: 0] > 0 {
            counts[token, default: 0] -= 1
            same += 1
        }
        if same == 0 { return 0 }
        let precision = Double(same) / Double(predicted.count), recall = Double(same) / Double(expected.count)
        return 2 * precision * recall / (precision + recall)
    }
}
