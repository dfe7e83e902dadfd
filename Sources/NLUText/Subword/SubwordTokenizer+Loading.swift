import Foundation

extension SubwordTokenizer {
    /// Loads a `tokenizer.json` whose model is `BPE` (byte-level, as GPT-2 and RoBERTa) or
    /// `Unigram` (SentencePiece, as XLM-R). Supported: normalizers `Sequence`, `Precompiled`,
    /// `Replace`, `Strip` (or none); pre-tokenizers `ByteLevel`, `Metaspace` (or a `Sequence` of
    /// one); post-processors `RobertaProcessing`, `TemplateProcessing` (`CLS $A SEP`), `BertProcessing`.
    /// Anything else is an error naming the field and value, rather than a silent difference.
    ///
    ///     let tokenizer = try SubwordTokenizer(tokenizerJSON: modelDirectory.appendingPathComponent("tokenizer.json"))
    public init(tokenizerJSON url: URL) throws {
        try self.init(tokenizerJSON: url, file: JSONFile(url: url))
    }

    init(tokenizerJSON url: URL, file: JSONFile) throws {
        let name = url.path
        func invalid(_ detail: String) -> Error { BertTokenizerError.invalidFile(file: name, detail: detail) }
        func unsupported(_ detail: String) -> Error { BertTokenizerError.unsupported(file: name, detail: detail) }
        guard let modelObject = try file.object("model") else { throw invalid("no \"model\" object") }
        let modelType = try file.string("type", in: modelObject, field: "model.type") ?? ""

        // Vocabulary by id, model first, then added tokens.
        var tokensByID: [Int: String] = [:]
        let model: Model
        switch modelType {
        case "BPE":
            guard let vocab = modelObject["vocab"] as? [String: Any] else { throw invalid("model.vocab must be an object of token → id") }
            var ids: [String: Int32] = [:]
            for (token, value) in vocab {
                guard let id = value as? Int, id >= 0, id < Int(Int32.max) else {
                    throw invalid("model.vocab[\"\(token)\"] must be a non-negative integer id")
                }
                ids[token] = Int32(id)
                tokensByID[id] = token
            }
            if let dropout = modelObject["dropout"] as? Double, dropout > 0 {
                throw unsupported("model.dropout is \(dropout); only BPE without dropout is supported")
            }
            for field in ["continuing_subword_prefix", "end_of_word_suffix"] {
                if let value = try file.string(field, in: modelObject, field: "model.\(field)"), !value.isEmpty {
                    throw unsupported("model.\(field) is \"\(value)\"; only byte-level BPE without it is supported")
                }
            }
            if try file.bool("byte_fallback", in: modelObject, field: "model.byte_fallback") == true {
                throw unsupported("model.byte_fallback is true; only byte-level BPE (which needs no fallback) is supported")
            }
            let merges = try Self.merges(modelObject["merges"], file: name)
            model = .bpe(try BytePairEncoding(
                vocabulary: ids, merges: merges, unknownToken: try file.string("unk_token", in: modelObject, field: "model.unk_token"),
                fusesUnknown: try file.bool("fuse_unk", in: modelObject, field: "model.fuse_unk") ?? false,
                ignoresMerges: try file.bool("ignore_merges", in: modelObject, field: "model.ignore_merges") ?? false,
                source: name))
        case "Unigram":
            guard let vocab = modelObject["vocab"] as? [Any] else { throw invalid("model.vocab must be a list of [piece, score]") }
            var pieces: [(String, Double)] = []
            pieces.reserveCapacity(vocab.count)
            for (id, entry) in vocab.enumerated() {
                guard let pair = entry as? [Any], pair.count == 2, let piece = pair[0] as? String,
                      let score = (pair[1] as? NSNumber)?.doubleValue, score.isFinite else {
                    throw invalid("model.vocab[\(id)] must be [piece, score]")
                }
                pieces.append((piece, score))
                tokensByID[id] = piece
            }
            guard let unknownID = modelObject["unk_id"] as? Int else {
                throw unsupported("model.unk_id is missing; a Unigram model needs its unknown piece")
            }
            model = .unigram(try UnigramModel(
                pieces: pieces, unknownID: unknownID,
                byteFallback: try file.bool("byte_fallback", in: modelObject, field: "model.byte_fallback") ?? false, source: name))
        default:
            throw unsupported("model.type is \"\(modelType)\" (supported here: BPE, Unigram)")
        }

        // Normalizer, needed to match normalized added tokens.
        let normalizer = try file.object("normalizer").map { try Self.normalizer($0, field: "normalizer", file: name) }

        var raw: [AddedTokenSplitter.Token] = [], normalized: [AddedTokenSplitter.Token] = []
        for (index, entry) in (file.root["added_tokens"] as? [[String: Any]] ?? []).enumerated() {
            guard let content = entry["content"] as? String, let id = entry["id"] as? Int, id >= 0, id < Int(Int32.max) else {
                throw invalid("added_tokens[\(index)] needs \"content\" and a non-negative \"id\"")
            }
            if entry["single_word"] as? Bool == true {
                throw unsupported("added token \"\(content)\" sets single_word, which is not supported")
            }
            if let existing = tokensByID[id], existing != content {
                throw VocabularyError.invalidIDs(source: name, detail: "added token \"\(content)\" has id \(id) of \"\(existing)\"")
            }
            tokensByID[id] = content
            var token = AddedTokenSplitter.Token(content: content, id: Int32(id), leftStrip: entry["lstrip"] as? Bool ?? false,
                                                 rightStrip: entry["rstrip"] as? Bool ?? false)
            if entry["normalized"] as? Bool ?? !(entry["special"] as? Bool ?? false), let normalizer {
                var text = AlignedText(content)
                normalizer.normalize(&text)
                token.content = text.scalars
                normalized.append(token)
            } else {
                raw.append(token)
            }
        }
        let tokens = try tokensInIDOrder(tokensByID, source: name)

        // Pre-tokenizer.
        guard let preTokenizerObject = try file.object("pre_tokenizer") else {
            throw unsupported("pre_tokenizer is missing; ByteLevel or Metaspace is expected")
        }
        let preTokenizer = try Self.preTokenizer(preTokenizerObject, field: "pre_tokenizer", file: name)

        // Post-processor: the special tokens around a sequence, offset trimming.
        func specialID(_ token: String, field: String) throws -> Int32 {
            guard let id = tokens.firstIndex(of: token) else {
                throw unsupported("\(field) names \"\(token)\", which the vocabulary lacks")
            }
            return Int32(id)
        }
        func pair(_ field: String, in processor: [String: Any]) throws -> Int32 {
            guard let pair = processor[field] as? [Any], pair.count == 2, let token = pair[0] as? String, let id = pair[1] as? Int,
                  tokens.indices.contains(id), tokens[id] == token else {
                throw invalid("post_processor.\(field) must be [token, id] of a vocabulary token")
            }
            return Int32(id)
        }
        var cls: Int32?, sep: Int32?
        var trim = (enabled: false, addPrefixSpace: false)
        if let processor = try file.object("post_processor") {
            let type = processor["type"] as? String ?? ""
            switch type {
            case "RobertaProcessing":
                cls = try pair("cls", in: processor)
                sep = try pair("sep", in: processor)
                trim = (processor["trim_offsets"] as? Bool ?? true, processor["add_prefix_space"] as? Bool ?? true)
            case "BertProcessing":
                cls = try pair("cls", in: processor)
                sep = try pair("sep", in: processor)
            case "TemplateProcessing":
                let single = processor["single"] as? [[String: Any]] ?? []
                let specials = single.compactMap { ($0["SpecialToken"] as? [String: Any])?["id"] as? String }
                guard single.count == 3, specials.count == 2, single[1]["Sequence"] != nil else {
                    throw unsupported("post_processor.single is not a \"CLS $A SEP\" template")
                }
                let map = processor["special_tokens"] as? [String: [String: Any]] ?? [:]
                func templateID(_ name: String) throws -> Int32 {
                    if let ids = map[name]?["ids"] as? [Int], ids.count == 1, tokens.indices.contains(ids[0]) { return Int32(ids[0]) }
                    return try specialID(name, field: "post_processor.single")
                }
                cls = try templateID(specials[0])
                sep = try templateID(specials[1])
            default:
                throw unsupported("post_processor.type is \"\(type)\" (supported: RobertaProcessing, TemplateProcessing, BertProcessing)")
            }
        }
        guard let cls, let sep else {
            throw unsupported("post_processor is missing: the tokens that start and end a sequence are unknown")
        }
        var pad: Int32
        if let padding = try file.object("padding"), let padToken = padding["pad_token"] as? String {
            pad = try specialID(padToken, field: "padding.pad_token")
        } else if let id = tokens.firstIndex(of: "<pad>") ?? tokens.firstIndex(of: "[PAD]") {
            pad = Int32(id)
        } else {
            pad = sep
        }
        self.init(model: model, normalizer: normalizer, preTokenizer: preTokenizer, tokens: tokens, clsID: cls, sepID: sep,
                  padID: pad, trimOffsets: trim, rawTokens: AddedTokenSplitter(raw), normalizedTokens: AddedTokenSplitter(normalized))
    }

