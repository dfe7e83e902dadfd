/// Ordinals relative to the end or the current item in a language written without spaces, as LUIS's ordinalV2
/// resolves them (Japanese "最後" end+0, "次" current+1, "前" current-1, "最後から三番目" end-2, "最後から一つ前" end-1).
struct CJKRelativeOrdinals: Sendable {
    /// Words that are a relative ordinal on their own, with their value.
    var words: [([Unicode.Scalar], String)]
    /// Of those, the one-character words that must stand apart from other ideographs ("前" is no ordinal in "名前",
    /// "午前" or "前年"; "次" none in "目次").
    var standAlone: ScalarSet
    /// A word after which a stand-alone word is no ordinal ("前から三番目" counts from the front).
    var notBefore: [[Unicode.Scalar]]
    /// "最後から": counting back from the end, then a number and one of `countedEndings`.
    var fromEnd: [Unicode.Scalar]
    /// Endings after "最後から" N, with what they take from N: "番目" N-1 ("最後から二番目" end-1), "つ前" N
    /// ("最後から一つ前" end-1).
    var countedEndings: [([Unicode.Scalar], Int)]
    /// Words that belong to the ordinal after it ("次のもの", "現在のこと").
    var extensions: [[Unicode.Scalar]]
}
