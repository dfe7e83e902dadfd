import Foundation

extension BertTokenizer {
    /// Loads the tokenizer of a Hugging Face model directory: `tokenizer.json` when present (WordPiece
    /// model, `BertNormalizer` options, added tokens), otherwise `vocab.txt` with the options of
    /// `tokenizer_config.json` (`do_lower_case`, `strip_accents`, `tokenize_chinese_chars`, special
    /// tokens; `do_lower_case` defaults to true as in `transformers`).
    ///
    ///     let tokenizer = try BertTokenizer(modelDirectory: URL(fileURLWithPath: "models/bert-base-uncased"))
    public init(modelDirectory: URL) throws {
        let tokenizerJSON = modelDirectory.appendingPathComponent("tokenizer.json")
        if FileManager.default.fileExists(atPath: tokenizerJSON.path) {
            try self.init(tokenizerJSON: tokenizerJSON)
            return
        }
        let vocabURL = modelDirectory.appendingPathComponent("vocab.txt")
        guard FileManager.default.fileExists(atPath: vocabURL.path) else {
            throw BertTokenizerError.noVocabulary(directory: modelDirectory.path)
        }
        var options = Options.uncased
        let configURL = modelDirectory.appendingPathComponent("tokenizer_config.json")
        if FileManager.default.fileExists(atPath: configURL.path) {
            let config = try JSONFile(url: configURL)
            options.lowercase = try config.bool("do_lower_case") ?? true
            options.stripAccents = try config.bool("strip_accents")
            options.handleChineseChars = try config.bool("tokenize_chinese_chars") ?? true
            options.unknownToken = try config.tokenName("unk_token") ?? options.unknownToken
            options.classifierToken = try config.tokenName("cls_token") ?? options.classifierToken
            options.separatorToken = try config.tokenName("sep_token") ?? options.separatorToken
            options.paddingToken = try config.tokenName("pad_token") ?? options.paddingToken
        }
        let vocabulary = try Vocabulary(contentsOf: vocabURL)
        do {
            try self.init(vocabulary: vocabulary, options: options)
        } catch let VocabularyError.missingToken(source, token, role) where FileManager.default.fileExists(atPath: configURL.path) {
            // The special tokens may come from tokenizer_config.json: name both files.
            throw VocabularyError.missingToken(source: "\(source) (special tokens from \(configURL.lastPathComponent))", token: token, role: role)
        }
    }

