import Foundation
import NLUTestSupport
import Testing
import NLUCore
@testable import NLUIntents

/// Featurization and training checked against scikit-learn and PyTorch; determinism; save/load.
@Suite struct ClassifierTests {
    struct TFIDFReference: Decodable {
        var corpus: [String]
        var tests: [String]
        var vocabulary: [String]
        var idf: [Float]
        var vectors: [[Float]]
    }

    @Test func tfidfMatchesScikitLearn() throws {
        let reference = try JSONDecoder().decode(TFIDFReference.self, from: Data(contentsOf: fixture("tfidf-reference.json")))
        var options = FeatureOptions()
        options.stemming = false
        options.characterNGrams = nil
        options.minDocumentFrequency = 1
        let featurizer = TextFeaturizer.fit(reference.corpus, options: options)
        #expect(featurizer.terms == reference.vocabulary)
        for (ours, theirs) in zip(featurizer.inverseDocumentFrequency, reference.idf) { #expect(abs(ours - theirs) < 1e-5) }
        for (text, expected) in zip(reference.tests, reference.vectors) {
            let vector = featurizer.vector(for: text).dense(dimension: featurizer.dimension)
            // Float32 against float64: 1e-6 absolute.
            #expect(zip(vector, expected).allSatisfy { abs($0 - $1) < 1e-6 }, "\(text)")
        }
    }

    struct StepReference: Decodable {
        struct Parameters: Decodable { var w0: [Float]; var b0: [Float]; var w1: [Float]; var b1: [Float] }
        var initial: Parameters
        var inputs: [[[Double]]]
        var targets: [Int]
        var classWeights: [Float]
        var learningRate: Float
        var weightDecay: Float
        var losses: [Float]
        var after: Parameters
    }

    @Test func twoTrainingStepsMatchPyTorchAdam() throws {
        let reference = try JSONDecoder().decode(StepReference.self, from: Data(contentsOf: fixture("training-step-reference.json")))
        var options = TrainingOptions()
        options.hiddenSizes = [4]
        options.dropout = 0
        options.learningRate = reference.learningRate
        options.weightDecay = reference.weightDecay
        var trainer = NetworkTrainer(inputDimension: 6, classCount: 3, options: options)
        trainer.setParameters(weights: [reference.initial.w0, reference.initial.w1], biases: [reference.initial.b0, reference.initial.b1])
        let batch = zip(reference.inputs, reference.targets).map { input, target in
            (SparseVector(indices: input[0].map { Int32($0) }, values: input[1].map { Float($0) }), target)
        }
        let losses = trainer.steps(batch, classWeights: reference.classWeights, count: 2)
        // Every feature occurs in the batch, so row-sparse Adam equals PyTorch's dense Adam here.
        for (ours, theirs) in zip(losses, reference.losses) { #expect(abs(ours - theirs) < 1e-5) }
        let (weights, biases) = trainer.parameters
        func close(_ a: [Float], _ b: [Float]) -> Bool { a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) < 1e-5 } }
        #expect(close(weights[0], reference.after.w0))
        #expect(close(weights[1], reference.after.w1))
        #expect(close(biases[0], reference.after.b0))
        #expect(close(biases[1], reference.after.b1))
    }

    static func smallDataset() throws -> IntentDataset {
        try IntentImporter.importDataset(from: fixture("../../../Samples/intents/car-dashboard.json")).dataset
    }

    static func quickOptions(seed: UInt64) -> TrainingOptions {
        var options = TrainingOptions()
        options.epochs = 12
        options.validationSplit = 0
        options.seed = seed
        options.hiddenSizes = [32, 16]
        return options
    }

    @Test func sameSeedGivesTheSameModel() throws {
        let dataset = try Self.smallDataset()
        let first = try IntentClassifier.train(on: dataset, training: Self.quickOptions(seed: 3))
        let second = try IntentClassifier.train(on: dataset, training: Self.quickOptions(seed: 3))
        let third = try IntentClassifier.train(on: dataset, training: Self.quickOptions(seed: 4))
        #expect(first.network.inputWeight?.scalars == second.network.inputWeight?.scalars)
        #expect(first.network.outputWeight.scalars == second.network.outputWeight.scalars)
        #expect(first.network.outputWeight.scalars != third.network.outputWeight.scalars)
        let text = "could you turn the radio on"
        #expect(first.probabilities(for: text) == second.probabilities(for: text))
    }

