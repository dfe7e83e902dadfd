import Foundation

/// What Ctrl-C (SIGINT) or SIGTERM means to a long job. By default a signal ends the process at once, after
/// ``TemporaryFiles`` has removed its temporaries; with ``whileStoppable(notice:_:)`` the first signal only asks
/// the job to stop at its next safe point (a trainer, after its epoch, keeps the best epoch so far) and a
/// second ends the process as before. A job that keeps checkpoints sets a ``note`` saying what a stop keeps
/// and how to continue, printed on standard error when a signal ends the process.
///
///     let classifier = try Interruption.whileStoppable(notice: "stopping after this epoch") {
///         try IntentClassifier.train(on: dataset)   // polls Interruption.isRequested between epochs
///     }
///     if Interruption.isRequested { print("interrupted: the best epoch so far was kept") }
public enum Interruption {
    private final class State: @unchecked Sendable {
        let lock = NSLock()
        var stoppable: String?
        var requested = false
        var note: String?
    }
    private static let state = State()

    /// True once a signal asked the running stoppable job to stop.
    public static var isRequested: Bool { state.lock.withLock { state.requested } }

    /// Printed on standard error when a signal ends the process: what was kept and how to continue
    /// (`lm train`: the checkpoint and `--resume`). Nil prints nothing.
    public static var note: String? {
        get { state.lock.withLock { state.note } }
        set { state.lock.withLock { state.note = newValue } }
    }

    /// Runs `body` so that the first SIGINT or SIGTERM asks it to stop (``isRequested``) instead of ending the
    /// process; `notice` is printed on standard error when that happens. Needs
    /// ``TemporaryFiles/removeOnTermination()`` to have installed the handlers.
    public static func whileStoppable<T>(notice: String, _ body: () throws -> T) rethrows -> T {
        state.lock.withLock { state.stoppable = notice }
        defer { state.lock.withLock { state.stoppable = nil } }
        return try body()
    }

    /// Called by the signal thread: true when the signal only asks a stoppable job to stop (the first one),
    /// false when the process is to end; either way says what the user needs to know on standard error.
    static func absorbs(_ signalNumber: Int32) -> Bool {
        let (notice, note) = state.lock.withLock { () -> (String?, String?) in
            guard let notice = state.stoppable, !state.requested, signalNumber != SIGHUP else { return (nil, state.note) }
            state.requested = true
            return (notice, nil)
        }
        if let notice {
            try? StreamOutput.standardError.write("\n\(notice) (interrupt again to stop at once)\n")
            return true
        }
        if let note { try? StreamOutput.standardError.write("\n\(note)\n") }
        return false
    }
}
