import Foundation
import NLUCore
import NLUText
import NLUTransformers

/// Sentence embeddings from a sentence-transformers model directory as it is on disk
/// (`modules.json`, `sentence_bert_config.json`, `1_Pooling/config.json`, `Dense` and `Normalize`
/// modules, the encoder's `config.json` + `model.safetensors`, `tokenizer.json` or `vocab.txt`),
/// computing what `SentenceTransformer(model).encode(texts)` computes.
///
///     let embedder = try SentenceEmbedder(modelDirectory: URL(fileURLWithPath: "all-MiniLM-L6-v2"))
///     let vector = try embedder.embed("A man is eating food.")          // 384 floats, unit length
///     let vectors = try embedder.embed(["A cheetah chases prey.", "A man eats pasta."])
///     let score = SentenceEmbedder.similarity(vector, vectors[1])       // cosine, 0.76
///
/// Collections are embedded in batches of texts of similar length (sorted by token count, the
/// input order restored), each batch one encoder pass; ``embed(_:options:_:)`` streams a sequence
/// of any length in bounded memory. Thread-safe: one embedder may serve concurrent requests.
public struct SentenceEmbedder: Sendable {
    /// The transformer module's encoder.
    public let encoder: EncoderModel
    /// The transformer module's tokenizer: WordPiece (``BertTokenizer``), byte-level BPE or Unigram
    /// (``SubwordTokenizer``), as its files say. Settable inside the module (and by tests, which
    /// count its calls); a caller replacing it could pair a vocabulary with the wrong encoder.
    public internal(set) var tokenizer: any EncoderTokenizer
    /// Tokens per text, special tokens included; longer texts are truncated to their first
    /// `maxSequenceLength - 2` tokens, as sentence-transformers does.
    public let maxSequenceLength: Int
    /// Whether texts are lowercased before tokenizing (`do_lower_case`).
    public let lowercasesInput: Bool
    /// The pooling modes.
    public let pooling: PoolingConfiguration
    /// Whether the model ends with a `Normalize` module (unit-length embeddings).
    public let normalizesByDefault: Bool
    /// The number of floats in each embedding.
    public let dimension: Int

    private let poolingStage: TokenPooling
    private let denseModules: [DenseModule]
    /// The model directory, for errors about what it computes.
    private let modelPath: String

