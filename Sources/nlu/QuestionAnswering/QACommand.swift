import ArgumentParser
import NLUKit

/// `nlu qa`: extractive question answering with BERT / DistilBERT checkpoints.
struct QACommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "qa",
        abstract: "Answer questions from a text with a BERT or DistilBERT question-answering checkpoint.",
        discussion: """
        --model is a Hugging Face checkpoint directory: config.json, model.safetensors (F32, F16 or BF16) \
        and vocab.txt or tokenizer.json, e.g. distilbert-base-cased-distilled-squad saved with \
        save_pretrained(). Answers are the same as transformers' pipeline("question-answering"). nlu qa train \
        fine-tunes a checkpoint (or a sentence encoder such as all-MiniLM-L6-v2) on a SQuAD file.
        """,
        subcommands: [QAAskCommand.self, QAEvaluateCommand.self, QATrainCommand.self]
    )
}

extension QuestionAnsweringFineTuningOptions.Metric: ExpressibleByArgument {}
