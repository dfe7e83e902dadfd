import Foundation
import NLUCore
import Testing
@testable import NLUServer

/// GET /health, /version, /status, /metrics and the playground page.
@Suite("Service routes")
struct ServiceRouteTests {
    @Test func healthSaysOkWhenModelsAreLoaded() async throws {
        try await withTestServer { server in
            let response = try await server.request("GET", "/health")
            #expect(response.status == 200)
            #expect(response.headers["content-type"] == "application/json")
            #expect(response.object?["status"] as? String == "ok")
        }
    }

    @Test func versionIsTheLibraryVersion() async throws {
        try await withTestServer { server in
            let response = try await server.request("GET", "/version")
            #expect(response.status == 200)
            #expect(response.object?["version"] as? String == NLUKitVersion.string)
        }
    }

    @Test func statusListsEachServedModelWithItsPath() async throws {
        try await withTestServer { server in
            let response = try await server.request("GET", "/status")
            let models = try #require(response.object?["models"] as? [[String: Any]])
            #expect(models.map { $0["task"] as? String } == ["intents", "question-answering", "embeddings"])
            #expect(models.map { $0["path"] as? String } == ["intents-test", "qa/distilbert-tiny", "embeddings/minilm-tiny"])
            #expect(models[0]["detail"] as? String == "3 intents")
            #expect(response.object?["workers"] as? Int == 2)
        }
    }

    @Test func metricsCountRequestsByRouteAndStatusInPrometheusFormat() async throws {
        try await withTestServer { server in
            for _ in 0..<3 { _ = try await server.request("POST", "/model/parse", json: #"{"text": "turn on the radio"}"#) }
            _ = try await server.request("POST", "/model/parse", json: #"{"txt": 1}"#)
            _ = try await server.request("GET", "/no/such/route")
            let response = try await server.request("GET", "/metrics")
            #expect(response.status == 200)
            #expect(response.headers["content-type"]?.hasPrefix("text/plain") == true)
            let lines = response.text.split(separator: "\n").map(String.init)
            func value(_ prefix: String) -> Double? {
                lines.first { $0.hasPrefix(prefix) }.flatMap { Double($0.split(separator: " ").last ?? "") }
            }
            #expect(value(#"nlu_http_requests_total{route="/model/parse",method="POST",status="200"}"#) == 3)
            #expect(value(#"nlu_http_requests_total{route="/model/parse",method="POST",status="400"}"#) == 1)
            #expect(value(#"nlu_http_requests_total{route="other",method="GET",status="404"}"#) == 1)
            #expect(value(#"nlu_http_request_duration_seconds_count{route="/model/parse",method="POST",status="200"}"#) == 3)
            // Inference time is recorded only for requests that reached the model.
            #expect(value(#"nlu_inference_duration_seconds_count{task="intents"}"#) == 3)
            #expect(value(#"nlu_models_loaded{task="intents"}"#) == 1)
            #expect(value(#"nlu_models_loaded{task="question-answering"}"#) == 1)
            #expect(value(#"nlu_models_loaded{task="embeddings"}"#) == 1)
        }
    }

    @Test func playgroundPageIsServedWithNothingFromElsewhere() async throws {
        try await withTestServer { server in
            let response = try await server.request("GET", "/")
            #expect(response.status == 200)
            #expect(response.headers["content-type"] == "text/html; charset=utf-8")
            #expect(response.text.contains("<title>NLUKit playground</title>"))
            #expect(response.text.contains(#"fetch(path"#))
            // The parse answer's warnings (a regex that ran out of time) are shown, escaped like every answer text.
            #expect(response.text.contains("(answer.warnings || []).map((w) => '<p class=\"error warning\">' + escapeHTML(w)"))
            // No CDN: the page loads no script, style or font from another origin.
            #expect(!response.text.contains("http://") && !response.text.contains("https://"))
            #expect(response.headers["content-security-policy"]?.contains("default-src 'self'") == true)
        }
    }
}
