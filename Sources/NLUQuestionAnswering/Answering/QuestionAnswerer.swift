import Foundation
import NLUCore
import NLUText
import NLUTransformers

/// Extractive question answering: finds the span of a document that answers a question, with the
/// same answers as Hugging Face `transformers`' `pipeline("question-answering")` (4.57).
///
/// The document is cut into overlapping windows of `[CLS] question [SEP] context [SEP]`, all
/// windows go through the encoder in one batched pass (padded only to the longest window), and
/// spans are scored, mapped back to the document, merged and ranked as the pipeline does.
///
///     let qa = try QuestionAnswerer(modelDirectory: URL(fileURLWithPath: "distilbert-base-cased-distilled-squad"))
///     let best = try qa.answers(to: "Who jumped over the dog?",
///                               in: "The quick brown fox jumps over the lethargic dog.").first
///     print(best?.text ?? "")   // "The quick brown fox" with a trained model
public struct QuestionAnswerer: Sendable {
    /// The model that scores answer starts and ends: a checkpoint's encoder and QA head, or a Core ML file.
    public let model: any QuestionAnsweringModel
    /// The checkpoint's WordPiece tokenizer.
    public let tokenizer: BertTokenizer
    /// The tokenizer's `model_max_length` from `tokenizer_config.json`, if it states one.
    public let modelMaxLength: Int?
    /// Windows per encoder pass: bounds memory on very long documents. A window of 384 tokens of
    /// BERT-base needs about 6 MB of activations, so 24 windows (about 6,000 tokens of text, all
    /// of a ten-page document in one pass) stay within 150 MB.
    public var maxWindowsPerPass = 24

    /// Loads a Hugging Face checkpoint directory: `config.json`, `model.safetensors`, and
    /// `vocab.txt` or `tokenizer.json` (+ `tokenizer_config.json`); the encoder's dense layers run
    /// at `precision`.
    public init(modelDirectory: URL, precision: Precision = .f32) throws {
        let model = try BertQAModel(modelDirectory: modelDirectory, precision: precision)
        let tokenizer = try BertTokenizer(modelDirectory: modelDirectory)
        self.init(model: model, tokenizer: tokenizer, modelMaxLength: BertTokenizer.modelMaxLength(in: modelDirectory))
    }

    /// Combines a loaded model and tokenizer.
    public init(model: any QuestionAnsweringModel, tokenizer: BertTokenizer, modelMaxLength: Int? = nil) {
        self.model = model
        self.tokenizer = tokenizer
        self.modelMaxLength = modelMaxLength
    }

    /// The window size used when the options leave it open: min(model_max_length, 384), and never more than
    /// the model reads (a Core ML model's fixed input length).
    public var defaultMaxSequenceLength: Int { min(modelMaxLength ?? Int.max, 384, model.maxPositions) }

    /// Checks `options` against this model (ranges, the window within its positions, the stride
    /// within the window) before any text is read.
    /// - Throws: ``QuestionAnsweringError/invalidOption(name:reason:)`` naming the option.
    public func validate(_ options: AnswerOptions) throws {
        _ = try WindowSettings(options: options, defaultLength: defaultMaxSequenceLength, positions: model.maxPositions)
    }

    /// Finds the spans of `document` that best answer `question`, best first.
    ///
    ///     let answers = try qa.answers(to: "Who jumped?", in: text, options: AnswerOptions(topK: 3))
    /// - Throws: ``QuestionAnsweringError`` for an empty question or document, bad options, a
    ///   question that leaves no room for the document, or more windows than ``AnswerOptions/maxWindows``;
    ///   ``BertTokenizerError/textTooLong(name:bytes:limit:)`` for a text over ``TextLengthLimit/maximumUTF8Bytes``.
    public func answers(to question: String, in document: String, options: AnswerOptions = .init()) throws -> [Answer] {
        try answers(to: [(question, document)], options: options)[0]
    }

