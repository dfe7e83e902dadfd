extension BertTokenizer {
    /// How a BERT tokenizer normalizes text and which special tokens it uses: the options of the
    /// Rust `BertNormalizer` and `WordPiece` model, with the same defaults.
    ///
    ///     var options = BertTokenizer.Options.cased
    ///     options.maxInputCharactersPerWord = 200
    public struct Options: Sendable, Equatable {
        /// Lowercase the text (uncased vocabularies).
        public var lowercase: Bool
        /// Strip accents (NFD, drop nonspacing marks); `nil` follows `lowercase`, as in Hugging Face.
        public var stripAccents: Bool?
        /// Put spaces around CJK ideographs so each is a word.
        public var handleChineseChars: Bool
        /// Drop control characters and map all whitespace to a space.
        public var cleanText: Bool
        /// The token for words that cannot be split.
        public var unknownToken: String
        /// The prefix of pieces that continue a word.
        public var continuingSubwordPrefix: String
        /// Words longer than this (in Unicode scalars) become the unknown token.
        public var maxInputCharactersPerWord: Int
        /// Classifier token at the start of every encoding.
        public var classifierToken: String
        /// Separator token after each text.
        public var separatorToken: String
        /// Padding token.
        public var paddingToken: String
        /// Tokens recognized in raw text and never split; `nil` means the standard BERT set
        /// (`[PAD]`, `[UNK]`, `[CLS]`, `[SEP]`, `[MASK]`), each one that the vocabulary holds.
        public var specialTokens: [String]?
        /// Added tokens matched in the normalized text instead (`normalized: true` in
        /// `tokenizer.json`, e.g. MPNet's `<unk>`): "<UNK>" lowercases to "<unk>" and is one token.
        public var normalizedSpecialTokens: [String] = []
        /// How special tokens frame a text (`post_processor` of `tokenizer.json`).
        public var template: Template = .bert

        /// The post-processor's template. Both put the classifier token before a single text and
        /// the separator after it; they differ for pairs.
        public enum Template: String, Sendable, Equatable {
            /// `BertProcessing` / `TemplateProcessing`: `[CLS] A [SEP] B [SEP]`.
            case bert
            /// `RobertaProcessing` (MPNet, RoBERTa): `<s> A </s> </s> B </s>`; pairs are not supported.
            case roberta
        }

        /// Makes options; the defaults are those of an uncased BERT (`bert-base-uncased`).
        public init(lowercase: Bool = true, stripAccents: Bool? = nil, handleChineseChars: Bool = true,
                    cleanText: Bool = true, unknownToken: String = "[UNK]", continuingSubwordPrefix: String = "##",
                    maxInputCharactersPerWord: Int = 100, classifierToken: String = "[CLS]",
                    separatorToken: String = "[SEP]", paddingToken: String = "[PAD]", specialTokens: [String]? = nil) {
            self.lowercase = lowercase
            self.stripAccents = stripAccents
            self.handleChineseChars = handleChineseChars
            self.cleanText = cleanText
            self.unknownToken = unknownToken
            self.continuingSubwordPrefix = continuingSubwordPrefix
            self.maxInputCharactersPerWord = maxInputCharactersPerWord
            self.classifierToken = classifierToken
            self.separatorToken = separatorToken
            self.paddingToken = paddingToken
            self.specialTokens = specialTokens
        }

        /// Uncased vocabularies: lowercase and strip accents.
        public static let uncased = Options()
        /// Cased vocabularies: keep case and accents.
        public static let cased = Options(lowercase: false)
    }
}