    /// Loads a sentence-transformers model directory, or a plain BERT-family encoder directory
    /// (read as sentence-transformers reads one: mean pooling). The encoder's dense layers run at
    /// `precision` (``Precision/int8``: quantized at load; pooling and `Dense` modules stay F32).
    /// - Throws: ``SentenceEmbedderError`` for a directory that is not a model, an unsupported
    ///   module (named), or a bad configuration; `CheckpointError` for a missing or mis-shaped tensor.
    public init(modelDirectory: URL, precision: Precision = .f32) throws {
        let list = try ModuleList(modelDirectory: modelDirectory)
        let transformerDirectory = list.modules[0].directory
        encoder = try EncoderModel(modelDirectory: transformerDirectory, precision: precision)
        tokenizer = try loadEncoderTokenizer(modelDirectory: transformerDirectory)
        let sentenceConfig = try SentenceBertConfiguration.load(in: transformerDirectory)
        let positions = encoder.configuration.maxSequenceLength
        maxSequenceLength = min(sentenceConfig.max_seq_length ?? BertTokenizer.modelMaxLength(in: transformerDirectory) ?? positions,
                                positions)
        // [CLS] and [SEP] take 2 of them: truncating a text to a negative length would trap.
        guard maxSequenceLength >= 3 else {
            throw SentenceEmbedderError.invalidFile(
                path: transformerDirectory.path,
                reason: "the longest input is \(maxSequenceLength) tokens (max_seq_length, else tokenizer_config.json's "
                    + "model_max_length, at most config.json's position count \(positions)), which leaves no room for text (expected at least 3)")
        }
        lowercasesInput = sentenceConfig.do_lower_case ?? false
        let hiddenSize = encoder.configuration.hiddenSize

        var pooling: PoolingConfiguration?
        var dense: [DenseModule] = []
        var normalizes = false
        var width = hiddenSize
        for (kind, directory) in list.modules.dropFirst() {
            let modulesFile = modelDirectory.appendingPathComponent("modules.json").path
            switch kind {
            case .transformer:
                break   // ModuleList admits only the first
            case .pooling:
                guard pooling == nil else {
                    throw SentenceEmbedderError.invalidFile(path: modulesFile, reason: "more than one Pooling module")
                }
                let configuration = try PoolingConfiguration(directory: directory)
                if let expected = configuration.embeddingDimension, expected != hiddenSize {
                    throw SentenceEmbedderError.invalidFile(
                        path: directory.appendingPathComponent("config.json").path,
                        reason: "embedding dimension \(expected) does not match the encoder's hidden size \(hiddenSize)")
                }
                pooling = configuration
                width = configuration.modes.count * hiddenSize
            case .dense:
                guard pooling != nil else {
                    throw SentenceEmbedderError.invalidFile(path: modulesFile, reason: "a Dense module before Pooling (on token embeddings) is not supported")
                }
                let module = try DenseModule(directory: directory)
                guard module.inputSize == width else {
                    throw SentenceEmbedderError.invalidFile(
                        path: directory.appendingPathComponent("config.json").path,
                        reason: "in_features \(module.inputSize) does not match the \(width) floats the previous module gives")
                }
                dense.append(module)
                width = module.outputSize
            case .normalize:
                guard pooling != nil else {
                    throw SentenceEmbedderError.invalidFile(path: modulesFile, reason: "a Normalize module before Pooling is not supported")
                }
                normalizes = true
            }
        }
        guard let pooling else { throw SentenceEmbedderError.notAModel(path: modelDirectory.path) }
        self.pooling = pooling
        poolingStage = TokenPooling(modes: pooling.modes, hiddenSize: hiddenSize)
        denseModules = dense
        modelPath = modelDirectory.path
        normalizesByDefault = normalizes
        dimension = width
    }

    /// The embedding of one text.
    ///
    ///     let vector = try embedder.embed("How do I reset my password?")
    public func embed(_ text: String, normalize: Bool? = nil) throws -> [Float] {
        try embed([text], options: EmbeddingOptions(batchSize: 1, normalize: normalize))[0]
    }

    /// The embeddings of `texts`, in their order.
    ///
    ///     let vectors = try embedder.embed(lines, options: EmbeddingOptions(batchSize: 64))
    public func embed<Texts: Collection>(_ texts: Texts, options: EmbeddingOptions = .init()) throws -> [[Float]]
    where Texts.Element == String {
        try embed(tokenIDs: texts.map(checkedTokenIDs), options: options)
    }

    /// The embeddings of texts already tokenized by ``tokenIDs(_:)``, in their order: the same
    /// vectors as ``embed(_:options:)`` gives for the texts, for a caller that needs the tokens
    /// first (to count them against a budget) and should not tokenize every text twice.
    ///
    ///     let sequences = texts.map(embedder.tokenIDs)
    ///     let tokens = sequences.reduce(0) { $0 + $1.count }      // checked against a budget
    ///     let vectors = try embedder.embed(tokenIDs: sequences)
    /// - Throws: ``SentenceEmbedderError/invalidOption(name:value:expected:)`` for invalid options or a
    ///   sequence that is empty or longer than ``maxSequenceLength``; the encoder's error for an id
    ///   outside the vocabulary.
    public func embed(tokenIDs sequences: [[Int32]], options: EmbeddingOptions = .init()) throws -> [[Float]] {
        try options.validate()
        // The encoder has positions for maxSequenceLength tokens at most, and pooling an empty sequence
        // would divide by zero.
        if let index = sequences.firstIndex(where: { !(1...maxSequenceLength).contains($0.count) }) {
            throw SentenceEmbedderError.invalidOption(
                name: "token ids [\(index)]", value: "of \(sequences[index].count) tokens",
                expected: "1...\(maxSequenceLength) tokens, as tokenIDs(_:) makes them")
        }
        var vectors: [[Float]] = []
        vectors.reserveCapacity(sequences.count)
        try embedWindow(sequences, options: options) { vectors.append($0) }
        return vectors
    }

