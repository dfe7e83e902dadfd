/// A training run that Ctrl-C stopped early after saving what it had: printed as "Error: <message>" with exit
/// code 1, since the model is not what the command asked for, though nothing was lost.
struct TrainingInterrupted: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