    /// One pre-tokenizer object of `tokenizer.json`.
    static func preTokenizer(_ object: [String: Any], field: String, file: String) throws -> SubwordPreTokenizer {
        let type = object["type"] as? String ?? ""
        switch type {
        case "ByteLevel":
            return .byteLevel(addPrefixSpace: object["add_prefix_space"] as? Bool ?? true, useRegex: object["use_regex"] as? Bool ?? true)
        case "Metaspace":
            guard let replacementString = object["replacement"] as? String,
                  replacementString.unicodeScalars.count == 1, let replacement = replacementString.unicodeScalars.first else {
                throw BertTokenizerError.invalidFile(file: file, detail: "\(field).replacement must be one character")
            }
            var scheme = SubwordPreTokenizer.PrependScheme.always
            if let value = object["prepend_scheme"] as? String {
                guard let parsed = SubwordPreTokenizer.PrependScheme(rawValue: value) else {
                    throw BertTokenizerError.unsupported(file: file, detail: "\(field).prepend_scheme is \"\(value)\" (expected always, first or never)")
                }
                scheme = parsed
            }
            if object["add_prefix_space"] as? Bool == false { scheme = .never }
            return .metaspace(replacement: replacement, prependScheme: scheme, split: object["split"] as? Bool ?? true)
        case "WhitespaceSplit":
            return .whitespaceSplit
        case "Sequence":
            guard let steps = object["pretokenizers"] as? [[String: Any]] else {
                throw BertTokenizerError.invalidFile(file: file, detail: "\(field).pretokenizers must be a list")
            }
            let parsed = try steps.enumerated().map { try preTokenizer($0.element, field: "\(field).pretokenizers[\($0.offset)]", file: file) }
            // ByteLevel rewrites words as bytes: only the last step may do that.
            if parsed.dropLast().contains(where: { if case .byteLevel = $0 { return true } else { return false } }) {
                throw BertTokenizerError.unsupported(file: file, detail: "\(field): ByteLevel is supported only as the last step")
            }
            return .sequence(parsed)
        default:
            throw BertTokenizerError.unsupported(
                file: file, detail: "\(field).type is \"\(type)\" (supported: ByteLevel, Metaspace, WhitespaceSplit, Sequence)")
        }
    }

