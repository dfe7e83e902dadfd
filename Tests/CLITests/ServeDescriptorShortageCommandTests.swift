import Foundation
import NLUTestSupport
import Testing

/// `nlu serve` when its file descriptors run out although its connections stay within `--max-connections`
/// (here its open-files limit lowered with `prlimit` while it runs): `accept` fails with EMFILE, which NIO
/// retried at once, spinning a core (6.8-9.2 CPU s in 10 s) with no client served. Now accepting pauses and
/// the connection idle the longest is closed, so the server idles and the waiting client is answered.
@Suite(.serialized) struct ServeDescriptorShortageCommandTests {
    static let prlimit = "/usr/bin/prlimit"

    /// The CPU seconds (user and system) process `pid` has used, from /proc.
    static func cpuSeconds(_ pid: Int32) throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // Fields after the command name (which may hold spaces) start at state; utime and stime are the 12th and 13th.
        let fields = stat[stat.index(after: try #require(stat.lastIndex(of: ")")))...].split(separator: " ")
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return ((Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)) / ticks
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: prlimit) && FileManager.default.fileExists(atPath: "/proc/self/fd")))
    func runningOutOfDescriptorsNeitherSpinsNorStrandsTheWaitingClient() throws {
        let server = try ServeCommandTests.ServeProcess(["--embed", fixturesDirectory.appendingPathComponent("embeddings/minilm-tiny").path, "--port", "0", "--workers", "1"],
                                                        environment: ["NLUKIT_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"])
        defer {
            server.process.terminate()
            _ = server.wait()
        }
        let port = try #require(server.port(), "no start line: \(server.stderr)")
        let pid = server.process.processIdentifier
        // Room for four more descriptors than the server holds now: far fewer than the clients below.
        let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count
        let lowered = Process()
        lowered.executableURL = URL(fileURLWithPath: Self.prlimit)
        lowered.arguments = ["--pid", "\(pid)", "--nofile=\(open + 4):\(open + 4)"]
        try lowered.run()
        lowered.waitUntilExit()
        try #require(lowered.terminationStatus == 0)

        let idle = try (0..<24).map { _ in try RawHTTPConnection(port: port, readTimeout: 60) }
        try withExtendedLifetime(idle) {
            Thread.sleep(forTimeInterval: 0.5)
            let before = try Self.cpuSeconds(pid)
            Thread.sleep(forTimeInterval: 3)
            let spent = try Self.cpuSeconds(pid) - before
            // Spinning takes most of a core (2-3 s of these 3); pausing between attempts, next to nothing.
            #expect(spent < 1, "the server used \(spent) CPU seconds in 3 s with its descriptors used up")

            // A client behind the idle ones is answered: idle connections make room for it.
            let client = try RawHTTPConnection(port: port, readTimeout: 60)
            client.sendRequest("GET", "/health")
            #expect(try client.readResponse().status == 200)
        }
        #expect(server.process.isRunning, "\(server.stderr)")
    }
}
