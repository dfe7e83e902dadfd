import NLUBuiltins
import NLUIntents

/// One `/model/parse` request's work for an intents model whose encoder can be shared
/// (``IntentClassifier/sharesEncoderPasses``): the text, the model as the request reads it (its
/// `language` changes the built-ins, never the encoder) and the request's reference time.
/// ``run(_:sharing:)`` computes the sentence features of several requests in one encoder call.
struct ParseBatchJob: Sendable {
    /// The served model, or its copy reading built-ins in the request's language.
    var model: IntentClassifier
    var text: String
    var reference: ReferenceTime?

    /// Each job's prediction, in order: the sentence features of all the texts from `encoder` (the
    /// served model, whose featurizer every job's model shares) in one call, then each job's
    /// entities and intents as ``IntentClassifier/predict(_:top:threshold:reference:sentenceFeatures:)``
    /// makes them.
    static func run(_ jobs: [ParseBatchJob], sharing encoder: IntentClassifier) -> [Result<IntentPrediction, any Error>] {
        let features = jobs.count > 1 ? encoder.sentenceFeatures(for: jobs.map(\.text)) : nil
        return jobs.enumerated().map { index, job in
            let shared = features.flatMap { index < $0.count ? $0[index] : nil }
            return .success(job.model.predict(job.text, top: RasaParse.rankingLength, reference: job.reference, sentenceFeatures: shared))
        }
    }
}
