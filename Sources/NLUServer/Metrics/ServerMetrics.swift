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
/// - `nlu_encoder_batch_requests{task}` — requests per encoder batch (``EncoderBatcher``); its `_count`
///   is the number of batches.
/// - `nlu_encoder_batch_texts{task}` — texts per encoder batch.
/// - `nlu_encoder_batch_queue{task}` — requests waiting for an encoder batch.
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
        // Batch sizes in powers of two up to the largest --max-batch.
        let sizes = (0...12).map { Double(1 << $0) }
        factory.valueHistogramBuckets["nlu_encoder_batch_requests"] = sizes
        factory.valueHistogramBuckets["nlu_encoder_batch_texts"] = sizes
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

    /// Records one encoder batch: how many requests it gathered and their texts.
    func recordBatch(task: String, requests: Int, texts: Int) {
        CoreMetrics.Recorder(label: "nlu_encoder_batch_requests", dimensions: [("task", task)], aggregate: true, factory: factory).record(requests)
        CoreMetrics.Recorder(label: "nlu_encoder_batch_texts", dimensions: [("task", task)], aggregate: true, factory: factory).record(texts)
    }

    /// Records how many requests wait for an encoder batch of `task`.
    func recordBatchQueue(task: String, waiting: Int) {
        CoreMetrics.Gauge(label: "nlu_encoder_batch_queue", dimensions: [("task", task)], factory: factory).record(waiting)
    }

    /// The metrics in Prometheus' text format.
    public func exposition() -> String { registry.emitToString() }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
