import ArgumentParser
import Foundation
import NLUKit

/// `nlu-bench entities`: the tag latency of a trained intents model's entity extraction (slot tagger,
/// dictionaries, regexes) and of a whole prediction (intent + entities), per utterance, over the test
/// utterances; prints JSON (benchmarks/entities.py puts it next to python-crfsuite's tagging time).
struct EntitiesBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "entities",
        abstract: "Per-utterance entity tagging latency of a trained intents model; prints JSON.")

    @Option(name: .shortAndLong, help: "The intents model (made by `nlu intents train`).")
    var model: String

    @Option(parsing: .upToNextOption, help: "Test files (any importable format).")
    var test: [String]

    @Option(help: "Repetitions of the latency pass over the test utterances.") var latencyPasses: Int = 3

    func run() throws {
        guard (1...100).contains(latencyPasses) else { throw ValidationError("--latency-passes must be 1 to 100, got \(latencyPasses)") }
        let classifier = try IntentClassifier.loadWithSentenceFeatures(from: URL(fileURLWithPath: model))
        guard let extractor = classifier.entityExtractor, let tagger = extractor.tagger else {
            throw ValidationError("\(model) has no slot tagger (trained with --no-entities, or without annotations)")
        }
        let testSet = try IntentImporter.importDataset(from: test.map { URL(fileURLWithPath: $0) }).dataset
        let utterances = testSet.intents.flatMap { $0.utterances.map(\.text) }
        guard !utterances.isEmpty else { throw ValidationError("the test files hold no utterance") }
        let clock = ContinuousClock()
        func latencies(_ body: (String) -> Int) -> [Double] {
            var result: [Double] = []
            var found = 0
            for _ in 0..<latencyPasses {
                for text in utterances {
                    let begin = clock.now
                    found &+= body(text)
                    result.append((clock.now - begin).seconds)
                }
            }
            withExtendedLifetime(found) {}
            return result.sorted()
        }
        let tagging = latencies { tagger.entities(in: $0).count }
        let extraction = latencies { extractor.entities(in: $0).count }
        let prediction = latencies { classifier.predict($0, top: 1).entities.count }
        // Where the tagging time goes: each part's median over the same passes.
        var partTimes: [SlotTagger.Part: [Double]] = [:]
        for _ in 0..<latencyPasses {
            for text in utterances {
                for (part, seconds) in tagger.partSeconds(text) { partTimes[part, default: []].append(seconds) }
            }
        }
        func p50(_ values: [Double]) -> Double { values[values.count / 2] * 1e6 }
        func p99(_ values: [Double]) -> Double { values[min(values.count - 1, values.count * 99 / 100)] * 1e6 }
        let result: [String: Any] = [
            "testUtterances": utterances.count,
            "tagLatencyP50Microseconds": p50(tagging), "tagLatencyP99Microseconds": p99(tagging),
            "entitiesLatencyP50Microseconds": p50(extraction), "entitiesLatencyP99Microseconds": p99(extraction),
            "predictLatencyP50Microseconds": p50(prediction), "predictLatencyP99Microseconds": p99(prediction),
            "tagLabels": tagger.crf.labelCount, "tagStateFeatures": tagger.crf.stateFeatureCount,
            "tagAttributes": tagger.crf.attributes.count, "tagKind": tagger.kind.rawValue,
            "tagPartsP50Microseconds": Dictionary(uniqueKeysWithValues: partTimes.map { ($0.key.rawValue, p50($0.value.sorted())) }),
        ]
        let data = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    }
}
