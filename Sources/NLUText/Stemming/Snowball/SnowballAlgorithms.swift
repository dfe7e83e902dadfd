/// The Snowball algorithms NLUText ships (one generated file per language holds its published
/// `.sbl` source), each read into a ``SnowballProgram`` once, on first use, and shared after.
enum SnowballAlgorithms {
    /// Reads an embedded source; a failure names the algorithm (the tests read every one).
    static func read(_ name: String, _ source: String) -> Result<SnowballProgram, StemmerError> {
        Result { () throws(SnowballSyntaxError) in try SnowballProgram.read(source) }
            .mapError { StemmerError.unreadableAlgorithm(name: name, problem: $0.description) }
    }

    /// The program of `language`.
    static func program(for language: StemmerLanguage) -> Result<SnowballProgram, StemmerError> {
        switch language {
        case .arabic: arabic
        case .armenian: armenian
        case .basque: basque
        case .catalan: catalan
        case .czech: czech
        case .danish: danish
        case .dutch: dutch
        case .dutchPorter: dutchPorter
        case .english: english
        case .esperanto: esperanto
        case .estonian: estonian
        case .finnish: finnish
        case .french: french
        case .german: german
        case .greek: greek
        case .hindi: hindi
        case .hungarian: hungarian
        case .indonesian: indonesian
        case .irish: irish
        case .italian: italian
        case .lithuanian: lithuanian
        case .nepali: nepali
        case .norwegian: norwegian
        case .persian: persian
        case .polish: polish
        case .porter: porter
        case .portuguese: portuguese
        case .romanian: romanian
        case .russian: russian
        case .serbian: serbian
        case .sesotho: sesotho
        case .spanish: spanish
        case .swedish: swedish
        case .tamil: tamil
        case .turkish: turkish
        case .yiddish: yiddish
        }
    }
}
