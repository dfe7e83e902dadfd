import Foundation
import NLUCore

/// Deterministic mutations of valid inputs for the fuzz tests of every reader: bytes flipped,
/// hostile tokens inserted (huge and non-finite numbers, deep brackets, YAML aliases, invalid
/// UTF-8 and surrogates, NULs, BOMs), ranges cut or repeated, truncation, numbers made huge.
///
/// To fuzz a new reader: take a valid input, and for each of ``FuzzCases/count`` mutations write it
/// where the reader looks and call the reader; ``FuzzCases/check(_:naming:)`` asserts the rules.
///
///     var mutator = Mutator(seed: "tokenizer.json")
///     for _ in 0..<FuzzCases.count(default: 200) {
///         try Data(mutator.mutate(original)).write(to: url)
///         if let problem = FuzzCases.check({ _ = try Reader(contentsOf: url) }, naming: url.lastPathComponent) { Issue.record(problem) }
///     }
public struct Mutator {
    /// Text that readers meet in hostile files.
    public static let tokens = ["9223372036854775807", "-9223372036854775808", "18446744073709551616", "-1", "0", "1e400",
                                "-1e309", "1e30", "4.5", "NaN", "Infinity", "null", "true", "\"\"", "[[[[[[[[", "{{{{",
                                "]]]]", "*a", "&a", "\"\\ud800\"", "\u{0}", "\n  - ", "\"", ",", ":", "]", "}", "[", "\r\n",
                                "\u{FEFF}", "\\", "%", "\u{202E}", String(repeating: "a", count: 300)]

    private var generator: SplitMix64

    /// `seed`, mixed with ``FuzzCases/seedOffset`` (0 unless `NLUKIT_FUZZ_SEED` asks for other cases).
    public init(seed: UInt64) { generator = SplitMix64(seed: seed ^ FuzzCases.seedOffset) }

    /// A seed derived from `name` (a file or reader name), so each reader's sequence is stable.
    public init(seed name: String) {
        self.init(seed: name.utf8.reduce(1469598103934665603) { ($0 ^ UInt64($1)) &* 1099511628211 })
    }

    public mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &generator) }

    /// Values that a structural mutation puts in place of a field.
    public static var hostileValues: [Any] { [Int.max, Int.min, -1, 0, 4.5, 1e30, -1e30, NSNull(), "", [Any](), [String: Any](),
                                              [Int.max, Int.max], "\u{0}", String(repeating: "x", count: 1000), true] }

    /// For JSON inputs: half the time a byte-level ``mutate(_:)``, half the time a structural one —
    /// one field (at any depth) replaced by a hostile value, or removed — so that readers meet
    /// well-formed documents with wrong values, not only broken syntax.
    public mutating func mutateJSON(_ bytes: [UInt8]) -> [UInt8] {
        guard int(0...1) == 1, let root = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) else {
            return mutate(bytes)
        }
        var paths: [[Any]] = []
        func collect(_ value: Any, _ path: [Any]) {
            if !path.isEmpty { paths.append(path) }
            if let object = value as? [String: Any] {
                for key in object.keys.sorted() { collect(object[key]!, path + [key]) }
            } else if let array = value as? [Any] {
                // Long arrays (vocabularies): a few positions are enough.
                for index in Set([0, 1, array.count / 2, array.count - 1]) where array.indices.contains(index) {
                    collect(array[index], path + [index])
                }
            }
        }
        collect(root, [])
        guard let path = paths.randomElement(using: &generator) else { return mutate(bytes) }
        let remove = int(0...5) == 0
        let replacement = Self.hostileValues.randomElement(using: &generator)!
        func apply(_ value: Any, _ rest: ArraySlice<Any>) -> Any? {
            guard let first = rest.first else { return remove ? nil : replacement }
            if var object = value as? [String: Any], let key = first as? String, let child = object[key] {
                object[key] = apply(child, rest.dropFirst())
                return object
            }
            if var array = value as? [Any], let index = first as? Int, array.indices.contains(index) {
                if let next = apply(array[index], rest.dropFirst()) { array[index] = next } else { array.remove(at: index) }
                return array
            }
            return value
        }
        guard let mutated = apply(root, path[...]),
              let data = try? JSONSerialization.data(withJSONObject: mutated, options: [.fragmentsAllowed]) else { return mutate(bytes) }
        return Array(data)
    }

    /// `bytes` with one to three random mutations.
    public mutating func mutate(_ bytes: [UInt8]) -> [UInt8] {
        var result = bytes
        for _ in 0..<int(1...3) {
            let position = result.isEmpty ? 0 : int(0...(result.count - 1))
            switch int(0...6) {
            case 0 where !result.isEmpty: result[position] = UInt8.random(in: 0...255, using: &generator)
            case 1: result.insert(contentsOf: Array(Self.tokens.randomElement(using: &generator)!.utf8), at: position)
            case 2 where !result.isEmpty: result.removeSubrange(position..<min(result.count, position + int(1...64)))
            case 3 where !result.isEmpty:
                let chunk = result[position..<min(result.count, position + int(1...256))]
                result.insert(contentsOf: chunk, at: position)
            case 4: result = Array(result.prefix(position))
            case 5:
                // A byte that is never valid UTF-8.
                result.insert(0xFF, at: position)
            default:
                // A number in the text becomes a huge, negative, fractional or non-finite one.
                if let digit = result[position...].firstIndex(where: { (48...57).contains($0) }) {
                    let replacement = ["9223372036854775807", "-1", "4.5", "1e309", "-0"].randomElement(using: &generator)!
                    result.replaceSubrange(digit...digit, with: Array(replacement.utf8))
                }
            }
        }
        return result
    }
}

