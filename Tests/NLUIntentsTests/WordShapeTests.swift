import Foundation
import NLUCore
@testable import NLUIntents
import NLUText
import Testing

/// The word shapes the joint model's slot head reads beside each word's state, and the options record that says
/// whether a model reads them.
@Suite struct WordShapeTests {
    @Test func shapesFollowTheCaseAsWritten() {
        let words = WordTokenizer().tokens(in: "Rate The Ghost House in NE or the usa, Émile")
        let features = WordShape.shapes(of: words).map(\.features)
        #expect(words.map(\.text) == ["Rate", "The", "Ghost", "House", "in", "NE", "or", "the", "usa", ",", "Émile"])
        #expect(features == [
            [0, 1, 0, 0],  // Rate: a sentence capital
            [1, 0, 0, 0],  // The: not after the sentence capital
            [1, 0, 0, 1], [1, 0, 0, 1],  // Ghost House: after a capital
            [0, 0, 0, 1],  // in
            [1, 0, 1, 0],  // NE: all capitals
            [0, 0, 0, 1], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0],
            [1, 0, 0, 0],  // Émile: a capital outside ASCII
        ])
        #expect(WordShape(word: "A", isFirst: false).features == [1, 0, 0, 0], "one letter is not all capitals")
    }

    @Test func aLowercasedUtteranceHasNoShapeFeatures() {
        let words = WordTokenizer().tokens(in: "book a table for 4 at 7pm in paris")
        #expect(WordShape.shapes(of: words).allSatisfy { $0.features == [0, 0, 0, 0] })
    }

    /// A present feature weighs √width beside states of `width` values.
    @Test func featuresAreScaledToTheStatesWidth() {
        let states = Tensor<Float>(shape: [2, 4], scalars: (0..<8).map(Float.init))
        let shapes = [WordShape(word: "The", isFirst: false), WordShape(word: "house", isFirst: false, followsCapitalized: true)]
        let joined = WordShape.appendingFeatures(of: shapes, to: states)
        #expect(joined.shape == [2, 8])
        #expect(joined.scalars == [0, 1, 2, 3, 2, 0, 0, 0, 4, 5, 6, 7, 0, 0, 0, 2])
    }

    /// Models and checkpoints saved before word shapes existed were trained without them: their options read so.
    @Test func optionsSavedWithoutTheFieldReadAsWithoutShapes() throws {
        var written = try JSONSerialization.jsonObject(with: JSONEncoder().encode(JointIntentSlotOptions())) as? [String: Any] ?? [:]
        #expect(written["wordShapes"] as? Bool == true)
        written["wordShapes"] = nil
        let old = try JSONDecoder().decode(JointIntentSlotOptions.self, from: JSONSerialization.data(withJSONObject: written))
        #expect(!old.wordShapes)
        var expected = JointIntentSlotOptions()
        expected.wordShapes = false
        #expect(old == expected)
    }
}