    /// Embeds a sequence of any length, handing each embedding to `body` in input order, holding at
    /// most `options.sortWindow` texts at a time.
    ///
    ///     try embedder.embed(linesOfAHugeFile, options: .init()) { vector in write(vector) }
    public func embed<Texts: Sequence>(_ texts: Texts, options: EmbeddingOptions = .init(),
                                       _ body: ([Float]) throws -> Void) throws where Texts.Element == String {
        try options.validate()
        var window: [String] = []
        window.reserveCapacity(min(options.sortWindow, 65536))
        for text in texts {
            window.append(text)
            if window.count == options.sortWindow {
                try embedWindow(window.map(checkedTokenIDs), options: options, body)
                window.removeAll(keepingCapacity: true)
            }
        }
        if !window.isEmpty { try embedWindow(window.map(checkedTokenIDs), options: options, body) }
    }

    /// Cosine similarity of two embeddings (0 when either is all zeros).
    ///
    ///     SentenceEmbedder.similarity([1, 0], [1, 1])   // 0.7071
    public static func similarity(_ a: [Float], _ b: [Float]) -> Float {
        precondition(a.count == b.count, "embeddings of different dimensions")
        var dot: Float = 0, normA: Float = 0, normB: Float = 0
        for i in 0..<a.count {
            dot += a[i] * b[i]
            normA += a[i] * a[i]
            normB += b[i] * b[i]
        }
        let denominator = (normA * normB).squareRoot()
        return denominator > 0 ? dot / denominator : 0
    }

    /// Cosine similarity of two texts' embeddings.
    ///
    ///     try embedder.similarity("A man is eating food.", "A man is eating pasta.")   // 0.75
    public func similarity(_ first: String, _ second: String) throws -> Float {
        let vectors = try embed([first, second])
        return Self.similarity(vectors[0], vectors[1])
    }

    /// The token ids the encoder sees for `text`: `[CLS] tokens [SEP]` (`<s> tokens </s>`), truncated to `maxSequenceLength`.
    /// `text` must be at most ``TextLengthLimit/maximumUTF8Bytes`` long (a precondition; the `embed` methods check it and throw).
    public func tokenIDs(_ text: String) -> [Int32] {
        [tokenizer.clsID] + pieces(of: text).ids.prefix(maxSequenceLength - 2) + [tokenizer.sepID]
    }

    /// ``tokenIDs(_:)`` after ``TextLengthLimit/check(_:name:)``.
    private func checkedTokenIDs(_ text: String) throws -> [Int32] {
        try TextLengthLimit.check(text)
        return tokenIDs(text)
    }

    /// The tokens of `text` as sentence-transformers' `Transformer.tokenize` makes them: the text
    /// stripped of surrounding whitespace (Python's `str.strip()`, which byte-level BPE and
    /// SentencePiece would otherwise turn into tokens), lowercased if `do_lower_case`; offsets
    /// count from the start of `text` as given.
    func pieces(of text: String) -> TokenizedSequence {
        let scalars = text.unicodeScalars
        let leading = scalars.prefix(while: Self.isPythonSpace).count
        let kept = scalars.dropFirst(leading).reversed().drop(while: Self.isPythonSpace).count
        var trimmed = String.UnicodeScalarView()
        trimmed.append(contentsOf: scalars.dropFirst(leading).prefix(kept))
        var sequence = tokenizer.tokenize(lowercasesInput ? String(trimmed).lowercased() : String(trimmed))
        if leading > 0 {
            sequence.offsets = sequence.offsets.map { ($0.lowerBound + leading)..<($0.upperBound + leading) }
        }
        return sequence
    }