    /// Answers several (question, document) pairs, running the windows of all of them through the
    /// encoder together.
    public func answers(to pairs: [(question: String, document: String)], options: AnswerOptions = .init()) throws -> [[Answer]] {
        let settings = try WindowSettings(options: options, defaultLength: defaultMaxSequenceLength,
                                          positions: model.maxPositions)
        var reads: [DocumentRead] = []
        for (question, document) in pairs {
            guard !question.allSatisfy(\.isWhitespace) else { throw QuestionAnsweringError.emptyQuestion }
            guard !document.allSatisfy(\.isWhitespace) else { throw QuestionAnsweringError.emptyDocument }
            try TextLengthLimit.check(question, name: "the question")
            try TextLengthLimit.check(document, name: "the document")
            let truncated = truncatedQuestion(question, maxTokens: options.maxQuestionLength)
            let passages = options.passageSearch.map { PassageSearch.passages(of: document, for: question, limit: $0.maxPassages) }
                ?? [Passage(text: document, scalarOffset: 0)]
            var windows: [PassageWindow] = []
            for passage in passages {
                let encodings: [Encoding]
                do {
                    encodings = try tokenizer.encodePair(truncated, passage.text, maxLength: settings.maxSequenceLength,
                                                         stride: settings.stride)
                } catch {
                    // Say which options make the window too small; one the user never chose comes from the checkpoint.
                    let window = settings.maxSequenceLength
                    let origin = options.maxSequenceLength == nil && window == modelMaxLength
                        ? " (tokenizer_config.json's model_max_length)" : ""
                    let reason: String
                    switch error as? BertTokenizerError {
                    case let .strideTooLarge(stride, room)?:
                        reason = "it leaves \(room) of the \(window)-token window\(origin) for the context, and the document stride must be smaller than that (it is \(stride))"
                    case let .firstSequenceTooLong(tokens, _)?:
                        reason = "its \(tokens) tokens and 3 special tokens fill the \(window)-token window\(origin)"
                    default:
                        reason = "\(error)"
                    }
                    throw QuestionAnsweringError.questionTooLong(
                        reason: reason + "; give a larger max sequence length, a smaller document stride or a smaller max question length")
                }
                windows += encodings.map { PassageWindow(encoding: $0, scalarOffset: passage.scalarOffset) }
            }
            reads.append(DocumentRead(document: document, windows: windows))
        }
        let allWindows = reads.flatMap(\.windows)
        // Counted before the model runs: windowing is cheap, each window through the encoder is not.
        if let limit = options.maxWindows, allWindows.count > limit {
            throw QuestionAnsweringError.tooManyWindows(count: allWindows.count, limit: limit, windowLength: settings.maxSequenceLength)
        }
        let logits = try windowLogits(allWindows.map(\.encoding))
        var next = 0
        return reads.map { read in
            let count = read.windows.count
            defer { next += count }
            return rank(read, logits: Array(logits[next..<(next + count)]), options: options)
        }
    }

    /// Start/end logits of each window, from batched encoder passes.
    func windowLogits(_ encodings: [Encoding]) throws -> [(start: ArraySlice<Float>, end: ArraySlice<Float>)] {
        var result: [(start: ArraySlice<Float>, end: ArraySlice<Float>)] = []
        var first = 0
        while first < encodings.count {
            let chunk = encodings[first..<min(encodings.count, first + max(1, maxWindowsPerPass))]
            let batch = try EncoderBatch(tokenIDs: chunk.map(\.ids), tokenTypeIDs: chunk.map(\.typeIDs),
                                         padID: tokenizer.padID)
            let (start, end) = try model.logits(batch)
            for (row, encoding) in chunk.enumerated() {
                let base = row * batch.sequenceLength
                let window = base..<(base + encoding.ids.count)
                try Self.checkFinite(start[window], name: "start")
                try Self.checkFinite(end[window], name: "end")
                result.append((start[window], end[window]))
            }
            first += chunk.count
        }
        return result
    }

    /// A NaN logit scores no span (`score > 0` is false) and an infinite one makes softmax NaN: finite
    /// weights that overflow would answer nothing, or `nan` in JSON, without a word.
    private static func checkFinite(_ logits: ArraySlice<Float>, name: String) throws {
        if let (index, value) = logits.withUnsafeBufferPointer({ NonFiniteScan.first(in: $0) }) {
            throw QuestionAnsweringError.nonFiniteLogits(detail: "\(name) logit of token \(index) is \(value)")
        }
    }

    /// The pipeline's post-processing: per-window span scores, offsets back to the document,
    /// duplicates (same text, ignoring case) merged by adding scores, the null answer, top k.
    func rank(_ read: DocumentRead, logits: [(start: ArraySlice<Float>, end: ArraySlice<Float>)],
              options: AnswerOptions) -> [Answer] {
        let scalars = Array(read.document.unicodeScalars)
        let preselect = options.alignToWords ? options.topK * 2 + 10 : options.topK
        var found: [(text: String, key: [Unicode.Scalar], start: Int, end: Int, score: Double)] = []
        var minNullScore: Float = 1_000_000
        for (window, windowLogits) in zip(read.windows, logits) {
            let encoding = window.encoding
            let allowed = encoding.ids.indices.map { encoding.sequenceIDs[$0] == 1 || encoding.ids[$0] == tokenizer.clsID }
            let scored = SpanScorer.score(start: windowLogits.start, end: windowLogits.end, allowed: allowed,
                                          maxAnswerLength: options.maxAnswerLength, limit: preselect)
            if options.handleImpossibleAnswer { minNullScore = min(minNullScore, scored.nullScore) }
            for candidate in scored.candidates {
                var (start, end) = characterSpan(encoding, start: candidate.start, end: candidate.end,
                                                 alignToWords: options.alignToWords)
                start = min(max(start + window.scalarOffset, 0), scalars.count)
                end = min(max(end + window.scalarOffset, start), scalars.count)
                var text = String.UnicodeScalarView()
                text.append(contentsOf: scalars[start..<end])
                let answerText = String(text)
                let key = Array(answerText.lowercased().unicodeScalars)
                if let index = found.firstIndex(where: { $0.key == key }) {
                    found[index].score += Double(candidate.score)
                } else {
                    found.append((answerText, key, start, end, Double(candidate.score)))
                }
            }
        }
        if options.handleImpossibleAnswer {
            found.append(("", [], 0, 0, Double(minNullScore)))
        }
        // Stable: equal scores keep their order, as Python's sorted does.
        let ranked = found.enumerated().sorted { a, b in
            a.element.score != b.element.score ? a.element.score > b.element.score : a.offset < b.offset
        }
        let document = read.document
        return ranked.prefix(options.topK).map { entry in
            let answer = entry.element
            let range = document.scalarIndexRange(answer.start..<answer.end) ?? document.startIndex..<document.startIndex
            return Answer(text: answer.text, range: range, score: answer.score, start: answer.start, end: answer.end)
        }
    }