    /// `model.merges`: `["a b", ...]` (older files) or `[["a", "b"], ...]`.
    static func merges(_ value: Any?, file: String) throws -> [(String, String)] {
        guard let list = value as? [Any] else {
            throw BertTokenizerError.invalidFile(file: file, detail: "model.merges must be a list")
        }
        return try list.enumerated().map { index, entry in
            if let pair = entry as? [String], pair.count == 2 { return (pair[0], pair[1]) }
            if let line = entry as? String {
                let parts = line.split(separator: " ", omittingEmptySubsequences: false)
                if parts.count == 2 { return (String(parts[0]), String(parts[1])) }
            }
            throw BertTokenizerError.invalidFile(file: file, detail: "model.merges[\(index)] must be \"left right\" or [left, right]")
        }
    }

    /// One normalizer object of `tokenizer.json`.
    static func normalizer(_ object: [String: Any], field: String, file: String) throws -> SubwordNormalizer {
        let type = object["type"] as? String ?? ""
        switch type {
        case "Sequence":
            guard let steps = object["normalizers"] as? [[String: Any]] else {
                throw BertTokenizerError.invalidFile(file: file, detail: "\(field).normalizers must be a list")
            }
            return .sequence(try steps.enumerated().map { try normalizer($0.element, field: "\(field).normalizers[\($0.offset)]", file: file) })
        case "Precompiled":
            guard let encoded = object["precompiled_charsmap"] as? String else { return .sequence([]) }
            guard let data = Data(base64Encoded: encoded) else {
                throw BertTokenizerError.invalidFile(file: file, detail: "\(field).precompiled_charsmap is not base64")
            }
            return .precompiled(try PrecompiledCharsmap(data: data, source: file))
        case "Replace":
            guard let content = object["content"] as? String, let pattern = object["pattern"] as? [String: Any] else {
                throw BertTokenizerError.invalidFile(file: file, detail: "\(field) needs \"pattern\" and \"content\"")
            }
            if let string = pattern["String"] as? String { return .replace(.string(string), content) }
            if let regex = pattern["Regex"] as? String {
                do {
                    return .replace(.regex(try NSRegularExpressionBox(regex)), content)
                } catch {
                    throw BertTokenizerError.unsupported(file: file, detail: "\(field).pattern.Regex \"\(regex)\" is not a regular expression NLUKit can run")
                }
            }
            throw BertTokenizerError.invalidFile(file: file, detail: "\(field).pattern must be {\"String\": ...} or {\"Regex\": ...}")
        case "Strip":
            return .strip(left: object["strip_left"] as? Bool ?? true, right: object["strip_right"] as? Bool ?? true)
        default:
            throw BertTokenizerError.unsupported(
                file: file, detail: "\(field).type is \"\(type)\" (supported: Sequence, Precompiled, Replace, Strip)")
        }
    }

