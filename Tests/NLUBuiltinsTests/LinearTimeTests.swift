import Foundation
import NLUBuiltins
import Testing

/// Extraction is linear in the input: no pattern can make the recognizers backtrack.
@Suite struct LinearTimeTests {
    /// Inputs built to hurt a backtracking matcher: long runs of digits and separators, dotted labels,
    /// "@" signs, number words that never end a number.
    static let adversarialPieces = [
        "1-2-3-4-5-6-7-8-9-", "a.b.c.d.e.f.g.h.", "x@y@z@w@", "one one one one ", "$ $ $ 1,2,3,4,", "+1 (2) (3) 4 5 ",
        "twenty and three and ", "monday tuesday next last ", "12/12/12/12/", "hundred thousand million ",
    ]

    func line(bytes: Int) -> String {
        var text = ""
        var index = 0
        while text.utf8.count < bytes {
            text += Self.adversarialPieces[index % Self.adversarialPieces.count]
            index += 1
        }
        return text
    }

    func seconds(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    @Test func tenTimesTheInputTakesAboutTenTimesTheWork() {
        let recognizer = BuiltinRecognizer()
        // Debug builds are slow; the 1 MB figure is measured in release by benchmarks/builtins.py.
        let small = line(bytes: 10_000), large = line(bytes: 100_000)
        _ = recognizer.entities(in: small)  // warm up
        let smallTime = seconds { _ = recognizer.entities(in: small) }
        let largeTime = seconds { _ = recognizer.entities(in: large) }
        // Linear work gives a ratio near 10; quadratic work would give 100. The bound is generous
        // because the machine is shared, and the absolute bound is for a debug build.
        #expect(largeTime / max(smallTime, 1e-6) < 30, "10 kB: \(smallTime) s, 100 kB: \(largeTime) s")
    }
}
