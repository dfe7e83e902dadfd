/// A Snowball command (the `C` of the Snowball manual), as the parser reads it from an `.sbl` source.
/// Each one succeeds or fails ("signals t or f") and may move the cursor or change the string.
/// Variables, routines, groupings and among tables are numbered slots of their ``SnowballProgram``.
indirect enum SnowballCommand: Sendable {
    /// `C1 C2 ...`: each in turn; fails at the first that fails.
    case sequence([SnowballCommand])
    /// `C1 or C2 ...`: the first that succeeds, the cursor put back before each new try.
    case or([SnowballCommand])
    /// `C1 and C2 ...`: all of them from the same cursor position.
    case and([SnowballCommand])
    case not(SnowballCommand)
    case test(SnowballCommand)
    case `try`(SnowballCommand)
    case `do`(SnowballCommand)
    case fail(SnowballCommand)
    case `repeat`(SnowballCommand)
    case goto(SnowballCommand)
    case gopast(SnowballCommand)
    case loop(SnowballExpression, SnowballCommand)
    case atleast(SnowballExpression, SnowballCommand)
    case backwards(SnowballCommand)
    /// `setlimit C1 for C2`.
    case setlimit(SnowballCommand, SnowballCommand)
    /// A literal string to match at the cursor.
    case literal([Unicode.Scalar])
    /// A string variable's value to match at the cursor.
    case stringVariable(Int)
    /// `g` (or `non g` when `negated`): the next character is (not) in grouping `g`.
    case grouping(Int, negated: Bool)
    case call(Int)
    /// `substring`: finds the among's longest match and keeps its result for the `among` that follows.
    case substring(Int)
    /// `among(...)`: matches (unless a `substring` already did) and runs the matched string's command.
    case among(Int, searched: Bool)
    case leftSlice
    case rightSlice
    /// `<- S` (`delete` is `<- ''`).
    case sliceFrom(SnowballStringValue)
    case insert(SnowballStringValue)
    case attach(SnowballStringValue)
    /// `= S`: the text from the cursor to the limit becomes S.
    case assignString(SnowballStringValue)
    /// `=> s`: the string up to the limit is copied into `s`.
    case assignTo(Int)
    /// `-> s`: the slice is copied into `s`.
    case sliceTo(Int)
    case next
    case hop(SnowballExpression)
    case tomark(SnowballExpression)
    case tolimit
    /// `$x = AE`, `$x += AE`, ... (`setmark x` is `$x = cursor`).
    case assignInteger(Int, SnowballAssignment, SnowballExpression)
    /// `$x > AE`, `$(AE1 == AE2)`, `atmark AE`, `atlimit`...
    case compare(SnowballExpression, SnowballComparison, SnowballExpression)
    case setBoolean(Int, Bool)
    case testBoolean(Int, negated: Bool)
    case alwaysTrue
    case alwaysFalse
}
