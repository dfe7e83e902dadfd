/// A Snowball stemming algorithm read from its published source (an `.sbl` file): routines,
/// groupings and among tables, ready for ``SnowballInterpreter`` to run. Reading is done once per
/// language; the program has no mutable state and is shared by every stemmer of that language.
final class SnowballProgram: Sendable {
    /// A routine body and whether it was defined inside `backwardmode (...)`.
    struct Routine: Sendable {
        var body: SnowballCommand
        var backward: Bool
    }

    let routines: [Routine]
    let groupings: [SnowballGrouping]
    let amongs: [SnowballAmong]
    let integerCount: Int
    let booleanCount: Int
    let stringCount: Int
    /// The routine `stem`, the entry point every Snowball stemmer exports.
    let entry: Int

    init(routines: [Routine], groupings: [SnowballGrouping], amongs: [SnowballAmong],
         integerCount: Int, booleanCount: Int, stringCount: Int, entry: Int) {
        self.routines = routines
        self.groupings = groupings
        self.amongs = amongs
        self.integerCount = integerCount
        self.booleanCount = booleanCount
        self.stringCount = stringCount
        self.entry = entry
    }

    /// Reads a Snowball source.
    static func read(_ source: String) throws(SnowballSyntaxError) -> SnowballProgram {
        var parser = try SnowballParser(source: source)
        return try parser.parseProgram()
    }
}