    /// Python's `str.isspace()` for one scalar: Unicode White_Space plus the information
    /// separators U+001C...U+001F, which Python counts as whitespace too.
    static func isPythonSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || (0x1C...0x1F).contains(scalar.value)
    }

    /// Embeds the token sequences `ids` sorted by length in batches, then hands the vectors to `body` in input order.
    private func embedWindow(_ ids: [[Int32]], options: EmbeddingOptions, _ body: ([Float]) throws -> Void) throws {
        // Longest first, as sentence-transformers orders (stable, so equal lengths keep their order).
        let order = ids.indices.sorted { ids[$0].count > ids[$1].count || (ids[$0].count == ids[$1].count && $0 < $1) }
        let batches = stride(from: 0, to: order.count, by: options.batchSize).map {
            Array(order[$0..<min($0 + options.batchSize, order.count)])
        }
        let normalize = options.normalize ?? normalizesByDefault
        var outputs = [[[Float]]](repeating: [], count: batches.count)
        // Tokens of the largest batch, the first (longest sequences first).
        let longest = order.first.map { ids[$0].count * (batches.first?.count ?? 0) } ?? 0
        if batches.count > 1, Kernels.threadCount > 1, longest <= Self.sideBySideTokens {
            // Short batches side by side, one whole batch per thread (its kernels then run on that
            // thread): products this small lose to splitting over threads, and the other core
            // idled through each batch's serial steps.
            var failure: Error?
            let lock = NSLock()
            Kernels.parallelFor(batches.count) { index in
                do {
                    let vectors = try embedBatch(batches[index].map { ids[$0] }, normalize: normalize)
                    lock.withLock { outputs[index] = vectors }
                } catch {
                    lock.withLock { failure = failure ?? error }
                }
            }
            if let failure { throw failure }
        } else {
            for (index, members) in batches.enumerated() {
                outputs[index] = try embedBatch(members.map { ids[$0] }, normalize: normalize)
            }
        }
        var results = [[Float]](repeating: [], count: ids.count)
        for (members, vectors) in zip(batches, outputs) {
            for (member, vector) in zip(members, vectors) { results[member] = vector }
        }
        for vector in results { try body(vector) }
    }

    /// Batches of at most this many tokens (padded) run side by side, one per thread; longer ones
    /// split each product over the threads instead, holding only one batch's activations.
    static let sideBySideTokens = 4096

    /// One encoder pass over `sequences`, then pooling, the Dense modules and normalization.
    /// `inspect(row, states)` sees each row's last hidden states (`[CLS] pieces [SEP]`, hidden size
    /// floats per token) before they are released: the word vectors of ``embedWithWordVectors(_:words:options:)``.
    func embedBatch(_ sequences: [[Int32]], normalize: Bool,
                    inspect: ((Int, UnsafePointer<Float>) -> Void)? = nil) throws -> [[Float]] {
        let batch = try EncoderBatch(tokenIDs: sequences, padID: tokenizer.padID)
        let workspace = try encoder.encode(batch)
        let rows = sequences.count
        if let inspect {
            let rowSize = batch.sequenceLength * encoder.configuration.hiddenSize
            for row in 0..<rows { inspect(row, workspace.hidden + row * rowSize) }
        }
        var current = [Float](repeating: 0, count: rows * poolingStage.outputSize)
        current.withUnsafeMutableBufferPointer { pooled in
            guard let base = pooled.baseAddress else { return }
            for (row, sequence) in sequences.enumerated() {
                poolingStage.pool(workspace.hidden, row: row, sequenceLength: batch.sequenceLength, length: sequence.count,
                                  into: base + row * poolingStage.outputSize)
            }
        }
        withExtendedLifetime(workspace) {}
        for module in denseModules {
            var next = [Float](repeating: 0, count: rows * module.outputSize)
            current.withUnsafeBufferPointer { input in
                next.withUnsafeMutableBufferPointer { output in
                    guard let inputBase = input.baseAddress, let outputBase = output.baseAddress else { return }
                    module.apply(inputBase, rows: rows, into: outputBase)
                }
            }
            current = next
        }
        let width = dimension
        return try (0..<rows).map { row in
            var vector = Array(current[(row * width)..<((row + 1) * width)])
            if normalize { L2Normalization().normalize(&vector) }
            // Finite weights can still overflow (values near Float's limit): a NaN here would reach
            // JSON output as `nan`, which no reader accepts, and every similarity with it.
            if let (index, value) = vector.firstNonFinite() {
                throw SentenceEmbedderError.nonFiniteOutput(model: modelPath, detail: "element \(index) of an embedding is \(value)")
            }
            return vector
        }
    }
}
