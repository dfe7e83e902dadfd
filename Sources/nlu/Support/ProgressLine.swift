import Foundation
import NLUKit

/// A progress line on stderr for long operations: redrawn in place (at most ten times a second)
/// on a terminal; in a log or pipe, one line per new step and per 10% so the log stays short.
final class ProgressLine {
    private let isTerminal = isatty(FileHandle.standardError.fileDescriptor) != 0
    private var lastLabel = ""
    private var lastTenth = -1
    private var lastDraw = Date.distantPast
    private var drawn = false

    func update(_ label: String, done: Int, of total: Int) {
        let percent = total > 0 ? done * 100 / total : 100
        if isTerminal {
            let now = Date()
            guard label != lastLabel || done == total || now.timeIntervalSince(lastDraw) >= 0.1 else { return }
            lastDraw = now
            let width = 30, filled = width * percent / 100
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
            try? StreamOutput.standardError.write("\r\(label)[\(bar)] \(done)/\(total)\u{1B}[K")
            drawn = true
        } else if label != lastLabel || percent / 10 > lastTenth {
            Console.log("\(label)\(done)/\(total) (\(percent)%)")
        }
        if label != lastLabel { lastTenth = -1 }
        lastLabel = label
        lastTenth = max(lastTenth, percent / 10)
    }

    /// Ends the line on a terminal.
    func finish() {
        if drawn { try? StreamOutput.standardError.write("\n") }
    }
}
