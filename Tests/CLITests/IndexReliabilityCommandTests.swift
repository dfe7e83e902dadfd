#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import NLUTestSupport
import Testing

/// `nlu index` and `qa ask --index` on what users meet: another user's index in a folder they cannot
/// write, a damaged file, a query pasted whole, a PostgreSQL server nobody runs, a URL with a password.
@Suite struct IndexReliabilityCommandTests {
    /// Runs `nlu` as the user nobody when this process is root (whom permissions do not stop), else as
    /// this user: either way a process that cannot write what root's chmod made read-only.
    func runNLUWithoutWriting(_ arguments: [String]) throws -> NLURun {
        let setpriv = "/usr/bin/setpriv"
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: setpriv) else { return try runNLU(arguments) }
        return try runNLU(arguments, launcher: [setpriv, "--reuid", "65534", "--regid", "65534", "--clear-groups"])
    }

    /// An index file of another user (mode 444) in a folder nobody else may write (555): search, info
    /// and `qa ask --index` failed with "attempt to write a readonly database"; they read it, and
    /// leave nothing beside it.
    @Test func anIndexThatCannotBeWrittenIsStillRead() throws {
        let directory = try TestScratch.folder("nlu-index-readonly")
        defer {
            chmod(directory.path, 0o755)
            try? FileManager.default.removeItem(at: directory)
        }
        let db = try IndexCommandTests().makeIndex(in: directory)
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where !db.hasSuffix("/" + name) {
            try FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
        #expect(chmod(db, 0o444) == 0 && chmod(directory.path, 0o555) == 0)
        let search = try runNLUWithoutWriting(["index", "search", db, "router basement", "--k", "1"])
        #expect(search.status == 0 && search.stdout.contains("router"), "\(search.stderr)")
        let keyword = try runNLUWithoutWriting(["index", "search", db, "router", "--mode", "keyword", "--k", "1"])
        #expect(keyword.status == 0 && keyword.stdout.contains("router"), "\(keyword.stderr)")
        let info = try runNLUWithoutWriting(["index", "info", db])
        #expect(info.status == 0 && info.stdout.contains("documents: 4"), "\(info.stderr)")
        let answer = try runNLUWithoutWriting(["qa", "ask", "--index", db, "--model", QACommandTests.bert,
                                               "--question", "Where is the router?", "--json"])
        #expect(answer.status == 0 && answer.stdout.contains("\"answers\""), "\(answer.stderr)")
        // Writing is refused in words.
        let delete = try runNLUWithoutWriting(["index", "delete", db, "anything"])
        #expect(delete.status == 1 && delete.stderr.contains("read-only for this process"), "\(delete.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["t.db"])
    }

    /// A truncated index is named as not a whole index, with what to do; not "SQLite error 11".
    @Test func aTruncatedIndexSaysWhatToDo() throws {
        let directory = try TestScratch.folder("nlu-index-truncated")
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = try IndexCommandTests().makeIndex(in: directory)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: db))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: db))
        for arguments in [["index", "search", db, "router"], ["index", "info", db]] {
            let run = try runNLU(arguments)
            #expect(run.status == 1, "\(arguments)")
            #expect(run.stderr.contains("\(db): the index is damaged: it is not a whole NLUKit index")
                    && run.stderr.contains("re-create it with nlu index create"), "\(run.stderr)")
            #expect(!run.stderr.contains("SQLite error"), "\(run.stderr)")
        }
    }

    /// A query over the limits is refused naming the limit and its size: a usage error as the argument,
    /// a failure from standard input.
    @Test func aQueryOverTheLimitsIsRefusedNamingThem() throws {
        let directory = try TestScratch.folder("nlu-index-query-limit")
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = try IndexCommandTests().makeIndex(in: directory)
        let pasted = String(repeating: "router ", count: 1_000)
        let argument = try runNLU(["index", "search", db, pasted])
        #expect(argument.status == 2 && argument.stderr.contains("the query is 7000 bytes long (UTF-8); a query is at most 4096 bytes"),
                "\(argument.stderr)")
        let input = try runNLU(["index", "search", db, "--mode", "keyword"], input: (0..<300).map { "w\($0)" }.joined(separator: " ") + "\n")
        #expect(input.status == 1 && input.stderr.contains("the query has 300 distinct terms; a keyword or hybrid search takes at most 256"),
                "\(input.stderr)")
        // Repeats count once: 1,000 words of which 2 distinct, within 4 KB, find what the 2 words find.
        let repeated = try runNLU(["index", "search", db, String(repeating: "router basement ", count: 250), "--mode", "keyword", "--json"])
        let once = try runNLU(["index", "search", db, "router basement", "--mode", "keyword", "--json"])
        #expect(repeated.status == 0 && once.status == 0)
        #expect(try Self.results(repeated.stdout) == (try Self.results(once.stdout)))
    }

    static func results(_ line: String) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return String(decoding: try JSONSerialization.data(withJSONObject: object?["results"] ?? [], options: .sortedKeys), as: UTF8.self)
    }

    /// No PostgreSQL server on a loopback port (1: nothing listens there): the host, the port, refused,
    /// what to check, in words; and no password, from a URL that parses or one that does not.
    @Test func aPostgresServerNobodyRunsAndPasswordsAreSaidInWords() throws {
        let refused = try runNLU(["index", "search", "postgres://app:Hunter2Secret@127.0.0.1:1/search", "router"])
        #expect(refused.status == 1)
        #expect(refused.stderr == "Error: postgres://app@127.0.0.1:1/search: cannot connect to PostgreSQL at 127.0.0.1:1 as app, database search: "
                + "nothing listens on 127.0.0.1:1 (connection refused): is the server running, on this host and port?\n", "\(refused.stderr)")
        for location in ["postgresql://app:Hunter2Secret@db:abc/d", "postgres://app:Hunter2Secret@db/d?schema=Bad",
                         "postgress://app:Hunter2Secret@db/d"] {
            for arguments in [["index", "info", location], ["index", "search", location, "router"], ["index", "delete", location, "x"],
                              ["index", "create", location, "--model", "hashing"]] {
                let run = try runNLU(arguments)
                #expect(run.status != 0 && run.stderr.contains("app:***@db") && !run.stderr.contains("Hunter2Secret"), "\(arguments): \(run.stderr)")
            }
        }
        // Mistyped in other ways (a ?password= parameter, the host forgotten, the scheme without //): masked too,
        // and `qa ask --index` says the same.
        for location in ["postgres://app@db:5/d?password=Hunter2Secret", "postgres://app@db:abc/d?password=Hunter2Secret",
                         "postgres://app:Hunter2Secret", "postgres:/app:Hunter2Secret@db/d", "POSTGRES://app:Hunter2Secret@db/d"] {
            for arguments in [["index", "info", location], ["index", "search", location, "router"], ["index", "add", location, "-"],
                              ["index", "create", location, "--model", "hashing"],
                              ["qa", "ask", "--index", location, "--model", QACommandTests.bert, "--question", "where?"]] {
                let run = try runNLU(arguments, input: "{\"id\": \"a\", \"text\": \"b\"}\n")
                #expect(run.status == 1 && run.stderr.contains("***") && !run.stderr.contains("Hunter2Secret"), "\(arguments): \(run.stderr)")
            }
        }
    }

    /// `qa ask --index` searches the index with its question: a question over the query limits is a usage error
    /// naming --question and the limit, before the model or the index is opened (a 2,000-word question took 8 s).
    @Test func aQuestionOverTheQueryLimitsIsRefusedByQAAsk() throws {
        let pasted = Array(repeating: "router", count: 2_000).joined(separator: " ")
        let run = try runNLU(["qa", "ask", "--index", "/nonexistent/t.db", "--model", QACommandTests.bert, "--question", pasted])
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("--question: the query is 13999 bytes long (UTF-8); a query is at most 4096 bytes"), "\(run.stderr)")
        let distinct = (0..<300).map { "w\($0)" }.joined(separator: " ")
        let terms = try runNLU(["qa", "ask", "--index", "/nonexistent/t.db", "--model", QACommandTests.bert, "--question", distinct])
        #expect(terms.status == 2 && terms.stderr.contains("--question: the query has 300 distinct terms"), "\(terms.stderr)")
    }
}