    /// With a validation split the lowest validation loss marks the best epoch (strictly lower than every
    /// earlier one), the run stops `patience` epochs after it, and the model is that epoch's: bit for bit
    /// the model of a run of that many epochs (scoring the held-out utterances draws no random numbers).
    @Test func validationKeepsTheEpochOfLowestLossAndStopsAfterThePatience() throws {
        let dataset = try Self.smallDataset()
        var options = Self.quickOptions(seed: 5)
        options.validationSplit = 0.3
        options.epochs = 60
        options.patience = 2
        options.learningRate = 0.03
        var reports: [EpochReport] = []
        let stopped = try IntentClassifier.train(on: dataset, training: options, entities: nil) { reports.append($0) }
        let losses = reports.compactMap(\.validationLoss)
        #expect(losses.count == reports.count)
        #expect(reports.map(\.isBest) == losses.indices.map { index in losses[index] < (losses[..<index].min() ?? .infinity) })
        let best = try #require(reports.last { $0.isBest }).epoch
        #expect(reports.count < options.epochs, "the rate of 0.03 should overfit the held-out 30 % well before 60 epochs")
        #expect(reports.count == best + options.patience)
        options.epochs = best
        let kept = try IntentClassifier.train(on: dataset, training: options, entities: nil)
        #expect(stopped.network.inputWeight?.scalars == kept.network.inputWeight?.scalars)
        #expect(stopped.network.outputWeight.scalars == kept.network.outputWeight.scalars)
    }