    /// GPT-2 / RoBERTa files without `tokenizer.json`: `vocab.json` (token → id) and `merges.txt`
    /// (one "left right" pair per line after the `#version` line), read as `RobertaTokenizerFast`
    /// converts them: byte-level pre-tokenizer (`add_prefix_space` from `tokenizer_config.json`,
    /// default false), `<s> $A </s>` with trimmed offsets, `<mask>` taking the space before it.
    ///
    ///     let tokenizer = try SubwordTokenizer(vocabJSON: dir.appendingPathComponent("vocab.json"),
    ///                                          merges: dir.appendingPathComponent("merges.txt"))
    public init(vocabJSON: URL, merges mergesURL: URL) throws {
        let name = vocabJSON.path
        guard let data = try ModelFileBytes.contents(of: vocabJSON),
              let vocab = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw BertTokenizerError.invalidFile(file: name, detail: "not a JSON object of token → id")
        }
        var ids: [String: Int32] = [:]
        var tokensByID: [Int: String] = [:]
        for (token, value) in vocab {
            guard let id = value as? Int, id >= 0, id < Int(Int32.max) else {
                throw BertTokenizerError.invalidFile(file: name, detail: "\"\(token)\" must map to a non-negative integer id")
            }
            ids[token] = Int32(id)
            tokensByID[id] = token
        }
        guard let mergesData = try ModelFileBytes.contents(of: mergesURL),
              let mergesText = String(data: mergesData, encoding: .utf8) else {
            throw BertTokenizerError.invalidFile(file: mergesURL.path, detail: "cannot read as UTF-8 text")
        }
        var merges: [(String, String)] = []
        for (index, line) in mergesText.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.isEmpty || (index == 0 && line.hasPrefix("#version")) { continue }
            let parts = line.split(separator: " ", omittingEmptySubsequences: false)
            guard parts.count == 2 else {
                throw BertTokenizerError.invalidFile(file: mergesURL.path, detail: "line \(index + 1): expected \"left right\"")
            }
            merges.append((String(parts[0]), String(parts[1])))
        }
        let directory = vocabJSON.deletingLastPathComponent()
        var config: [String: Any] = [:]
        if let configData = try ModelFileBytes.contents(of: directory.appendingPathComponent("tokenizer_config.json")) {
            config = (try? JSONSerialization.jsonObject(with: configData) as? [String: Any]) ?? [:]
        }
        func configToken(_ key: String, _ fallback: String) -> String {
            if let string = config[key] as? String { return string }
            return (config[key] as? [String: Any])?["content"] as? String ?? fallback
        }
        let addPrefixSpace = config["add_prefix_space"] as? Bool ?? false
        let tokens = try tokensInIDOrder(tokensByID, source: name)
        func require(_ token: String, _ role: String) throws -> Int32 {
            guard let id = ids[token] else { throw VocabularyError.missingToken(source: name, token: token, role: role) }
            return id
        }
        let cls = try require(configToken("cls_token", "<s>"), "classifier")
        let sep = try require(configToken("sep_token", "</s>"), "separator")
        let pad = try require(configToken("pad_token", "<pad>"), "padding")
        // RobertaTokenizer's defaults where tokenizer_config.json names no token.
        let defaults = [("bos_token", "<s>"), ("eos_token", "</s>"), ("unk_token", "<unk>"), ("cls_token", "<s>"),
                        ("sep_token", "</s>"), ("pad_token", "<pad>")]
        var special: [AddedTokenSplitter.Token] = defaults.compactMap { key, fallback in
            let token = configToken(key, fallback)
            return ids[token].map { AddedTokenSplitter.Token(content: token, id: $0) }
        }
        let mask = configToken("mask_token", "<mask>")
        if let id = ids[mask] { special.append(AddedTokenSplitter.Token(content: mask, id: id, leftStrip: true)) }
        let bpe = try BytePairEncoding(vocabulary: ids, merges: merges, source: mergesURL.path)
        self.init(model: .bpe(bpe), normalizer: nil, preTokenizer: .byteLevel(addPrefixSpace: addPrefixSpace, useRegex: true),
                  tokens: tokens, clsID: cls, sepID: sep, padID: pad, trimOffsets: (true, addPrefixSpace),
                  rawTokens: AddedTokenSplitter(special), normalizedTokens: AddedTokenSplitter([]))
    }
}
