import NLUKit

/// The lines every fine-tuning command prints for --keep-best and --early-stopping, worded once.
enum BestEpochLines {
    /// After epoch `epoch`'s validation line: the notice that early stopping ends the run there (never after
    /// the last of `epochs`, which ends it anyway), by ``BestEpochKeeper``'s rule.
    static func logEarlyStop(after epoch: Int, of epochs: Int, bestEpoch: Int?, patience: Int?, score: String) {
        guard let patience, let bestEpoch, epoch < epochs, BestEpochKeeper.stops(after: epoch, bestEpoch: bestEpoch, patience: patience) else { return }
        Console.log("early stopping: \(patience) epoch\(patience == 1 ? "" : "s") without a better \(score) since epoch \(bestEpoch); the run ends here")
    }

    /// The summary's line naming the epoch written and its score (`value`, formatted as the command prints it) on
    /// `heldOut` (the validation file, or what --validation-split held out).
    static func printKept(epoch: Int, trained: Int, score: String, value: String, on heldOut: String = "the validation file") {
        Console.print("kept epoch \(epoch) of \(trained) trained, best \(score) on \(heldOut): \(value)")
    }
}