    /// A model an older build would run while skipping part of it (here: French stemming) is written as
    /// format version 2, which such a build refuses; an English bag-of-words model stays version 1.
    @Test func packagesRecordTheOldestFormatThatReadsThemWhole() throws {
        var dataset = try Self.smallDataset()
        let directory = try TestScratch.folder()
        func writtenVersion(_ name: String) throws -> Int? {
            let url = directory.appendingPathComponent(name)
            try IntentClassifier.train(on: dataset, training: Self.quickOptions(seed: 1), entities: nil).save(to: url)
            let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: url.appendingPathComponent("manifest.json"))) as? [String: Any]
            return manifest?["formatVersion"] as? Int
        }
        dataset.language = "en-US"
        #expect(try writtenVersion("english.nlumodel") == 1)
        dataset.language = "fr"
        #expect(try writtenVersion("french.nlumodel") == 2)
        #expect(try IntentClassifier.load(from: directory.appendingPathComponent("french.nlumodel")).featurizer.options.language == "fr")
    }

    @Test func saveAndLoadGiveIdenticalPredictions() throws {
        let dataset = try Self.smallDataset()
        let classifier = try IntentClassifier.train(on: dataset, training: Self.quickOptions(seed: 1))
        let url = try TestScratch.folder().appendingPathComponent("car.nlumodel")
        try classifier.save(to: url)
        let loaded = try IntentClassifier.load(from: url)
        #expect(loaded.labels == classifier.labels)
        #expect(loaded.hasNoneClass)
        for text in ["turn the heater off", "will it snow", "tell me a joke", "ring my brother", "zzz"] {
            #expect(loaded.predict(text, top: 3) == classifier.predict(text, top: 3))
        }
        // Saving again over the package replaces it whole.
        try classifier.save(to: url)
        #expect(try IntentClassifier.load(from: url).predict("volume up") == classifier.predict("volume up"))
    }

    @Test func newerPackageVersionIsRefused() throws {
        let dataset = try Self.smallDataset()
        let classifier = try IntentClassifier.train(on: dataset, training: Self.quickOptions(seed: 1))
        let url = try TestScratch.folder().appendingPathComponent("new.nlumodel")
        try classifier.save(to: url)
        let manifest = url.appendingPathComponent("manifest.json")
        let text = try String(contentsOf: manifest, encoding: .utf8).replacingOccurrences(of: "\"formatVersion\" : 1", with: "\"formatVersion\" : 7")
        try Data(text.utf8).write(to: manifest)
        #expect(throws: ModelPackageError.self) { try IntentClassifier.load(from: url) }
    }

    /// A NaN weight made every prediction "turn_on (nan%)" and every JSON answer fail: refused at load,
    /// naming the weights file and the tensor.
    @Test func aNonFiniteWeightIsRefusedAtLoad() throws {
        let classifier = try IntentClassifier.train(on: try Self.smallDataset(), training: Self.quickOptions(seed: 1))
        let url = try TestScratch.folder().appendingPathComponent("nan.nlumodel")
        try classifier.save(to: url)
        let weightsURL = url.appendingPathComponent(ModelPackage.weightsFileName)
        try SafeTensorsPatch.set("output.bias", in: weightsURL, to: .nan)
        #expect {
            _ = try IntentClassifier.load(from: url)
        } throws: { error in
            "\(error)".contains("output.bias") && "\(error)".contains("non-finite") && "\(error)".contains(weightsURL.path)
        }
    }

    /// A package whose `config.labels` repeats a label loaded, then `probabilities(for:)` trapped building its
    /// label → probability dictionary: refused at load, naming the manifest, the field and the label.
    @Test func aRepeatedLabelIsRefusedAtLoad() throws {
        let classifier = try IntentClassifier.train(on: try Self.smallDataset(), training: Self.quickOptions(seed: 1))
        let url = try TestScratch.folder().appendingPathComponent("twice.nlumodel")
        try classifier.save(to: url)
        let manifestURL = url.appendingPathComponent("manifest.json")
        var manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: manifestURL)) as? [String: Any])
        var config = try #require(manifest["config"] as? [String: Any])
        var labels = try #require(config["labels"] as? [String])
        labels[1] = labels[0]
        config["labels"] = labels
        manifest["config"] = config
        try JSONSerialization.data(withJSONObject: manifest).write(to: manifestURL)
        #expect {
            _ = try IntentClassifier.load(from: url)
        } throws: { error in
            "\(error)" == "invalid intent model: \(manifestURL.path): field config.labels lists '\(labels[0])' twice (at 0 and 1); labels must be distinct"
        }
    }

    /// Each hidden size is within 1...65536, but 65536,65536 needs 64 GiB of weights and optimizer state:
    /// the kernel's OOM killer ended training; now it is an option error before anything is read.
    @Test func hiddenSizesThatCannotFitInMemoryAreAnOptionError() {
        var options = Self.quickOptions(seed: 1)
        options.hiddenSizes = [65_536, 65_536]
        #expect {
            try IntentClassifier.validate(options)
        } throws: { error in
            guard case IntentClassifierError.invalidOption(let option, let reason) = error else { return false }
            return option == "hidden sizes" && reason.contains("half of this machine's memory")
        }
        options.hiddenSizes = [256, 128]
        #expect(throws: Never.self) { try IntentClassifier.validate(options) }
    }

    @Test func thresholdAndNoneClassGiveNoIntent() throws {
        let dataset = try Self.smallDataset()
        let classifier = try IntentClassifier.train(on: dataset, training: Self.quickOptions(seed: 2))
        let confident = classifier.predict("turn on the headlights")
        #expect(confident.intent == "turn_on")
        #expect(classifier.predict("turn on the headlights", threshold: 1.01).intent == nil)
        let ranking = classifier.predict("turn on the headlights", top: 3).ranking
        #expect(ranking.count == 3)
        #expect(ranking[0].confidence >= ranking[1].confidence && ranking[1].confidence >= ranking[2].confidence)
        #expect(!ranking.contains { $0.intent == IntentClassifier.noneLabel })
    }

    @Test func coreMLStyleModelTakesEmbeddingsAndReturnsEntities() throws {
        let dataset = try Self.smallDataset()
        let classifier = try IntentClassifier.train(on: dataset, training: Self.quickOptions(seed: 2))
        let model = classifier.model
        let embeddings = classifier.featurizer.vector(for: "play some jazz").dense(dimension: classifier.featurizer.dimension)
        let output = try model.prediction(from: DictionaryFeatureProvider(["embeddings": .floatTensor(Tensor(embeddings))]))
        let entities = try #require(output.featureValue(for: "entities")?.dictionaryValue)
        let expected = classifier.probabilities(for: "play some jazz")
        #expect(Set(entities.keys) == Set(classifier.labels))
        for (label, probability) in expected { #expect(abs((entities[label] ?? -1) - Double(probability)) < 1e-6) }
        #expect(throws: ModelError.self) { try model.prediction(from: DictionaryFeatureProvider(["embeddings": .floatTensor(Tensor([1, 2]))])) }
    }

    @Test func sampleDatasetHeldOutAccuracyIsAbove80Percent() throws {
        // Hold out every fifth utterance of each intent (and of the counterexamples), train on the rest.
        let dataset = try Self.smallDataset()
        var trainingSet = dataset, testSet = dataset
        for (index, intent) in dataset.intents.enumerated() {
            trainingSet.intents[index].utterances = intent.utterances.enumerated().filter { $0.offset % 5 != 0 }.map(\.element)
            testSet.intents[index].utterances = intent.utterances.enumerated().filter { $0.offset % 5 == 0 }.map(\.element)
        }
        trainingSet.counterexamples = dataset.counterexamples.enumerated().filter { $0.offset % 5 != 0 }.map(\.element)
        testSet.counterexamples = dataset.counterexamples.enumerated().filter { $0.offset % 5 == 0 }.map(\.element)
        let classifier = try IntentClassifier.train(on: trainingSet)
        let report = classifier.evaluate(on: testSet)
        // Stated bound: ≥ 80 % of the 82 held-out utterances with the default options (measured 82.9 %,
        // 80.5–87.8 % over seeds 1–5; scikit-learn's TF-IDF + LogisticRegression gets 85.4 % on the same
        // split). One split of 82 is noisy: 5-fold cross-validation over all 399 is the sturdier figure.
        #expect(report.count == 82)
        #expect(report.accuracy >= 0.80, "held-out accuracy \(report.accuracy)\n\(report.table())")
    }
}
