import Foundation

/// A clock that advances `step` each time it is read. Bound as ``RegexEntityMatcher``'s budget clock, it
/// turns the regex time budget into a count of readings (ICU's progress callbacks), so a test compares what
/// patterns spend of it without timing anything: a loaded machine gives the same count as an idle one.
/// The default step makes a short text's budget about 2,000 readings: a benign pattern reads the clock about
/// once per character (48 readings for `\b\d{5}\b` over 55 characters), well inside a tenth of that.
final class SteppingClock: Clock, @unchecked Sendable {
    typealias Instant = ContinuousClock.Instant

    let step: Duration
    private let lock = NSLock()
    private let start = ContinuousClock.now
    private var readings = 0

    init(step: Duration = .microseconds(250)) {
        self.step = step
    }

    var now: Instant {
        lock.withLock {
            readings += 1
            return start.advanced(by: step * readings)
        }
    }

    var minimumResolution: Duration { step }

    /// The time that has passed on this clock: one step per reading.
    var elapsed: Duration {
        lock.withLock { step * readings }
    }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {}
}
