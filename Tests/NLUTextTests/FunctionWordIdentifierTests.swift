import Testing
import NLUText

/// The function-word identifier names a language only when a text's function words say it clearly.
@Suite struct FunctionWordIdentifierTests {
    @Test func clearSentencesAreIdentified() {
        #expect(FunctionWordIdentifier.language(of: "Wie wird das Wetter morgen in Berlin?") == .german)
        #expect(FunctionWordIdentifier.language(of: "Is it going to rain in the morning?") == .english)
        #expect(FunctionWordIdentifier.language(of: "Quel temps fera-t-il demain, avec le vent ?") == .french)
        #expect(FunctionWordIdentifier.language(of: "Ricordami di pagare l'affitto della casa") == .italian)
    }

    @Test func shortCommandsAndSharedWordsAreNot() {
        #expect(FunctionWordIdentifier.language(of: "play jazz") == nil)
        #expect(FunctionWordIdentifier.language(of: "set alarm 7am") == nil)
        // "de" and "la" are in several lists: no language has twice the others' weight.
        #expect(FunctionWordIdentifier.language(of: "play de la soul") == nil)
        #expect(FunctionWordIdentifier.language(of: "") == nil)
    }

    @Test func danishAndNorwegianAreOneGroup() {
        #expect(FunctionWordIdentifier.isSameGroup(.danish, .norwegian))
        #expect(!FunctionWordIdentifier.isSameGroup(.danish, .swedish))
        #expect(FunctionWordIdentifier.identifies(.norwegian) && FunctionWordIdentifier.identifies(.english))
        // No stop-word list, or one too close to others' words: never identified, never checked.
        #expect(!FunctionWordIdentifier.identifies(.catalan) && !FunctionWordIdentifier.identifies(.irish))
    }
}
