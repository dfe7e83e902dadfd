import Foundation
import Testing

/// Every file a user, a model or a request supplies is read through `InputFile` (or `InputLines`), which refuses
/// an endless or oversized input with an error naming it. Foundation's whole-file readers have no limit: a
/// `config.json` linked to `/dev/zero` grows memory until the process dies, a FIFO hangs it. This rule keeps
/// them out of `Sources`, so a new reader cannot bring the unbounded read back unnoticed.
@Suite struct BoundedReadsTests {
    static let sources = ModuleMapTests.root.appendingPathComponent("Sources")

    /// Foundation calls that read a whole file without a size limit.
    static let unboundedReaders = ["FileManager.default.contents(atPath", "Data(contentsOf", "String(contentsOf"]

    /// The reads allowed, each for its reason: the kernel's own pseudo-files, and the Core ML reader, which
    /// checks a regular file's size against protobuf's 2 GiB before it maps it (streams go through InputFile).
    static let allowed: [(file: String, fragment: String)] = [
        ("NLUCore/Kernels/BLASCoreCheck.swift", "\"/proc/cpuinfo\""),
        ("NLUBench/QABenchmark.swift", "\"/proc/self/status\""),
        ("NLUCoreML/Specification/SpecificationReader.swift", "options: .mappedIfSafe"),
    ]

    /// `file:line: code` for each unbounded read in `Sources` outside ``allowed``, skipping comments.
    static func unboundedReads() throws -> [String] {
        try CodeLine.containing(unboundedReaders, under: sources)
            .filter { line in !allowed.contains { line.file == $0.file && line.code.contains($0.fragment) } }
            .map(\.description)
    }

    @Test func sourcesReadFilesOnlyThroughTheBoundedReaders() throws {
        let found = try Self.unboundedReads()
        #expect(found.isEmpty, "read these through InputFile.read / readModelFile (or add them to `allowed` with a reason):\n\(found.joined(separator: "\n"))")
    }

    /// The rule would pass on an empty tree: it must see the allowed reads it skips.
    @Test func theRuleSeesTheSources() throws {
        var seen = 0
        for entry in Self.allowed {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(entry.file), encoding: .utf8)
            if text.contains(entry.fragment) { seen += 1 }
        }
        #expect(seen == Self.allowed.count, "an allowed read moved or went: update `allowed`")
    }
}
