import CoreMetrics
import Foundation
import Metrics
import Prometheus

/// The server's Prometheus metrics, recorded through swift-metrics into a registry of this server's
/// own (not the process-wide `MetricsSystem`, so several servers — tests — keep separate counts).
///
/// - `nlu_http_requests_total{route, method, status}` — requests answered.
/// - `nlu_http_request_duration_seconds{route, method, status}` — latency histogram.
/// - `nlu_inference_duration_seconds{task}` — time in the model, queueing excluded.
/// - `nlu_inference_queue_depth` — requests running or waiting for a worker.
/// - `nlu_models_loaded{task}` — 1 per model served.
public final class ServerMetrics: Sendable {
    /// The registry `/metrics` prints.
    public let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory
    private let queueDepth: CoreMetrics.Gauge

    /// A fresh registry; `models` lists the tasks served (each counted in `nlu_models_loaded`).
    public init(models: [String]) {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        // Latency buckets from 0.1 ms to 10 s: parse requests take well under a millisecond, QA
        // over a long document seconds.
        factory.defaultDurationHistogramBuckets = [
            .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .microseconds(2500),
            .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
        ]
        self.factory = factory
        queueDepth = CoreMetrics.Gauge(label: "nlu_inference_queue_depth", factory: factory)
        for task in models {
            CoreMetrics.Gauge(label: "nlu_models_loaded", dimensions: [("task", task)], factory: factory).record(1)
        }
    }

    /// Counts one answered request and its latency.
    func recordRequest(route: String, method: String, status: Int, duration: Duration) {
        let dimensions = [("route", route), ("method", method), ("status", String(status))]
        CoreMetrics.Counter(label: "nlu_http_requests_total", dimensions: dimensions, factory: factory).increment()
        Metrics.Timer(label: "nlu_http_request_duration_seconds", dimensions: dimensions, factory: factory)
            .recordNanoseconds(Self.nanoseconds(duration))
    }

    /// Records the time one model call took.
    func recordInference(task: String, duration: Duration) {
        Metrics.Timer(label: "nlu_inference_duration_seconds", dimensions: [("task", task)], factory: factory)
            .recordNanoseconds(Self.nanoseconds(duration))
    }

    /// Records how many requests are running or waiting for an inference worker.
    func recordQueueDepth(_ depth: Int) {
        queueDepth.record(depth)
    }

    /// The metrics in Prometheus' text format.
    public func exposition() -> String { registry.emitToString() }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
