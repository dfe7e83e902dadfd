import ArgumentParser
import NLUKit

/// How `nlu qa ask` / `nlu qa evaluate` load `--model`: a checkpoint directory or Hub id, or a Core ML `.mlmodel`
/// file (Apple's BERT-SQuAD features), which needs the WordPiece vocabulary it was trained with.
struct QAModelOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: ArgumentHelp("A checkpoint directory or Hub id (config.json, model.safetensors, vocab.txt or tokenizer.json), or a Core ML .mlmodel file with inputs wordIDs/wordTypes and outputs startLogits/endLogits.", valueName: "model"))
    var model: String

    @Option(help: ArgumentHelp("With a .mlmodel: its WordPiece vocab.txt (default: vocab.txt beside the file).", valueName: "file"))
    var vocab: String?

    @Flag(help: "With a .mlmodel: the model is cased (do not lower-case text; Apple's BERT-SQuAD is uncased).")
    var cased = false

    @OptionGroup var arithmetic: PrecisionOption

    func validate() throws {
        if !QuestionAnswererLoading.isCoreMLFile(model), vocab != nil || cased {
            throw ValidationError("--vocab and --cased apply to a .mlmodel file; a checkpoint brings its own tokenizer")
        }
    }

    func load() throws -> QuestionAnswerer {
        try QuestionAnswererLoading.load(model, vocabulary: vocab, lowercase: !cased, precision: arithmetic.precision)
    }
}
