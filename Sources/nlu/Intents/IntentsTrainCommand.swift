import ArgumentParser
import Foundation
import NLUKit

/// `nlu intents train`: trains an intent classifier and saves it as an .nlumodel package.
struct IntentsTrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train",
        abstract: "Train an intent classifier on a dataset (NLUKit JSON or any importable export).",
        discussion: """
        Counterexamples and out-of-scope labels train a "none" class. Progress per epoch (loss, validation \
        accuracy) goes to stderr; the best epoch on the validation split is kept. The model package is written \
        atomically: an existing package at --output stays intact if anything fails. --output may name a new path, \
        an empty folder or an intent model package (replaced); anything else there is refused (exit 1). \
        --report FILE.html also writes the loss curve per epoch (and validation loss and accuracy, the kept \
        epoch marked; the slot tagger's loss per iteration) as one self-contained page; it replaces only an \
        earlier nlu report page (or an empty file) unless --force is given.

        --fine-tune MODEL fine-tunes that BERT-family encoder (a sentence-transformers or Hugging Face folder, \
        or a Hub id in the cache) with a softmax head over its pooled sentence vector, with AdamW, linear \
        warm-up and decay and gradient clipping as Hugging Face Trainer; the package holds the fine-tuned \
        encoder (folder encoder/). Entities train as without it; the bag-of-words options (n-grams, --hidden, \
        ...) do not apply, and --patience is refused (--keep-best SCORE --early-stopping N stop it early). A run that would not fit in half of this machine's memory is \
        refused before training; a non-finite loss stops it; an interrupted run leaves --output as it was. \
        After each epoch the run's state is written to OUTPUT.checkpoint/ (removed once the model is saved); \
        --resume continues from it (a checkpoint of another model, dataset or settings is refused). \
        --validation-file FILE scores held-out utterances after each epoch (intent accuracy and loss; with \
        --tagger transformer also the slots' F1), without changing the run (--validation-split F holds that share \
        of each intent out of the training data instead): the last epoch is kept, unless \
        --keep-best SCORE (accuracy, loss, slot-f1, exact-slots, frame-accuracy) keeps the epoch with the best score, as \
        Trainer's load_best_model_at_end; --early-stopping N then stops after N epochs without improvement.

        --few-shot (the default with --fine-tune when the median intent has at most 16 utterances and there are \
        at most 400 in all) trains in \
        SetFit's way instead: the encoder on contrastive pairs of the utterances (cosine-similarity loss, 40 \
        pairs of each kind per utterance, fewer down to 5 above 6,400 pairs in all, 1 epoch, batches of 16 pairs, learning rate 2e-5; --epochs, \
        --batch-size, --learning-rate... set this stage), then a logistic-regression head on its normalized \
        sentence vectors and the utterances' bags of words (--no-setfit-bag-of-words: the vectors only, as SetFit) (checkpoints after each epoch of the encoder stage and --resume as above; \
        with --validation-file a head is fitted after each of those epochs to score it, and --keep-best accuracy or loss keeps the best epoch's encoder); \
        --no-few-shot keeps the softmax head. --calibration-split F holds out that share of \
        each intent (and of the counterexamples) and calibrates the confidences on it: a temperature fitted by \
        the held-out log-likelihood, and the threshold that answers the held-out utterances best (0 without \
        counterexamples), both stored in the model; --calibration-file FILE calibrates on that file's utterances \
        instead (a development set with out-of-scope examples), training on all the data; --threshold sets the threshold instead.

        --tagger transformer (with --fine-tune MODEL) fine-tunes the encoder jointly for the intents and the \
        entities (JointBERT): the intent from the pooled vector, each word's BIO tag from its first word piece, \
        a CRF transition layer over the tags decoded by Viterbi (--no-transformer-crf: each word's best tag). \
        The package holds the encoder, the intent head and the slot head; predict, evaluate and serve merge its \
        entities with the dictionaries, regexes and built-ins as for the CRF tagger; it trains 10 epochs by \
        default (JointBERT's), the heads at --head-learning-rate 1e-3. Checkpoints and --resume work as for --fine-tune.
        """)

    @Argument(help: "The dataset: NLUKit JSON or a platform export (several are merged).")
    var dataset: [String]

    @Option(name: .shortAndLong, help: "Where to write the model package (NAME.nlumodel).")
    var output: String

    @OptionGroup var input: DatasetInputOptions
    @OptionGroup var training: IntentsTrainingArguments

    @Option(help: ArgumentHelp(
        "Append this sentence-transformers model's sentence embedding to the bag of words, and give the slot tagger its contextual word vectors (see --tagger) (a directory or a Hub id in the Hugging Face cache); the package records it and prediction loads it again.",
        valueName: "MODEL"))
    var embeddings: String?

    @Option(name: .customLong("fine-tune"), help: ArgumentHelp(
        "Fine-tune this BERT-family encoder with the intent head instead of training the bag-of-words network (a directory or a Hub id in the Hugging Face cache).",
        valueName: "MODEL"))
    var fineTune: String?

    @OptionGroup var fineTuning: IntentsFineTuningArguments

    @OptionGroup var joint: IntentsJointTaggerArguments

    @Flag(help: "With --fine-tune: continue from the checkpoint an interrupted run left in OUTPUT.checkpoint/.")
    var resume = false

    @Option(help: "Default confidence threshold stored in the model (under it: no intent; default: 0, or the one --calibration-split chooses).")
    var threshold: Float?

    @Option(help: ArgumentHelp("Also write the training curves as a self-contained HTML page.", valueName: "FILE.html"))
    var report: String?

    @Flag(help: "Replace a model package of another kind at --output (never a file or a folder that is not a package), and a file at --report that is not an nlu report page.")
    var force = false

    @Flag(help: "Print a JSON summary on stdout.")
    var json = false

    @OptionGroup var inputSize: InputSizeOption

    func validate() throws {
        try joint.validate(tagger: training.tagger, fineTune: fineTune, noEntities: training.noEntities, labelSmoothing: fineTuning.labelSmoothing)
        if training.tagger == .transformer, fineTuning.fewShot == true {
            throw ValidationError("--few-shot trains the intents alone; --tagger transformer fine-tunes the encoder with the intents and the entities (use --no-few-shot or leave it out)")
        }
        if let threshold, !(threshold >= 0 && threshold <= 1) {
            throw ValidationError("--threshold must be between 0 and 1, got \(threshold)")
        }
        guard !output.isEmpty else { throw ValidationError("--output is empty; give a path such as model.nlumodel") }
        if let embeddings, embeddings.isEmpty { throw ValidationError("--embeddings is empty; give a model directory or Hub id") }
        if training.noBagOfWords, embeddings == nil {
            throw ValidationError(fineTune == nil
                ? "--no-bag-of-words needs --embeddings MODEL: without the bag of words the sentence embedding is the only feature"
                : "--no-bag-of-words applies to --embeddings; a --fine-tune model has no bag of words already")
        }
        if training.tagger == .encoder, embeddings == nil {
            throw ValidationError("--tagger encoder needs --embeddings MODEL (the encoder whose word vectors it uses)")
        }
        if let fineTune {
            guard !fineTune.isEmpty else { throw ValidationError("--fine-tune is empty; give a model directory or Hub id") }
            guard embeddings == nil else {
                throw ValidationError("--fine-tune and --embeddings exclude each other: a fine-tuned model's only features are its encoder's")
            }
            let bagOfWords = training.bagOfWordsFlagsGiven
            guard bagOfWords.isEmpty else {
                throw ValidationError("\(bagOfWords.joined(separator: ", ")) set\(bagOfWords.count == 1 ? "s" : "") the bag-of-words network; "
                                      + "a --fine-tune model's features are its encoder's (--few-shot's --setfit-bag-of-words adds the default bag of words)")
            }
            guard report == nil else { throw ValidationError("--report draws the bag-of-words network's epochs; it does not apply to --fine-tune") }
            if training.patience != nil {
                throw ValidationError("--patience stops the bag-of-words network; a --fine-tune run stops early with --keep-best SCORE --early-stopping N")
            }
            if fineTuning.earlyStopping != nil, fineTuning.keepBest == nil {
                throw ValidationError("--early-stopping needs --keep-best SCORE: the score whose best epoch it counts from")
            }
            if let split = training.validationSplit {
                guard fineTuning.validationFile == nil else {
                    throw ValidationError("--validation-file and --validation-split both give the held-out utterances: give one")
                }
                try TrainingFlags.check(flag: "--validation-split", context: "with --fine-tune") {
                    try HeldOutSplit.checkFraction(split, of: "each intent")
                }
            }
            if fineTuning.keepBest != nil, fineTuning.validationFile == nil, training.validationSplit == nil {
                throw ValidationError("--keep-best needs --validation-file FILE or --validation-split F: the held-out utterances whose score picks the epoch")
            }
            if fineTuning.keepBest?.needsSlots == true, training.tagger != .transformer {
                throw ValidationError("--keep-best \(fineTuning.keepBest?.rawValue ?? "") is a slot score of --tagger transformer; "
                                      + "the intent model keeps by accuracy or loss")
            }
            if fineTuning.fewShot == true {
                _ = try fineTuning.setFitOptions(training)
            } else {
                if fineTuning.setfitIterations != nil, fineTuning.fewShot == false {
                    throw ValidationError("--setfit-iterations sets the pairs of --few-shot; it does not apply with --no-few-shot")
                }
                if fineTuning.setfitHeadC != nil, fineTuning.fewShot == false {
                    throw ValidationError("--setfit-head-c sets the head of --few-shot; it does not apply with --no-few-shot")
                }
                if fineTuning.setfitBagOfWords != nil, fineTuning.fewShot == false {
                    throw ValidationError("--setfit-bag-of-words and --no-setfit-bag-of-words set the head of --few-shot; they do not apply with --no-few-shot")
                }
                _ = try fineTuning.options(training)
            }
            if let split = fineTuning.calibrationSplit {
                try TrainingFlags.check(flag: "--calibration-split") {
                    try HeldOutSplit.checkFraction(split, of: "each intent", allowsNone: true)
                }
                if split > 0, fineTuning.calibrationFile != nil {
                    throw ValidationError("--calibration-split and --calibration-file both give the calibration utterances: give one")
                }
            }
            if fineTuning.calibrationFile?.isEmpty == true { throw ValidationError("--calibration-file is empty; give a dataset file") }
        } else if resume {
            throw ValidationError("--resume continues a --fine-tune run; the bag-of-words network trains in seconds: run it again")
        } else if fineTuning.fewShot != nil || fineTuning.setfitIterations != nil || fineTuning.setfitHeadC != nil
                    || fineTuning.setfitBagOfWords != nil || fineTuning.calibrationSplit != nil || fineTuning.calibrationFile != nil
                    || fineTuning.headLearningRate != nil || fineTuning.validationFile != nil || fineTuning.keepBest != nil
                    || fineTuning.earlyStopping != nil || fineTuning.labelSmoothing != nil {
            throw ValidationError("--few-shot, --no-few-shot, --setfit-iterations, --setfit-head-c, --[no-]setfit-bag-of-words, "
                                  + "--calibration-split, --calibration-file, --head-learning-rate, --label-smoothing, "
                                  + "--validation-file, --keep-best and --early-stopping apply to --fine-tune MODEL "
                                  + "(the bag-of-words network keeps its best epoch on --validation-split)")
        }
    }

    /// The flag that gave the validation utterances, and where they came from, for errors about them.
    private var heldOutFlag: String { fineTuning.validationFile == nil && training.validationSplit != nil ? "--validation-split" : "--validation-file" }
    private var heldOutSource: String {
        fineTuning.validationFile ?? training.validationSplit.map { "the utterances --validation-split \($0) held out of \(dataset.joined(separator: ", "))" }
            ?? "--validation-file"
    }

    func run() throws {
        try Console.checkOutput(output, inputs: dataset + [fineTuning.validationFile, fineTuning.calibrationFile].compactMap { $0 })
        try ModelPackage.checkDestination(URL(fileURLWithPath: output), kind: IntentClassifier.modelKind, replacing: replacement)
        if let report {
            try Console.checkOutput(report, flag: "--report", inputs: dataset + [output])
            try ReportPage.outputFile.checkReplaceable(URL(fileURLWithPath: report), force: force,
                                                       remedy: "choose another path, move it away, or pass --force to replace it")
        }
        let result = try input.load(dataset)
        let data = result.dataset
        if let fineTune {
            try runFineTuning(data, model: fineTune)
            return
        }
        let sentenceFeaturizer = try embeddings.map { try EmbedderSentenceFeaturizer(model: $0) }
        if let sentenceFeaturizer {
            Console.log("sentence features: \(sentenceFeaturizer.reference.model) (\(sentenceFeaturizer.reference.dimension) values per utterance)")
        }
        Console.log("training on \(data.intents.count) intents, \(data.utteranceCount) utterances, \(data.counterexamples.count) counterexamples")
        let clock = ContinuousClock()
        let start = clock.now
        var epochs = 0
        var epochReports: [EpochReport] = []
        var taggerLosses: [TrainingReportPage.Point] = []
        // Ctrl-C stops after the current epoch (or slot-tagger iteration) and saves the best epoch so far.
        var classifier = try Interruption.whileStoppable(notice: "stopping: the best epoch so far will be saved to \(output)") {
            try IntentClassifier.train(
            on: data, features: training.featureOptions(), training: training.trainingOptions(),
            entities: training.entityOptions(), file: dataset.joined(separator: ", "), sentenceFeaturizer: sentenceFeaturizer,
            wordVectors: sentenceFeaturizer, progress: { report in
            epochs = report.epoch
            epochReports.append(report)
            var line = String(format: "epoch %d: loss %.4f", report.epoch, report.trainingLoss)
            if let accuracy = report.validationAccuracy, let loss = report.validationLoss {
                line += String(format: ", validation accuracy %.4f, validation loss %.4f", accuracy, loss)
                if report.isBest { line += " *" }
            }
            Console.log(line)
        }, entityProgress: { iteration, loss in
            taggerLosses.append(TrainingReportPage.Point(x: Double(iteration), y: Double(loss)))
            if iteration == 1 || iteration % 10 == 0 { Console.log(String(format: "slot tagger iteration %d: loss %.4f", iteration, loss)) }
        }, entityLog: { Console.log($0) })
        }
        let elapsed = clock.now - start
        classifier.threshold = threshold ?? 0
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        try classifier.save(to: URL(fileURLWithPath: output), metadata: [
            "trainedWith": "nlu intents train", "nlukitVersion": NLUKitVersion.string,
            "utterances": "\(data.utteranceCount)", "counterexamples": "\(data.counterexamples.count)",
        ], replacing: replacement)
        let summary = Summary(output: output, intents: classifier.intents.count, noneClass: classifier.hasNoneClass,
                              features: classifier.featurizer.dimension, sentenceEmbeddings: classifier.sentenceFeaturizer?.reference,
                              minDocumentFrequency: classifier.featurizer.options.minDocumentFrequency ?? 1, epochs: epochs,
                              seconds: (seconds * 100).rounded() / 100,
                              tagger: classifier.entityExtractor?.tagger?.kind.rawValue,
                              slotLabels: classifier.entityExtractor?.tagger?.crf.labelCount ?? 0,
                              slotFeatures: classifier.entityExtractor?.tagger?.crf.stateFeatureCount ?? 0,
                              entityDefinitions: classifier.entityExtractor?.definitions.count ?? 0)
        if let report {
            try writeReport(to: report, summary: summary, epochs: epochReports, taggerLosses: taggerLosses, utterances: data.utteranceCount)
        }
        if json {
            Console.print(try Console.json(summary, sortedKeys: false))
        } else {
            Console.print("saved \(output): \(summary.intents) intents\(summary.noneClass ? " + none class" : ""), \(summary.features) features (min-df \(summary.minDocumentFrequency))\(summary.sentenceEmbeddings.map { " + \($0.dimension) from \($0.model)" } ?? ""), \(summary.epochs) epochs, \(String(format: "%.2f", seconds)) s")
            if summary.slotLabels > 0 || summary.entityDefinitions > 0 {
                Console.print("entities: \(summary.tagger == "encoder" ? "encoder " : "")slot tagger with \(summary.slotLabels) tags and \(summary.slotFeatures) state features, \(summary.entityDefinitions) entity definitions")
            }
        }
        if Interruption.isRequested {
            throw TrainingInterrupted("interrupted after epoch \(epochs): \(output) holds the best epoch so far; "
                                      + "run the same command again to train in full")
        }
    }

    private var replacement: ModelPackage.Replacement { force ? .anyModelPackage : .sameKind }

    /// `--fine-tune`: the encoder and its head trained on `data` (few-shot or not, calibrated or not),
    /// saved with the entities as one package.
    private func runFineTuning(_ data: IntentDataset, model: String) throws {
        // The joint model (--tagger transformer) trains with the softmax head's loop, however few the utterances.
        let fewShot: SetFitOptions? = try training.tagger != .transformer && (fineTuning.fewShot ?? SetFitOptions.suits(data))
            ? fineTuning.setFitOptions(training) : nil
        let options = try fineTuning.options(training, defaults: training.tagger == .transformer ? JointIntentSlotOptions().training : IntentFineTuningOptions())
        if fewShot != nil, fineTuning.fewShot == nil {
            Console.log("few-shot training (SetFit): at most \(SetFitOptions.fewShotMedian) utterances in the median intent and \(SetFitOptions.fewShotMostUtterances) in all; --no-few-shot trains the softmax head instead")
        }
        var validation: IntentDataset?
        if let file = fineTuning.validationFile {
            validation = try input.load([file]).dataset
            let count = (validation?.utteranceCount ?? 0) + (validation?.counterexamples.count ?? 0)
            Console.log("validation: \(count) held-out utterance\(count == 1 ? "" : "s") from \(file), scored after each epoch")
        }
        var trainingData = data, heldOut: IntentDataset?
        if let fraction = training.validationSplit {
            // Drawn apart from the calibration split (which comes out of what is left): its own seed.
            let split = try data.heldOutSplit(fraction: fraction, seed: (fewShot?.seed ?? options.seed) &+ 0x5EED)
            trainingData = split.training
            validation = split.heldOut
            let count = split.heldOut.utteranceCount + split.heldOut.counterexamples.count
            guard count > 0 else {
                throw InputError("--validation-split \(fraction) holds out no utterance of \(dataset.joined(separator: ", ")): each intent gives "
                                 + "that share of its utterances, rounded down, and keeps one to train on; give a larger share or --validation-file FILE")
            }
            Console.log("validation: \(count) utterance\(count == 1 ? "" : "s") held out of the training data (--validation-split \(fraction)), scored after each epoch")
        }
        if let fraction = fineTuning.calibrationSplit, fraction > 0 {
            let split = try trainingData.heldOutSplit(fraction: fraction, seed: fewShot?.seed ?? options.seed)
            trainingData = split.training
            heldOut = split.heldOut
            Console.log("calibration: \(heldOut?.utteranceCount ?? 0) utterances and \(heldOut?.counterexamples.count ?? 0) counterexamples held out")
        }
        if let file = fineTuning.calibrationFile {
            let calibrationData = try input.load([file]).dataset
            guard calibrationData.canCalibrate(intents: trainingData.intents.map(\.name)) else {
                throw InputError("\(file): no utterance of the training data's intents and no counterexample to calibrate on "
                                 + "(its intents: \(calibrationData.intents.prefix(5).map(\.name).joined(separator: ", "))"
                                 + "\(calibrationData.intents.count > 5 ? ", ..." : ""))")
            }
            heldOut = calibrationData
            Console.log("calibration: \(heldOut?.utteranceCount ?? 0) utterances and \(heldOut?.counterexamples.count ?? 0) counterexamples from \(file)")
        }
        Console.log("fine-tuning \(model) on \(trainingData.intents.count) intents, \(trainingData.utteranceCount) utterances, \(trainingData.counterexamples.count) counterexamples")
        let clock = ContinuousClock()
        let start = clock.now
        var lastLine = start
        var steps = 0
        var lastLoss: Float = .nan
        let checkpoint = IntentFineTuningCheckpoint(folder: URL(fileURLWithPath: output + ".checkpoint"))
        let epochs = fewShot?.epochs ?? options.epochs
        let report = { (progress: IntentFineTuningProgress) in
            if progress.stage == .classifier || progress.stage == .contrastive {
                steps = progress.step
                lastLoss = progress.loss
            }
            let now = clock.now
            let finished = progress.step == progress.totalSteps
            guard finished || progress.step == 1 || now - lastLine >= .seconds(2) else { return }
            lastLine = now
            let elapsed = Self.seconds(now - start)
            let left = elapsed / Double(progress.step) * Double(progress.totalSteps - progress.step)
            if json {
                let line = ProgressLine(epoch: progress.epoch, epochs: progress.stage == .head || progress.stage == .headSelection ? 1 : epochs, step: progress.step,
                                        steps: progress.totalSteps, loss: Double(progress.loss),
                                        examplesPerSecond: (progress.examplesPerSecond * 10).rounded() / 10, secondsLeft: left.rounded(),
                                        stage: progress.stage == .classifier ? nil : progress.stage.rawValue)
                if let text = try? Console.json(line) { Console.log(text) }
            } else if progress.stage == .headSelection {
                Console.log("head (logistic regression): choosing C by cross-validation, fit \(progress.step)/\(progress.totalSteps)")
            } else if progress.stage == .head {
                Console.log(String(format: "head (logistic regression): iteration %d  loss %.4f", progress.step, progress.loss)
                            + (finished ? "  done" : ""))
            } else {
                Console.log((progress.stage == .contrastive ? "contrastive pairs: " : "")
                            + String(format: "epoch %d/%d  step %d/%d  loss %.4f  %.1f ", progress.epoch, epochs,
                                     progress.step, progress.totalSteps, progress.loss, progress.examplesPerSecond)
                            + (progress.stage == .contrastive ? "pairs/s  " : "examples/s  ")
                            + Self.duration(left) + " left")
            }
        }
        let entityProgress = { (iteration: Int, loss: Double) in
            if iteration == 1 || iteration % 10 == 0 { Console.log(String(format: "slot tagger iteration %d: loss %.4f", iteration, loss)) }
        }
        // A signal ends the run at once; the package is written only at the end, atomically, so --output keeps what it held.
        let checkpointSaved = { (epoch: Int) in
            // Set before the line is printed, so a signal sent on seeing the line finds it.
            Interruption.note = "interrupted: \(checkpoint.folder.path) holds epoch \(epoch); continue with the same command and --resume"
            Console.log("checkpoint saved after epoch \(epoch): \(checkpoint.folder.path)")
        }
        var lastValidation: FineTuningValidation?, keptValidation: FineTuningValidation?
        let validated = { (score: FineTuningValidation) in
            if score.isBest == true { keptValidation = score }
            if lastValidation == nil, score.unknownIntentUtterances > 0 {
                Console.log("validation: \(score.unknownIntentUtterances) utterance\(score.unknownIntentUtterances == 1 ? " has an intent" : "s have intents") "
                            + "the training data lacks (\(score.unknownIntents.joined(separator: ", "))): counted wrong, left out of the loss")
            }
            lastValidation = score
            if json {
                if let text = try? Console.json(ValidationLine(epoch: score.epoch, validation: score)) { Console.log(text) }
                return
            }
            var line = String(format: "epoch %d/%d validation: intents %.2f %% of %d", score.epoch, epochs, score.intentAccuracy * 100,
                              score.utterances) + (score.loss.map { String(format: ", loss %.4f", $0) } ?? "")
            if let slots = score.slots {
                line += String(format: ", slots F1 %.4f (P %.4f R %.4f), every slot right %.2f %%, frames right %.2f %%", slots.f1,
                               slots.precision, slots.recall, slots.exactUtterances * 100, slots.frameAccuracy * 100)
            }
            Console.log(line + (score.isBest == true ? " *" : ""))
            BestEpochLines.logEarlyStop(after: score.epoch, of: epochs, bestEpoch: keptValidation?.epoch, patience: fineTuning.earlyStopping,
                                        score: fineTuning.keepBest?.rawValue ?? "score")
        }
        var classifier: IntentClassifier
        do {
            if training.tagger == .transformer {
                classifier = try IntentClassifier.fineTuneJoint(
                    on: trainingData, model: model, options: joint.options(training: options), entities: training.entityOptions(),
                    file: dataset.joined(separator: ", "), validation: validation, saving: checkpoint, resume: resume,
                    checkpointSaved: checkpointSaved, progress: report, validated: validated, entityLog: { Console.log($0) })
            } else if let fewShot {
                classifier = try IntentClassifier.fewShotFineTune(
                    on: trainingData, model: model, options: fewShot, entities: training.entityOptions(), file: dataset.joined(separator: ", "),
                    validation: validation, saving: checkpoint, resume: resume, checkpointSaved: checkpointSaved,
                    progress: report, validated: validated, entityProgress: entityProgress, entityLog: { Console.log($0) })
            } else {
                classifier = try IntentClassifier.fineTune(
                    on: trainingData, model: model, options: options, entities: training.entityOptions(), file: dataset.joined(separator: ", "),
                    validation: validation, saving: checkpoint, resume: resume, checkpointSaved: checkpointSaved, progress: report,
                    validated: validated, entityProgress: entityProgress, entityLog: { Console.log($0) })
            }
        } catch let error as TrainingSettingError where error.setting == "validation" {
            throw InputError("\(heldOutSource): \(error.value); \(heldOutFlag) needs \(error.requirement)")
        } catch let error as TrainingSettingError where error.setting == "keepBest" {
            throw InputError("\(heldOutSource): --keep-best \(error.value) needs \(error.requirement)")
        }
        var calibration: IntentClassifier.Calibration?
        if let heldOut {
            calibration = classifier.calibrate(on: heldOut)
            if let calibration {
                Console.log(String(format: "calibrated on %d held-out utterances: temperature %.4f (held-out loss %.4f -> %.4f), threshold %.4f",
                                   calibration.utterances, calibration.temperature, calibration.lossBefore, calibration.lossAfter,
                                   calibration.threshold))
            }
        }
        let seconds = Self.seconds(clock.now - start)
        if let threshold { classifier.threshold = threshold }
        try classifier.save(to: URL(fileURLWithPath: output), metadata: [
            "trainedWith": "nlu intents train --fine-tune" + (fewShot != nil ? " --few-shot" : "")
                + (training.tagger == .transformer ? " --tagger transformer" : ""), "nlukitVersion": NLUKitVersion.string,
            "utterances": "\(trainingData.utteranceCount)", "counterexamples": "\(trainingData.counterexamples.count)",
        ], replacing: replacement)
        Interruption.note = nil
        checkpoint.remove()
        let summary = FineTuningSummary(output: output, intents: classifier.intents.count, noneClass: classifier.hasNoneClass,
                                        fineTuned: classifier.sentenceFeaturizer?.reference.model ?? model,
                                        pooledDimension: classifier.sentenceFeaturizer?.reference.dimension ?? classifier.network.inputDimension, epochs: epochs, steps: steps,
                                        finalLoss: Double(lastLoss), seconds: (seconds * 100).rounded() / 100,
                                        tagger: classifier.entityExtractor?.tagger?.kind.rawValue
                                            ?? classifier.entityExtractor?.transformerTagger.map { _ in SlotTaggerOptions.Kind.transformer.rawValue },
                                        slotLabels: classifier.entityExtractor?.tagger?.crf.labelCount
                                            ?? classifier.entityExtractor?.transformerTagger?.tags.count ?? 0,
                                        entityDefinitions: classifier.entityExtractor?.definitions.count ?? 0,
                                        fewShot: fewShot != nil ? true : nil,
                                        temperature: calibration.map { Double($0.temperature) },
                                        threshold: calibration != nil || threshold != nil ? Double(classifier.threshold) : nil,
                                        validation: keptValidation ?? lastValidation, keptEpoch: keptValidation?.epoch,
                                        trainedEpochs: fineTuning.keepBest == nil ? nil : lastValidation?.epoch)
        if json {
            Console.print(try Console.json(summary, sortedKeys: false))
        } else {
            Console.print("saved \(output): \(summary.intents) intents\(summary.noneClass ? " + none class" : ""), \(summary.fineTuned) fine-tuned "
                          + (fewShot != nil ? "few-shot " : "")
                          + "(\(summary.pooledDimension) pooled values), "
                          + (summary.trainedEpochs.map { $0 < summary.epochs ? "\($0) of \(summary.epochs)" : "\(summary.epochs)" } ?? "\(summary.epochs)")
                          + " epochs, \(steps) steps, final loss "
                          + String(format: "%.4f, %.2f s", lastLoss, seconds)
                          + (calibration.map { String(format: ", temperature %.4f, threshold %.4f", $0.temperature, classifier.threshold) } ?? ""))
            if let kept = keptValidation, let metric = fineTuning.keepBest, let score = metric.score(kept) {
                BestEpochLines.printKept(epoch: kept.epoch, trained: lastValidation?.epoch ?? epochs, score: metric.rawValue,
                                         value: metric == .loss ? String(format: "%.4f", score) : String(format: "%.2f %%", score * 100),
                                         on: fineTuning.validationFile == nil ? "the held-out utterances" : "the validation file")
            }
            if summary.slotLabels > 0 || summary.entityDefinitions > 0 {
                let crfLayer = classifier.entityExtractor?.transformerTagger?.crf != nil ? " and a CRF layer" : ""
                Console.print("entities: \(summary.tagger == "transformer" ? "transformer " : "")slot tagger with \(summary.slotLabels) tags\(crfLayer), "
                              + "\(summary.entityDefinitions) entity definitions")
            }
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }

    /// "1m05s" / "42s".
    private static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        return whole >= 60 ? String(format: "%dm%02ds", whole / 60, whole % 60) : "\(whole)s"
    }

    /// One `--json` progress line on stderr.
    struct ProgressLine: Encodable {
        var epoch, epochs, step, steps: Int
        var loss: Double
        var examplesPerSecond: Double
        var secondsLeft: Double
        /// `contrastive` or `head` for a few-shot run's stages; absent for the softmax head.
        var stage: String?
    }

    struct FineTuningSummary: Encodable {
        var output: String
        var intents: Int
        var noneClass: Bool
        var fineTuned: String
        var pooledDimension: Int
        var epochs: Int
        var steps: Int
        var finalLoss: Double
        var seconds: Double
        var tagger: String?
        var slotLabels: Int
        var entityDefinitions: Int
        var fewShot: Bool?
        var temperature: Double?
        var threshold: Double?
        /// The scores on --validation-file of the epoch the package holds (the last one, or --keep-best's).
        var validation: FineTuningValidation?
        /// With --keep-best: the epoch the package holds, and the epochs trained (fewer than `epochs` after early stopping).
        var keptEpoch: Int?
        var trainedEpochs: Int?
    }

    /// One `--json` line on stderr after an epoch's validation.
    struct ValidationLine: Encodable {
        var epoch: Int
        var validation: FineTuningValidation
    }

    /// The --report page: the classifier's loss (and validation) curves, the slot tagger's loss per iteration.
    private func writeReport(to path: String, summary: Summary, epochs: [EpochReport], taggerLosses: [TrainingReportPage.Point],
                             utterances: Int) throws {
        var charts = TrainingReportPage.charts(for: epochs)
        if !taggerLosses.isEmpty {
            charts.append(TrainingReportPage.Chart(title: "Slot tagger loss per iteration", xLabel: "iteration",
                                                   curves: [TrainingReportPage.Curve(name: "slot tagger loss", points: taggerLosses)]))
        }
        var facts = [ReportFact("intents", "\(summary.intents)\(summary.noneClass ? " + none" : "")"),
                     ReportFact("utterances", "\(utterances)"), ReportFact("epochs", "\(summary.epochs)")]
        if let kept = epochs.last(where: \.isBest), epochs.contains(where: { $0.validationLoss != nil }) {
            facts.append(ReportFact("kept epoch", "\(kept.epoch)"))
            if let accuracy = kept.validationAccuracy { facts.append(ReportFact("validation accuracy", String(format: "%.1f %%", accuracy * 100))) }
        }
        facts.append(ReportFact("features", "\(summary.features)"))
        facts.append(ReportFact("seconds", String(format: "%.2f", summary.seconds)))
        try TrainingReportPage(title: dataset.joined(separator: ", "), subtitle: "nlu intents train -o \(output)", facts: facts, charts: charts)
            .write(to: URL(fileURLWithPath: path))
        Console.log("report written: \(path)")
    }

    struct Summary: Encodable {
        var output: String
        var intents: Int
        var noneClass: Bool
        var features: Int
        var sentenceEmbeddings: SentenceFeaturizerReference?
        var minDocumentFrequency: Int
        var epochs: Int
        var seconds: Double
        var tagger: String?
        var slotLabels: Int
        var slotFeatures: Int
        var entityDefinitions: Int
    }
}
