// The driver of scripts/compare-word-tokenizers.sh.
import Foundation

// Old (grapheme-cluster) tokenizer against the new (UAX #29, NLUKit rules) one on every line of a corpus:
// tokens' texts, kinds and scalar ranges must be identical.
let path = CommandLine.arguments[1]
let text = try String(contentsOfFile: path, encoding: .utf8)
var lines = 0, differing = 0, tokens = 0
var shown = 0
for line in text.split(separator: "\n") {
    let s = String(line)
    lines += 1
    let old = OldWordTokenizer().tokens(in: s).map { (String($0.text), "\($0.kind)", s.scalarOffsets(of: $0.range)) }
    let new = WordTokenizer().tokens(in: s).map { (String($0.text), "\($0.kind)", s.scalarOffsets(of: $0.range)) }
    tokens += old.count
    let same = old.count == new.count && zip(old, new).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 && $0.2 == $1.2 }
    if !same {
        differing += 1
        if shown < 40 {
            shown += 1
            print("LINE: \(s.prefix(200))")
            print("  old: \(old.map { "\($0.0)/\($0.1)" }.joined(separator: " ").prefix(400))")
            print("  new: \(new.map { "\($0.0)/\($0.1)" }.joined(separator: " ").prefix(400))")
        }
    }
}
print("\(lines) lines, \(tokens) old tokens, \(differing) lines differ")
// Speed: interleaved rounds, best of each.
let allLines = text.split(separator: "\n").map(String.init)
var best = [Duration.seconds(1000), Duration.seconds(1000)]
for _ in 0..<5 {
    var clock = ContinuousClock.now
    var count = 0
    for line in allLines { count += OldWordTokenizer().tokens(in: line).count }
    best[0] = min(best[0], ContinuousClock.now - clock)
    clock = ContinuousClock.now
    for line in allLines { count += WordTokenizer().tokens(in: line).count }
    best[1] = min(best[1], ContinuousClock.now - clock)
}
print("best of 5: old \(best[0]), new \(best[1])")
