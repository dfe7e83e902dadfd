import Foundation
import NLUCore

extension IntentClassifier {
    /// Predicts every utterance of `dataset` and compares with its labels (counterexamples are
    /// expected to get no intent).
    ///
    ///     let report = classifier.evaluate(on: testSet, threshold: 0.3)
    ///     print(report.accuracy, report.macroF1)
    public func evaluate(on dataset: IntentDataset, threshold: Float? = nil) -> IntentEvaluation {
        var collector = EvaluationCollector()
        collector.add(dataset, with: self, threshold: threshold)
        return collector.report(threshold: threshold ?? self.threshold)
    }

    /// Stratified k-fold cross-validation: each intent's utterances (and the counterexamples) are
    /// shuffled with the seed and dealt into `folds` folds; a classifier trained on the other folds
    /// predicts each fold; the report covers every utterance once. `log` receives the warnings of the first
    /// fold's training (a language without a stemmer...): the other folds would repeat them.
    ///
    ///     let report = try IntentClassifier.crossValidate(dataset, folds: 5)
    public static func crossValidate(_ dataset: IntentDataset, folds: Int, features: FeatureOptions = FeatureOptions(),
                                     training: TrainingOptions = TrainingOptions(),
                                     entities: SlotTaggerOptions? = SlotTaggerOptions(), threshold: Float? = nil,
                                     file: String = "dataset", log: (String) -> Void = { _ in },
                                     progress: (Int, IntentEvaluation) -> Void = { _, _ in }) throws -> IntentEvaluation {
        guard folds >= 2 else { throw IntentClassifierError.invalidOption(option: "folds", reason: "expected at least 2, got \(folds)") }
        try dataset.validateForTraining(file: file)
        // Each fold must hold at least one utterance of every intent, or folds train on nothing new.
        if let smallest = dataset.intents.min(by: { $0.utterances.count < $1.utterances.count }), folds > smallest.utterances.count {
            throw IntentClassifierError.invalidOption(
                option: "folds", reason: "expected at most \(smallest.utterances.count) (the intent '\(smallest.name)' has \(smallest.utterances.count) utterances), got \(folds)")
        }
        var generator = SplitMix64(seed: training.seed ^ 0xF01D)
        // Assign each utterance a fold, per class, round-robin after a seeded shuffle.
        func deal(_ utterances: [Utterance]) -> [[Utterance]] {
            var shuffled = utterances
            shuffled.shuffle(using: &generator)
            var result = [[Utterance]](repeating: [], count: folds)
            for (index, utterance) in shuffled.enumerated() { result[index % folds].append(utterance) }
            return result
        }
        let intentFolds = dataset.intents.map { deal($0.utterances) }
        let counterFolds = deal(dataset.counterexamples)
        var collector = EvaluationCollector()
        for fold in 0..<folds {
            var trainingSet = dataset
            var test = dataset
            for (index, intent) in dataset.intents.enumerated() {
                trainingSet.intents[index] = Intent(name: intent.name, utterances: intentFolds[index].enumerated().filter { $0.offset != fold }.flatMap(\.element))
                test.intents[index] = Intent(name: intent.name, utterances: intentFolds[index][fold])
            }
            trainingSet.counterexamples = counterFolds.enumerated().filter { $0.offset != fold }.flatMap(\.element)
            test.counterexamples = counterFolds[fold]
            trainingSet.intents.removeAll { $0.utterances.isEmpty }
            test.intents.removeAll { $0.utterances.isEmpty }
            let classifier = try train(on: trainingSet, features: features, training: training, entities: entities, file: file,
                                       entityLog: { message in
                // The first fold's warnings only: its stages (the tagger's) are not the evaluation's.
                if fold == 0, message.hasPrefix("warning:") { log(message) }
            })
            let report = classifier.evaluate(on: test, threshold: threshold)
            progress(fold + 1, report)
            collector.add(test, with: classifier, threshold: threshold)
        }
        return collector.report(threshold: threshold ?? 0)
    }
}

/// Expected and predicted intents and entities of the utterances evaluated so far.
private struct EvaluationCollector {
    var utterances: [EvaluatedUtterance] = []
    var entities: [EvaluatedEntities] = []
    var hasEntities = false

    /// Predicts every utterance of `dataset` (counterexamples expect no intent and no entity).
    mutating func add(_ dataset: IntentDataset, with classifier: IntentClassifier, threshold: Float?) {
        hasEntities = hasEntities || classifier.entityExtractor != nil
        let labelled = dataset.intents.flatMap { intent in intent.utterances.map { (Optional(intent.name), $0) } }
            + dataset.counterexamples.map { (String?.none, $0) }
        for (intent, utterance) in labelled {
            let prediction = classifier.predict(utterance.text, top: 1, threshold: threshold)
            utterances.append(EvaluatedUtterance(text: utterance.text, expected: intent, predicted: prediction.intent,
                                                 confidence: prediction.confidence))
            entities.append(EvaluatedEntities(
                text: utterance.text, expected: EntityEvaluation.mentions(of: utterance),
                predicted: prediction.entities.map { EntityEvaluation.Mention(entity: $0.entity, start: $0.start, end: $0.end) }))
        }
    }

    func report(threshold: Float) -> IntentEvaluation {
        var report = IntentEvaluation(utterances: utterances, threshold: threshold)
        guard hasEntities else { return report }
        report.entities = EntityEvaluation(utterances: entities)
        var right = 0
        for (utterance, mentions) in zip(utterances, entities) where utterance.isCorrect && mentions.wrongMentionCount == 0 {
            right += 1
        }
        report.sentenceAccuracy = utterances.isEmpty ? 0 : Double(right) / Double(utterances.count)
        return report
    }
}
