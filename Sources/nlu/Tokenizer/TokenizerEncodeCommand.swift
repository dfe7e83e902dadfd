import ArgumentParser
import Foundation
import NLUKit

/// `nlu tokenizer encode` (formerly `nlu tokenize`, still accepted): tokens, ids, type ids and
/// offsets of texts or question/context pairs.
struct TokenizerEncodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "Tokenize text exactly as Hugging Face's fast tokenizers: BERT (WordPiece), RoBERTa (byte-level BPE), XLM-R (Unigram).",
        discussion: """
        Inputs are the TEXT arguments, or else the lines of --file or of standard input (one input per \
        line). With --pair each input is a JSON object {"question": ..., "context": ...} encoded as \
        [CLS] question [SEP] context [SEP]. A --model whose tokenizer.json holds a BPE or Unigram \
        model (RoBERTa, XLM-R and their sentence-transformers models) encodes single texts as \
        <s> text </s>; --pair, --max-length, --cased and --uncased are for WordPiece vocabularies.

        Output: per input, the tokens and ids (text), or with --json one JSON object per line: \
        "tokens", "ids", "type_ids", "offsets" ([[start, end], ...] in Unicode scalars of the input, \
        [0, 0] for special tokens). With --max-length (or --pair) the line is a JSON array of such \
        objects, one per window: the context (or the text) is truncated to --max-length tokens and \
        the rest goes into overflow windows that repeat the last --stride tokens of the previous one.

        Example: nlu tokenizer encode --vocab vocab.txt --json "Hello, world!"
        """)

    @OptionGroup var arguments: TokenizerEncodeArguments

    func run() throws { try arguments.run() }
}

/// What `nlu tokenizer encode` and its former spelling `nlu tokenize` parse and run.
struct TokenizerEncodeArguments: CommandBody {
    @Option(help: ArgumentHelp("A vocab.txt (one token per line; id = line number - 1).", valueName: "file"))
    var vocab: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("A model directory with tokenizer.json, or vocab.txt and tokenizer_config.json.", valueName: "dir"))
    var model: String?

    @Flag(help: "Keep case and accents (cased vocabularies).")
    var cased = false

    @Flag(help: "Lowercase and strip accents (the default with --vocab).")
    var uncased = false

    @Flag(help: "Inputs are JSON objects {\"question\": ..., \"context\": ...}.")
    var pair = false

    @Option(help: ArgumentHelp("Maximum tokens per window, special tokens included.", valueName: "n"))
    var maxLength: Int?

    @Option(help: ArgumentHelp("Tokens repeated from the previous window (with --max-length).", valueName: "n"))
    var stride: Int = 0

    @Option(help: ArgumentHelp("Read inputs from this file (one per line) instead of standard input.", valueName: "file"))
    var file: String?

    @Flag(help: "Print one JSON object (or array of windows) per input on stdout.")
    var json = false

    @Argument(help: "Texts to tokenize (each argument is one input).")
    var texts: [String] = []

    @OptionGroup var inputSize: InputSizeOption

    func validate() throws {
        guard (vocab == nil) != (model == nil) else {
            throw ValidationError("give exactly one of --vocab FILE or --model DIR")
        }
        guard !(cased && uncased) else { throw ValidationError("--cased and --uncased exclude each other") }
        if let maxLength, maxLength < 3 {
            throw ValidationError("--max-length must be at least 3 (room for the special tokens), got \(maxLength)")
        }
        guard stride >= 0 else { throw ValidationError("--stride must not be negative, got \(stride)") }
        guard stride == 0 || maxLength != nil else { throw ValidationError("--stride needs --max-length") }
        // A window holds max-length minus the special tokens ([CLS] [SEP], and a second [SEP] for pairs);
        // the stride must leave room to move forward, or no text could ever be tokenized.
        if let maxLength, stride > 0 {
            let room = maxLength - (pair ? 3 : 2)
            guard stride < room else {
                throw ValidationError("--stride (\(stride)) must be smaller than the \(room) tokens a window of --max-length \(maxLength) holds besides its special tokens")
            }
        }
        guard file == nil || texts.isEmpty else { throw ValidationError("give TEXT arguments or --file, not both") }
    }

    func run() throws {
        if let model, vocab == nil,
           let subword = try loadEncoderTokenizer(modelDirectory: try ModelLocator.resolve(model)) as? SubwordTokenizer {
            guard !pair, maxLength == nil, !cased, !uncased else {
                throw ValidationError("--pair, --max-length, --cased and --uncased need a WordPiece (BERT) tokenizer; \(model) has a BPE or Unigram tokenizer.json")
            }
            var output = TokenizeOutput(json: json, windowed: false)
            try forEachInput { input, _ in output.write([subword.encode(input)]) }
            output.flush()
            return
        }
        let tokenizer = try makeTokenizer()
        var output = TokenizeOutput(json: json, windowed: pair || maxLength != nil)
        try forEachInput { input, number in
            if pair {
                let (question, context) = try Self.parsePair(input, line: number)
                output.write(try tokenizer.encodePair(question, context, maxLength: maxLength, stride: stride))
            } else if let maxLength {
                output.write(try tokenizer.encode(input, maxLength: maxLength, stride: stride))
            } else {
                output.write([tokenizer.encode(input)])
            }
        }
        output.flush()
    }

    private func makeTokenizer() throws -> BertTokenizer {
        if let vocab {
            var options = BertTokenizer.Options.uncased
            options.lowercase = !cased
            let vocabulary: Vocabulary
            do {
                vocabulary = try Vocabulary(contentsOf: URL(fileURLWithPath: vocab))
            } catch VocabularyError.directory {
                // The usual mix-up: a model directory given to the option for its vocab.txt.
                throw ValidationError("--vocab takes a vocab.txt file, and \(vocab) is a directory; for a model directory use --model \(vocab)")
            }
            return try BertTokenizer(vocabulary: vocabulary, options: options)
        }
        let directory = try ModelLocator.resolve(model ?? ".")
        let tokenizer = try BertTokenizer(modelDirectory: directory)
        guard cased || uncased else { return tokenizer }
        var options = tokenizer.options
        options.lowercase = uncased
        options.stripAccents = nil
        return try BertTokenizer(vocabulary: tokenizer.vocabulary, options: options)
    }

    /// Calls `body` with each input and its number from 1: the arguments, or the lines of --file /
    /// standard input as they are read (one held at a time).
    private func forEachInput(_ body: (String, Int) throws -> Void) throws {
        if !texts.isEmpty {
            for (index, text) in texts.enumerated() { try body(text, index + 1) }
            return
        }
        var number = 0
        // Every scalar kept: Hugging Face keeps a line's leading U+FEFF (no token, but every offset counts it).
        try Console.forEachLine(path: file, keepingByteOrderMark: true) { line in
            number += 1
            try body(line, number)
        }
    }

    private static func parsePair(_ input: String, line: Int) throws -> (String, String) {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(input.utf8))) as? [String: Any],
              let question = object["question"] as? String, let context = object["context"] as? String
        else {
            throw InputError("input \(line): expected a JSON object {\"question\": \"...\", \"context\": \"...\"}")
        }
        return (question, context)
    }
}
