import Foundation
import NLUTestSupport
import Testing

/// `nlu serve` whose standard error nobody reads. Last session's server stopped answering this way: its log went
/// to a pipe a benchmark script never read, each 500 logged a line, the pipe (64 KiB) filled, the logging thread
/// blocked in `fwrite` holding the stream's lock, and every later request hung, SIGTERM included.
@Suite struct ServeUnreadLogTests {
    @Test func aLogNobodyReadsDoesNotStopTheServer() throws {
        let dialogue = fixturesDirectory.appendingPathComponent("dialogue/watson-car-dashboard/car_workspace.json").path
        let server = try ServeCommandTests.ServeProcess(["--dialogue", dialogue, "--port", "0", "--log-level", "info"])
        let port = try #require(server.port(), "no start line: \(server.stderr)")
        server.stopReadingStderr()
        // A line per request at `info` (about 170 bytes): 1,500 requests are four times what the pipe holds, and a
        // fifth of what the server queues (1 MiB) before it drops lines.
        let connection = try RawHTTPConnection(port: port, readTimeout: 10)
        let body = Array(#"{"message": {"text": "hello", "intents": [{"intent": "greetings", "confidence": 0.9}], "entities": []}}"#.utf8)
        var answered = 0
        for number in 0..<1500 {
            connection.sendRequest("POST", "/conversations/unread-\(number % 10)/messages",
                                   headers: ["Content-Type": "application/json"], body: body, close: false)
            let response: RawHTTPResponse
            do { response = try connection.readResponse() } catch {
                Issue.record("request \(number) was not answered within 10 s: \(error)")
                break
            }
            guard response.status == 200 else { Issue.record("request \(number): \(response.status) \(response.text)"); break }
            answered += 1
        }
        #expect(answered == 1500)
        // The reader comes back: the queued lines arrive, then the server stops as usual.
        server.resumeReadingStderr()
        kill(server.process.processIdentifier, SIGTERM)
        #expect(server.wait(seconds: 20) == 0)
        let log = server.stderr
        #expect(log.contains("path=/conversations/unread-9/messages status=200"))
        #expect(log.components(separatedBy: "path=/conversations/unread-").count - 1 == 1500)
        #expect(log.contains("stopped"))
        #expect(!log.contains("were dropped"))
    }
}