/// The rules every fuzz case checks, and how many cases to run.
public enum FuzzCases {
    /// Cases per input: `default` in the unit suite, `NLUKIT_FUZZ_CASES` for longer runs (scripts/fuzz.sh).
    public static func count(default value: Int) -> Int {
        Int(ProcessInfo.processInfo.environment["NLUKIT_FUZZ_CASES"] ?? "") ?? value
    }

    /// Mixed into every ``Mutator``'s seed: 0 (the unit suite's stable cases) unless `NLUKIT_FUZZ_SEED`
    /// names another run, so that a longer run (`scripts/fuzz.sh CASES SEED`) meets cases no earlier run met.
    public static let seedOffset: UInt64 = {
        guard let text = ProcessInfo.processInfo.environment["NLUKIT_FUZZ_SEED"], let seed = UInt64(text), seed != 0 else { return 0 }
        var generator = SplitMix64(seed: seed)
        return generator.next()
    }()

    /// Text that must never reach a user: Foundation's and Swift's raw error descriptions.
    public static let rawErrorText = ["NSCocoaErrorDomain", "Error Domain=", "error 256", "error 512",
                                      "numberIsNotRepresentableInSwift", "EncodingError", "DecodingError",
                                      "quotation(message", "Swift.", "Foundation.",
                                      "The operation could not be completed",
                                      // Foundation's JSON parser, which gives no position for these (JSONSyntaxProblem does):
                                      "Unexpected end of file", "low-surrogate", "Unable to convert hex escape",
                                      "Invalid hex encoded sequence", "is not representable in Swift"]

    /// Runs `body` (a crash or a hang fails the whole test process, which is the point). Returns
    /// a description of the problem when it threw an error whose message does not name `input`
    /// or holds raw Foundation/Swift text; nil when it succeeded or failed well.
    public static func check(_ body: () throws -> Void, naming input: String) -> String? {
        do {
            try body()
            return nil
        } catch {
            return problem(with: error, naming: input)
        }
    }

    /// The async form of ``check(_:naming:)``.
    public static func check(_ body: () async throws -> Void, naming input: String) async -> String? {
        do {
            try await body()
            return nil
        } catch {
            return problem(with: error, naming: input)
        }
    }

    /// The message of `error` as a user sees it.
    public static func message(of error: Error) -> String {
        (error as? LocalizedError)?.errorDescription ?? "\(error)"
    }

    static func problem(with error: Error, naming input: String) -> String? {
        let message = message(of: error)
        if !message.contains(input) { return "the error does not name \(input): \(message)" }
        if let raw = rawErrorText.first(where: { message.contains($0) }) { return "raw '\(raw)' text: \(message)" }
        return nil
    }
}