    /// The scalar offsets of tokens `start...end` in the passage; with `alignToWords`, widened to
    /// the whole words they fall in (the pipeline's `word_to_chars`, within this window).
    func characterSpan(_ encoding: Encoding, start: Int, end: Int, alignToWords: Bool) -> (Int, Int) {
        if alignToWords, let startWord = encoding.wordIDs[start], let endWord = encoding.wordIDs[end] {
            let context = encoding.ids.indices.filter { encoding.sequenceIDs[$0] == 1 }
            let startTokens = context.filter { encoding.wordIDs[$0] == startWord }
            let endTokens = context.filter { encoding.wordIDs[$0] == endWord }
            if let first = startTokens.first, let last = endTokens.last {
                return (encoding.offsets[first].lowerBound, encoding.offsets[last].upperBound)
            }
        }
        return (encoding.offsets[start].lowerBound, encoding.offsets[end].upperBound)
    }

    /// The question cut after its first `maxTokens` wordpieces (the pipeline's `max_question_len`).
    func truncatedQuestion(_ question: String, maxTokens: Int) -> String {
        let encoding = tokenizer.encode(question, addSpecialTokens: false)
        guard encoding.ids.count > maxTokens, maxTokens > 0 else { return question }
        let end = encoding.offsets[maxTokens - 1].upperBound
        return String(String.UnicodeScalarView(question.unicodeScalars.prefix(end)))
    }
}

/// The window geometry after applying defaults and checking the options.
struct WindowSettings {
    var maxSequenceLength: Int
    var stride: Int

    init(options: AnswerOptions, defaultLength: Int, positions: Int) throws {
        maxSequenceLength = options.maxSequenceLength ?? defaultLength
        stride = options.documentStride ?? min(maxSequenceLength / 2, 128)
        guard (1...1000).contains(options.topK) else {
            throw QuestionAnsweringError.invalidOption(name: "top k", reason: "must be between 1 and 1000, got \(options.topK)")
        }
        guard (1...100_000).contains(options.maxAnswerLength) else {
            throw QuestionAnsweringError.invalidOption(name: "max answer length", reason: "must be between 1 and 100000, got \(options.maxAnswerLength)")
        }
        guard (1...100_000).contains(options.maxQuestionLength) else {
            throw QuestionAnsweringError.invalidOption(name: "max question length", reason: "must be between 1 and 100000, got \(options.maxQuestionLength)")
        }
        guard maxSequenceLength >= 4, maxSequenceLength <= positions else {
            // A window the caller did not give comes from the checkpoint's files: name them.
            let origin = options.maxSequenceLength == nil
                ? " (the default window: tokenizer_config.json's model_max_length, at most 384 and config.json's positions; give a max sequence length)"
                : ""
            throw QuestionAnsweringError.invalidOption(
                name: "max sequence length", reason: "must be between 4 and the model's \(positions) positions, got \(maxSequenceLength)\(origin)")
        }
        if let maxWindows = options.maxWindows, maxWindows < 1 {
            throw QuestionAnsweringError.invalidOption(name: "max windows", reason: "must be at least 1, got \(maxWindows)")
        }
        guard stride >= 0, stride <= maxSequenceLength else {
            let window = options.maxSequenceLength == nil ? "the default max sequence length \(maxSequenceLength)" : "the max sequence length \(maxSequenceLength)"
            throw QuestionAnsweringError.invalidOption(
                name: "document stride", reason: "must be between 0 and \(window), got \(stride)")
        }
    }
}

/// One window of a passage, and where the passage starts in the document.
struct PassageWindow {
    var encoding: Encoding
    var scalarOffset: Int
}

/// The windows read for one document.
struct DocumentRead {
    var document: String
    var windows: [PassageWindow]
}