    /// Loads a `tokenizer.json` whose model is WordPiece with a `BertNormalizer` (or none) and a
    /// `BertPreTokenizer`, post-processed by `BertProcessing`, a `[CLS] $A [SEP]` `TemplateProcessing`
    /// or `RobertaProcessing` (MPNet: `<s> $A </s>`). Configurations this implementation would not
    /// reproduce exactly (another model or pre-tokenizer, added tokens with `single_word`, special
    /// ids of the post-processor that differ from the vocabulary's) are errors rather than silent
    /// differences.
    ///
    ///     let tokenizer = try BertTokenizer(tokenizerJSON: url)
    public init(tokenizerJSON url: URL) throws {
        let file = try JSONFile(url: url)
        let name = url.lastPathComponent
        guard let model = try file.object("model") else {
            throw BertTokenizerError.invalidFile(file: name, detail: "no \"model\" object")
        }
        let modelType = try file.string("type", in: model, field: "model.type") ?? "WordPiece"
        guard modelType == "WordPiece" else {
            throw BertTokenizerError.unsupported(file: name, detail: "model.type is \"\(modelType)\"; only WordPiece models are supported")
        }
        guard let vocab = model["vocab"] as? [String: Any] else {
            throw BertTokenizerError.invalidFile(file: name, detail: "model.vocab must be an object of token → id")
        }
        var options = Options.uncased
        options.unknownToken = try file.string("unk_token", in: model, field: "model.unk_token") ?? "[UNK]"
        options.continuingSubwordPrefix = try file.string("continuing_subword_prefix", in: model,
                                                          field: "model.continuing_subword_prefix") ?? "##"
        if let maxChars = model["max_input_chars_per_word"] {
            guard let value = maxChars as? Int, value >= 1 else {
                throw BertTokenizerError.invalidFile(file: name, detail: "model.max_input_chars_per_word must be an integer of at least 1, got \(maxChars)")
            }
            options.maxInputCharactersPerWord = value
        }
        // Normalizer: BertNormalizer or none.
        if let normalizer = try file.object("normalizer") {
            let type = try file.string("type", in: normalizer, field: "normalizer.type") ?? ""
            guard type == "BertNormalizer" else {
                throw BertTokenizerError.unsupported(file: name, detail: "normalizer.type is \"\(type)\"; only BertNormalizer is supported")
            }
            options.cleanText = try file.bool("clean_text", in: normalizer, field: "normalizer.clean_text") ?? true
            options.handleChineseChars = try file.bool("handle_chinese_chars", in: normalizer, field: "normalizer.handle_chinese_chars") ?? true
            options.lowercase = try file.bool("lowercase", in: normalizer, field: "normalizer.lowercase") ?? true
            options.stripAccents = try file.bool("strip_accents", in: normalizer, field: "normalizer.strip_accents")
        } else {
            options = Options(lowercase: false, stripAccents: false, handleChineseChars: false, cleanText: false,
                              unknownToken: options.unknownToken, continuingSubwordPrefix: options.continuingSubwordPrefix,
                              maxInputCharactersPerWord: options.maxInputCharactersPerWord)
        }
        let preTokenizer = try file.object("pre_tokenizer")
        let preTokenizerType = try preTokenizer.flatMap { try file.string("type", in: $0, field: "pre_tokenizer.type") }
        guard preTokenizerType == "BertPreTokenizer" else {
            throw BertTokenizerError.unsupported(file: name, detail: "pre_tokenizer is \(preTokenizerType.map { "\"\($0)\"" } ?? "missing"); only BertPreTokenizer is supported")
        }
        // Vocabulary: model.vocab plus added tokens, ids exactly 0..<count.
        var tokensByID: [Int: String] = [:]
        for (token, value) in vocab {
            guard let id = value as? Int, id >= 0 else {
                throw BertTokenizerError.invalidFile(file: name, detail: "model.vocab[\"\(token)\"] must be a non-negative integer id")
            }
            if let other = tokensByID[id] {
                throw VocabularyError.invalidIDs(source: name, detail: "id \(id) is used by \"\(other)\" and \"\(token)\"")
            }
            tokensByID[id] = token
        }
        var specialTokens: [String] = [], normalizedSpecialTokens: [String] = []
        let addedTokens = file.root["added_tokens"] as? [[String: Any]] ?? []
        for added in addedTokens {
            guard let content = added["content"] as? String, let id = added["id"] as? Int else {
                throw BertTokenizerError.invalidFile(file: name, detail: "added_tokens entries need \"content\" and \"id\"")
            }
            // `lstrip` / `rstrip` make the token swallow the whitespace beside it, which
            // BertPreTokenizer drops anyway: ids and offsets come out the same without them.
            if added["single_word"] as? Bool == true {
                throw BertTokenizerError.unsupported(file: name, detail: "added token \"\(content)\" sets single_word, which is not supported")
            }
            if let existing = tokensByID[id], !existing.utf8.elementsEqual(content.utf8) {
                throw VocabularyError.invalidIDs(source: name, detail: "added token \"\(content)\" has id \(id) of \"\(existing)\"")
            }
            tokensByID[id] = content
            if added["normalized"] as? Bool == true {
                normalizedSpecialTokens.append(content)
            } else {
                specialTokens.append(content)
            }
        }
        let tokens = try tokensInIDOrder(tokensByID, source: name)
        options.specialTokens = specialTokens
        options.normalizedSpecialTokens = normalizedSpecialTokens
        // `[token, id]` of a post-processor, its id checked against the vocabulary's (the
        // post-processor writes its own id, so a mismatch would silently differ).
        func processorToken(_ field: String, in processor: [String: Any]) throws -> String? {
            guard let pair = processor[field] as? [Any] else { return nil }
            guard pair.count == 2, let token = pair[0] as? String, let id = pair[1] as? Int else {
                throw BertTokenizerError.invalidFile(file: name, detail: "post_processor.\(field) must be [token, id]")
            }
            guard id >= 0, id < tokens.count, tokens[id].utf8.elementsEqual(token.utf8) else {
                throw BertTokenizerError.unsupported(
                    file: name, detail: "post_processor.\(field) gives \"\(token)\" the id \(id), the vocabulary \(tokens.firstIndex(of: token).map { "gives it \($0)" } ?? "lacks it")")
            }
            return token
        }
        // Special tokens of the post-processor and padding.
        if let processor = try file.object("post_processor") {
            let type = try file.string("type", in: processor, field: "post_processor.type") ?? ""
            switch type {
            case "BertProcessing", "RobertaProcessing":
                if let cls = try processorToken("cls", in: processor) { options.classifierToken = cls }
                if let sep = try processorToken("sep", in: processor) { options.separatorToken = sep }
                options.template = type == "RobertaProcessing" ? .roberta : .bert
            case "TemplateProcessing":
                let single = processor["single"] as? [[String: Any]] ?? []
                let specials = single.compactMap { ($0["SpecialToken"] as? [String: Any])?["id"] as? String }
                guard specials.count == 2, single.count == 3 else {
                    throw BertTokenizerError.unsupported(file: name, detail: "post_processor template is not \"[CLS] $A [SEP]\"")
                }
                options.classifierToken = specials[0]
                options.separatorToken = specials[1]
            default:
                throw BertTokenizerError.unsupported(file: name, detail: "post_processor.type is \"\(type)\"; only BertProcessing, RobertaProcessing and TemplateProcessing are supported")
            }
        }
        if let padding = try file.object("padding"), let padToken = padding["pad_token"] as? String {
            options.paddingToken = padToken
        }
        try self.init(vocabulary: try Vocabulary(tokens: tokens, source: name), options: options)
    }

    /// `model_max_length` from `tokenizer_config.json` in `directory`, when present and sensible
    /// (`transformers` writes 1e30 for "no limit": that reads as nil).
    ///
    ///     BertTokenizer.modelMaxLength(in: modelDirectory)   // 512
    public static func modelMaxLength(in directory: URL) -> Int? {
        let url = directory.appendingPathComponent("tokenizer_config.json")
        guard let data = (try? ModelFileBytes.contents(of: url)) ?? nil,
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let value = object["model_max_length"] as? NSNumber else { return nil }
        let length = value.doubleValue
        return length >= 1 && length < 1e9 ? Int(length) : nil
    }
}
