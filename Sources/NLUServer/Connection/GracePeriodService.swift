import NIOConcurrencyHelpers
import NIOCore
import ServiceLifecycle

/// Runs a service and calls `onEnd` once its graceful shutdown has lasted the grace period: the
/// point where a stopping server gives up on what it has not finished (``InferencePool`` fails the
/// calls still queued; each connection's ``RequestDeadlineHandler`` closes it on its own timer).
struct GracePeriodService<Wrapped: Service>: Service {
    let wrapped: Wrapped
    let gracePeriod: TimeAmount
    let onEnd: @Sendable () -> Void

    init(wrapping wrapped: Wrapped, gracePeriod: TimeAmount, onEnd: @escaping @Sendable () -> Void) {
        self.wrapped = wrapped
        self.gracePeriod = gracePeriod
        self.onEnd = onEnd
    }

    func run() async throws {
        let timer = NIOLockedValueBox<Task<Void, Never>?>(nil)
        defer { timer.withLockedValue { $0?.cancel() } }   // stopped sooner: nothing left to give up on
        let gracePeriod = self.gracePeriod, onEnd = self.onEnd
        try await withGracefulShutdownHandler {
            try await wrapped.run()
        } onGracefulShutdown: {
            timer.withLockedValue { task in
                guard task == nil else { return }
                task = Task {
                    try? await Task.sleep(for: .nanoseconds(gracePeriod.nanoseconds))
                    if !Task.isCancelled { onEnd() }
                }
            }
        }
    }
}
