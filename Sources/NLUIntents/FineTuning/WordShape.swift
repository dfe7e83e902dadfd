import NLUCore
import NLUText

/// How a word is written: the case an uncased encoder (all-MiniLM-L6-v2, all-mpnet-base-v2, BERT uncased)
/// lowercases away before it reads the text, given to the joint model's slot head beside the word's hidden
/// state. Titles and names are written with capitals ("rate **The** Ghost House", "the movie the **Heart Beat**"):
/// without the case the tagger cannot tell whether a leading "the" belongs to the mention, which the CRF
/// tagger's shape features can (docs/entities.md, "Word shapes").
///
/// Four features, 0 or 1: a capital initial inside the utterance, a capital initial on its first word (where
/// a sentence capital says less about a name), a word of capitals only (two letters or more: "NE", "USA"), and
/// a capital initial on the word before, inside the utterance: whether "Ghost" in "The Ghost House" goes on a
/// mention that "The" opened, which a head reading one word at a time cannot see otherwise.
/// A text without capitals gives zeros throughout, so a lowercased dataset trains as without them.
///
///     WordShape.shapes(of: WordTokenizer().tokens(in: "rate The Ghost House")).map(\.features)
///     // [[0, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 1], [1, 0, 0, 1]]
public struct WordShape: Sendable, Equatable {
    /// The word's first character is an upper-case letter.
    public var capitalized: Bool
    /// The word has two letters or more, all upper case.
    public var allCapitals: Bool
    /// The word is the utterance's first.
    public var isFirst: Bool
    /// The word before is capitalized and not the utterance's first.
    public var followsCapitalized: Bool

    /// The number of ``features`` a word has: the slot head's extra inputs.
    public static let featureCount = 4

    /// Whether a slot head of `inputSize` inputs over states of `hidden` values reads word shapes: its input is then
    /// `hidden` + ``featureCount`` wide. The width is the one record of it, in training and in a saved package.
    public static func areRead(bySlotHeadOf inputSize: Int, hidden: Int) -> Bool { inputSize == hidden + featureCount }

    /// A shape from its parts.
    public init(capitalized: Bool, allCapitals: Bool, isFirst: Bool, followsCapitalized: Bool) {
        self.capitalized = capitalized
        self.allCapitals = allCapitals
        self.isFirst = isFirst
        self.followsCapitalized = followsCapitalized
    }

    /// The shape of `word` (as ``WordTokenizer`` cuts it), the utterance's first word when `isFirst`, after a
    /// capitalized word inside the utterance when `followsCapitalized`.
    public init(word: Substring, isFirst: Bool, followsCapitalized: Bool = false) {
        var letters = 0, capitals = 0
        for scalar in word.unicodeScalars where scalar.properties.isAlphabetic {
            letters += 1
            if scalar.properties.isUppercase { capitals += 1 }
        }
        capitalized = word.unicodeScalars.first?.properties.isUppercase ?? false
        allCapitals = letters >= 2 && capitals == letters
        self.isFirst = isFirst
        self.followsCapitalized = followsCapitalized
    }

    /// The shapes of an utterance's words, in order.
    public static func shapes(of words: [WordTokenizer.Token]) -> [WordShape] {
        var shapes: [WordShape] = []
        for word in words {
            let previous = shapes.last
            shapes.append(WordShape(word: word.text, isFirst: previous == nil,
                                    followsCapitalized: previous.map { $0.capitalized && !$0.isFirst } ?? false))
        }
        return shapes
    }

    /// The ``featureCount`` values, 0 or 1, the slot head reads after the word's hidden state (scaled by
    /// ``featureScale(width:)``).
    public var features: [Float] {
        [capitalized && !isFirst ? 1 : 0, capitalized && isFirst ? 1 : 0, allCapitals ? 1 : 0, followsCapitalized ? 1 : 0]
    }

    /// The value a present feature takes beside states of `width` values: √width. AdamW moves each weight by
    /// about the learning rate per step whatever its gradient, so the weight of a 0/1 input could move its
    /// logit by about 1 in a thousand steps at the heads' 1e-3, while the hidden state's `width` weights move
    /// theirs together many times faster: the case, plain in the data ("The" opens 1,170 of Snips' training
    /// mentions, "the" 52), went unlearned. Scaled, the case weighs as a hidden state does.
    public static func featureScale(width: Int) -> Float { Float(width).squareRoot() }

    /// `states` ([words, width]) with each row followed by its word's shape features (× ``featureScale(width:)``):
    /// [words, width + featureCount].
    static func appendingFeatures(of shapes: [WordShape], to states: Tensor<Float>) -> Tensor<Float> {
        let width = states.shape.last ?? 0, extra = featureCount, scale = featureScale(width: width)
        var joined = Tensor<Float>(shape: [shapes.count, width + extra])
        states.contiguous().withUnsafeBufferPointer { source in
            joined.withUnsafeMutableBufferPointer { target in
                for (row, shape) in shapes.enumerated() {
                    let base = row * (width + extra)
                    for c in 0..<width { target[base + c] = source[row * width + c] }
                    for (k, value) in shape.features.enumerated() { target[base + width + k] = value * scale }
                }
            }
        }
        return joined
    }
}
