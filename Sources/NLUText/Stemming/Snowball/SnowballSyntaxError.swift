/// A Snowball source that this interpreter cannot read, with the line it stopped at.
struct SnowballSyntaxError: Error, CustomStringConvertible {
    let line: Int
    let message: String
    var description: String { "Snowball source line \(line): \(message)" }
}
