import Dispatch
import Foundation

/// Ends an HTTP exchange that makes no progress (the stall timeout) or outlives its download's deadline.
///
/// URLSession's own timeout restarts at every byte, so a server trickling one byte every 5 seconds held
/// `nlu models download` forever. Here progress is the response's head, or at least ``progressUnit``
/// bytes of body: anything slower than that for `stallTimeout` seconds counts as a stall (as curl's
/// `--speed-limit 1024 --speed-time N`). The checks run on a timer; `onLimit` is called once.
///
///     let watchdog = TransferWatchdog(stallTimeout: 60, deadline: TransferWatchdog.Deadline(seconds: 600))
///     watchdog.start { error in task.cancel() }
///     watchdog.received(chunk.count)
final class TransferWatchdog: @unchecked Sendable {   // its state is behind `lock`
    /// When a whole download must be over: `seconds` after it started (for the messages), `end` on the clock.
    struct Deadline: Sendable, Equatable {
        var seconds: Double
        var end: DispatchTime

        init(seconds: Double, from start: DispatchTime = .now()) {
            self.seconds = seconds
            end = start + seconds
        }

        var hasPassed: Bool { DispatchTime.now() >= end }

        /// The error an exchange fails with once the deadline has passed.
        var error: HTTPTransportError {
            HTTPTransportError(kind: .deadline(seconds: seconds), reason: "the \(TransferWatchdog.describe(seconds)) deadline passed")
        }
    }

    /// The bytes of body that count as progress: less than this within the stall timeout is a stall.
    static let progressUnit = 1024

    let stallTimeout: Double
    let deadline: Deadline?
    private let lock = NSLock()
    private var lastProgress = DispatchTime.now()
    private var bytesSinceProgress = 0
    private var timer: DispatchSourceTimer?
    private var fired = false

    init(stallTimeout: Double, deadline: Deadline?) {
        self.stallTimeout = stallTimeout
        self.deadline = deadline
    }

    /// Starts the clock; `onLimit` gets the stall or deadline error the first time a limit is passed.
    func start(onLimit: @escaping @Sendable (HTTPTransportError) -> Void) {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        // Checked a few times per timeout, at most once a second: the limit is met within a quarter of it.
        let interval = max(0.01, min(1, stallTimeout / 4))
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [self] in
            guard let error = check() else { return }
            onLimit(error)
        }
        lock.lock()
        lastProgress = .now()
        self.timer = timer
        lock.unlock()
        timer.resume()
    }

    /// The response's head arrived.
    func responded() {
        lock.lock()
        lastProgress = .now()
        bytesSinceProgress = 0
        lock.unlock()
    }

    /// `count` more bytes of body arrived.
    func received(_ count: Int) {
        lock.lock()
        bytesSinceProgress += count
        if bytesSinceProgress >= Self.progressUnit {
            lastProgress = .now()
            bytesSinceProgress = 0
        }
        lock.unlock()
    }

    /// Stops the timer (the exchange is over).
    func stop() {
        lock.lock()
        let timer = self.timer
        self.timer = nil
        fired = true
        lock.unlock()
        timer?.cancel()
    }

    /// The limit passed, once; nil while the exchange is within both.
    private func check() -> HTTPTransportError? {
        lock.lock()
        defer { lock.unlock() }
        guard !fired else { return nil }
        let now = DispatchTime.now()
        if let deadline, now >= deadline.end {
            fired = true
            return deadline.error
        }
        let idle = Double(now.uptimeNanoseconds &- lastProgress.uptimeNanoseconds) / 1e9
        guard idle >= stallTimeout else { return nil }
        fired = true
        return HTTPTransportError(kind: .stalled(seconds: stallTimeout),
                                  reason: "no progress for \(Self.describe(stallTimeout)) (less than \(Self.progressUnit) bytes)")
    }

    /// "60 s", "0.5 s".
    static func describe(_ seconds: Double) -> String {
        seconds == seconds.rounded() && seconds < 1e15 ? "\(Int64(seconds)) s" : "\(seconds) s"
    }
}
