import ArgumentParser
import NLUKit

/// The settings only `intents train --tagger transformer` reads (the joint intent + slot model); the
/// fine-tuning loop's come from ``IntentsFineTuningArguments`` and ``IntentsTrainingArguments``.
struct IntentsJointTaggerArguments: ParsableArguments {
    // Optional: given without --tagger transformer it is refused rather than ignored.
    @Flag(inversion: .prefixedNo, exclusivity: .exclusive,
          help: "With --tagger transformer: a CRF transition layer over the slot head's tags, decoded by Viterbi (default: \(JointIntentSlotOptions().crf ? "on" : "off")).")
    var transformerCrf: Bool?
    @Flag(inversion: .prefixedNo, exclusivity: .exclusive,
          help: "With --tagger transformer: the slot head reads each word's case (a capital initial, all capitals) beside its encoder state, which an uncased encoder cannot see (default: \(JointIntentSlotOptions().wordShapes ? "on" : "off")).")
    var wordShapes: Bool?
    @Option(help: "With --tagger transformer: the slot loss's weight beside the intent loss (JointBERT's slot_loss_coef, 0 ... 100; default: \(JointIntentSlotOptions().slotLossCoefficient)).")
    var slotLossWeight: Float?

    /// The joint model's options over the fine-tuning loop's `training` options.
    func options(training: IntentFineTuningOptions) -> JointIntentSlotOptions {
        var options = JointIntentSlotOptions()
        options.training = training
        options.crf = transformerCrf ?? options.crf
        options.wordShapes = wordShapes ?? options.wordShapes
        options.slotLossCoefficient = slotLossWeight ?? options.slotLossCoefficient
        return options
    }

    /// Refuses a joint-model flag without `--tagger transformer`, and `--tagger transformer` without
    /// `--fine-tune` or with `--no-entities`, saying what to add or remove; `labelSmoothing` is the loop's
    /// `--label-smoothing`, which the joint model's own check refuses.
    func validate(tagger: SlotTaggerOptions.Kind, fineTune: String?, noEntities: Bool, labelSmoothing: Float?) throws {
        guard tagger == .transformer else {
            if transformerCrf != nil {
                throw ValidationError("--transformer-crf and --no-transformer-crf apply to --tagger transformer")
            }
            if wordShapes != nil {
                throw ValidationError("--word-shapes and --no-word-shapes apply to --tagger transformer")
            }
            if slotLossWeight != nil {
                throw ValidationError("--slot-loss-weight applies to --tagger transformer")
            }
            return
        }
        // The range is the library's (JointIntentSlotOptions.validate), checked before any model is read.
        var loop = IntentFineTuningOptions()
        loop.labelSmoothing = labelSmoothing
        try TrainingFlags.check { try options(training: loop).validate() }
        guard fineTune != nil else {
            throw ValidationError("--tagger transformer fine-tunes an encoder jointly for the intents and the entities: add --fine-tune MODEL "
                                  + "(a sentence-transformers or Hugging Face folder, or a Hub id such as sentence-transformers/all-MiniLM-L6-v2)")
        }
        guard !noEntities else {
            throw ValidationError("--tagger transformer learns the entities; it does not go with --no-entities (fine-tune without --tagger transformer instead)")
        }
    }
}
