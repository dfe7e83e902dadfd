import Foundation
import NLUTestSupport
import Testing

/// The conventions every `nlu` subcommand keeps (issue #45, README "Conventions"), checked on the
/// real `--help` of every subcommand, found by walking `nlu --help` and each group's help: a new
/// subcommand that breaks one fails here unless it is added to an exception below, with its reason.
@Suite struct CLIConventionTests {
    /// Leaves without `--json`.
    static let withoutJSON: [String: String] = [
        // A long-running HTTP server: its answers are HTTP responses (JSON already), it prints no result.
        "serve": "a server prints no result",
    ]

    /// Options that write a file other than the command's result, under their own names (`-o` is the result).
    static let secondaryOutputs: Set<String> = [
        "intents import --test-output",  // the export's test split, written beside the dataset (-o)
        "intents import --validation-output",  // the export's validation split (CLINC150's val), beside the dataset (-o)
        "intents train --report",        // the training curves as an HTML page, beside the model (-o)
        "intents evaluate --report",     // the evaluation as an HTML page; the result itself goes to stdout
        "lm train --report",             // the training curves as an HTML page, beside the model (-o)
        "lm predict --state-out",        // the recurrent state (carried to --state-in), not the predictions
    ]

    /// Model options or arguments that are not `-m/--model`.
    static let otherModels: Set<String> = [
        // serve loads several models at once, one per task and route; each option names its task.
        "serve --intents", "serve --qa", "serve --embed",
        // The featurizer's model, beside the dataset; -m would read as the model being trained (that is -o).
        "intents train --embeddings",
        // The checkpoint to fine-tune, beside the dataset, for the same reason.
        "intents train --fine-tune",
        // The .mlmodel is the subject of the command, its one positional argument, as DB is for index info.
        "coreml info <file>", "coreml predict <file>",
        // The Hub id of a model to fetch into the cache, not a model the command loads.
        "models download <id>",
        // The model to start fine-tuning from, published as `nlu embed train MODEL --pairs FILE -o DIR` when the
        // walk could not reach this command yet (it was one top-level name with a space, now a subcommand of embed).
        "embed train <model>",
    ]

    @Test func everySubcommandKeepsTheConventions() throws {
        let leaves = try Self.leaves()
        // The walk itself is checked: a parsing slip that finds no subcommand would pass every rule.
        #expect(leaves.count >= 25, "found only \(leaves.map(\.path))")
        #expect(leaves.contains { $0.path == "index search" } && leaves.contains { $0.path == "selfcheck" })
        var problems: [String] = []
        for leaf in leaves {
            problems += Self.problems(of: leaf)
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// The rules reject what they are meant to reject (so that the walk above cannot pass by reading nothing).
    @Test func rulesCatchOldSpellings() {
        let page = HelpPage(path: "x y", text: """
            OPTIONS:
              --model <model>         The model package (.nlumodel).
              --top <n>               How many.
              --k <k>                 Results per query.
              --output <file>         Where to write the result.
              --save-to <file>        Save the vectors here.
              -h, --help              Show help information.

            """)
        let problems = Self.problems(of: page)
        for expected in ["x y: no --json", "x y --model: a model is named by -m, --model", "x y --top: --top-k",
                         "x y --k: --top-k", "x y --output: the output file is -o", "x y --save-to: a file it writes"] {
            #expect(problems.contains { $0.hasPrefix(expected) }, "\(expected) not in \(problems)")
        }
    }

    // MARK: - What the help promises, run

    /// `-m`, `-k`, `-o` and `--top-k` work, and the former spellings (`--k`, `--top`) still do: the same answers.
    @Test func newSpellingsAndFormerOnesGiveTheSameAnswers() throws {
        let directory = try TestScratch.folder("nlu-conventions")
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("c.db").path
        #expect(try runNLU(["index", "create", db, "-m", "hashing"]).status == 0)
        #expect(try runNLU(["index", "add", db, "-"], input: Self.documents).status == 0)
        let searches = try [["-k", "1"], ["--top-k", "1"], ["--k", "1"]].map { try runNLU(["index", "search", db, "invoice", "--json"] + $0) }
        #expect(searches.allSatisfy { $0.status == 0 && $0.stdout == searches[0].stdout && $0.stdout.contains("\"faq-2\"") },
                "\(searches.map(\.stderr))")
        #expect(!searches[0].stdout.contains("faq-1"))

        let lm = fixturesDirectory.appendingPathComponent("lm/lstm-2.nlumodel").path
        let predictions = try [["-m", lm, "-k", "2"], ["--model", lm, "--top", "2"]].map { try runNLU(["lm", "predict", "--json", "the"] + $0) }
        #expect(predictions[0].status == 0 && predictions[0].stdout == predictions[1].stdout, "\(predictions.map(\.stderr))")
        let next = try JSONSerialization.jsonObject(with: Data(predictions[0].stdout.utf8)) as? [String: Any]
        #expect((next?["next"] as? [Any])?.count == 2)
        // The library's name of the count (k) is the flag's primary spelling, whichever spelling was typed.
        let bad = try runNLU(["index", "search", db, "invoice", "--k", "0"])
        #expect(bad.status == 2 && bad.stderr.contains("--top-k must be in 1...10000, got 0"), "\(bad.stderr)")

        let embedder = fixturesDirectory.appendingPathComponent("embeddings/minilm-tiny").path
        let output = directory.appendingPathComponent("vectors.jsonl").path
        let embed = try runNLU(["embed", "-m", embedder, "-o", output, "a text"])
        #expect(embed.status == 0, "\(embed.stderr)")
        #expect(FileManager.default.fileExists(atPath: output))
    }

    /// `embed`, `similarity` and `tokenize` follow `nlu <capability> <verb>` (`embed text` the default verb of
    /// `embed`, `embed similarity`, `tokenizer encode`); the former spellings give the same answers, and usage
    /// errors name the spelling typed. Checks that read the command tree follow the default verb: an unknown
    /// option and a negative number reach `embed text`'s own messages, not the group's.
    @Test func capabilityVerbSpellingsAndTheFormerOnesGiveTheSameAnswers() throws {
        let embedder = fixturesDirectory.appendingPathComponent("embeddings/minilm-tiny").path
        let embeds = try [["embed"], ["embed", "text"]].map { try runNLU($0 + ["-m", embedder, "a text"]) }
        #expect(embeds[0].status == 0 && embeds[0].stdout.contains("\"embedding\"") && embeds[0].stdout == embeds[1].stdout,
                "\(embeds.map(\.stderr))")
        let similarities = try [["similarity"], ["embed", "similarity"]].map { try runNLU($0 + ["-m", embedder, "--json", "a", "b"]) }
        #expect(similarities[0].status == 0 && similarities[0].stdout.contains("similarity") && similarities[0].stdout == similarities[1].stdout,
                "\(similarities.map(\.stderr))")
        let vocab = fixturesDirectory.appendingPathComponent("tokenizer/vocab-uncased.txt").path
        let tokenized = try [["tokenize"], ["tokenizer", "encode"]].map { try runNLU($0 + ["--vocab", vocab, "--json", "Hello, world"]) }
        #expect(tokenized[0].status == 0 && tokenized[0].stdout.contains("\"ids\"") && tokenized[0].stdout == tokenized[1].stdout,
                "\(tokenized.map(\.stderr))")

        let former = try runNLU(["similarity", "-m", embedder, "a", " "])
        #expect(former.status == 2 && former.stderr.contains("Usage: nlu similarity ") && former.stderr.contains("See 'nlu similarity --help'"),
                "\(former.stderr)")
        let current = try runNLU(["embed", "similarity", "-m", embedder, "a", " "])
        #expect(current.status == 2 && current.stderr.contains("Usage: nlu embed similarity ") && current.stderr.contains("both texts must be non-empty"),
                "\(current.stderr)")
        // --force without --output fails validation; the typo is the problem named, not --model (an option of embed text).
        let typo = try runNLU(["embed", "-m", embedder, "--force", "--frob", "a"])
        #expect(typo.status == 2 && typo.stderr.hasPrefix("Error: Unknown option '--frob'") && typo.stderr.contains("Usage: nlu embed text "),
                "\(typo.stderr)")
        // ArgumentParser's suggestion stays as it wrote it: no text hint built from the wrong quotes.
        let suggested = try runNLU(["tokenize", "--vocab", vocab, "--frob", "x"])
        #expect(suggested.status == 2 && suggested.stderr.hasPrefix("Error: Unknown option '--frob'. Did you mean '--file'?\nUsage: nlu tokenize "),
                "\(suggested.stderr)")
        let negative = try runNLU(["embed", "-m", embedder, "--query", "q", "--top-k", "-3", "a"])
        #expect(negative.status == 2 && negative.stderr.contains("--top-k must be between 1 and 1000000, got -3"), "\(negative.stderr)")
        let train = try runNLU(["embed", "train", "--help"])
        #expect(train.status == 0 && train.stdout.contains("--pairs <file.jsonl>"), "\(train.stderr)")
    }

    /// Text output shows every span as [start..<end]: built-in entities, intents' entities, search results, answers.
    @Test func spansReadTheSameInTextOutput() throws {
        let entities = try runNLU(["entities", "extract", "--types", "number", "pay 20 dollars"])
        #expect(entities.stdout == "pay 20 dollars\n  [4..<6]  number  20  20\n", "\(entities.stdout)")
        let directory = try TestScratch.folder("nlu-conventions")
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("s.db").path
        #expect(try runNLU(["index", "create", db, "-m", "hashing"]).status == 0)
        #expect(try runNLU(["index", "add", db, "-"], input: Self.documents).status == 0)
        let search = try runNLU(["index", "search", db, "invoice", "-k", "1", "--mode", "keyword"])
        #expect(search.stdout.contains("faq-2 [0..<61]  Invoices are emailed"), "\(search.stdout)")
    }

    /// The leaves that had no --json: index create, add and delete, selfcheck; embed without --query; coreml predict.
    @Test func jsonOnTheLeavesThatLackedIt() throws {
        let directory = try TestScratch.folder("nlu-conventions")
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("j.db").path
        func object(_ run: NLURun) -> [String: Any]? {
            #expect(run.status == 0, "\(run.stderr)")
            return try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        }
        let create = object(try runNLU(["index", "create", db, "-m", "hashing", "--chunk-size", "8", "--overlap", "2", "--json"]))
        #expect(create?["index"] as? String == db && create?["chunkSize"] as? Int == 8 && create?["chunkOverlap"] as? Int == 2)
        #expect((create?["model"] as? [String: Any])?["name"] as? String == "hashing", "\(String(describing: create))")
        // 9 and 11 words in chunks of 8 overlapping by 2: 2 chunks each.
        let add = object(try runNLU(["index", "add", db, "-", "--json"], input: Self.documents))
        #expect(add?["added"] as? Int == 2 && add?["documents"] as? Int == 2 && add?["chunks"] as? Int == 4, "\(String(describing: add))")
        let delete = object(try runNLU(["index", "delete", db, "faq-1", "nothing", "--json"]))
        #expect(delete?["deleted"] as? Int == 1 && delete?["absent"] as? [String] == ["nothing"], "\(String(describing: delete))")

        let check = object(try runNLU(["selfcheck", "--size", "16", "--json"]))
        #expect(check?["passed"] as? Bool == true && check?["size"] as? Int == 16 && check?["kernels"] is String)

        let embedder = fixturesDirectory.appendingPathComponent("embeddings/minilm-tiny").path
        let plain = try runNLU(["embed", "-m", embedder, "a text"]), json = try runNLU(["embed", "-m", embedder, "--json", "a text"])
        #expect(json.status == 0 && json.stdout == plain.stdout && json.stdout.hasPrefix("{"), "\(json.stderr)")
        let contradiction = try runNLU(["embed", "-m", embedder, "--json", "--format", "tsv", "a text"])
        #expect(contradiction.status == 2 && contradiction.stderr.contains("--json prints JSON lines; it contradicts --format tsv"))

        let model = fixturesDirectory.appendingPathComponent("coreml/dense_classifier.mlmodel").path
        let input = #"{"embeddings": [0.5, -1.2, 0.3, 0.8, 0, 1, -0.4, 0.2]}"#
        let predict = try runNLU(["coreml", "predict", model, "--input", input, "--json"])
        let without = try runNLU(["coreml", "predict", model, "--input", input])
        #expect(predict.status == 0 && predict.stdout == without.stdout && predict.stdout.contains("\"outputs\""), "\(predict.stderr)")
    }

    static let documents = """
        {"id": "faq-1", "text": "To reset your password, open Settings and choose Security."}
        {"id": "faq-2", "text": "Invoices are emailed on the first business day of each month."}
        """

    // MARK: - The rules

    static func problems(of leaf: HelpPage) -> [String] {
        var problems: [String] = []
        let names = Set(leaf.options.flatMap(\.names))
        if !names.contains("--json"), withoutJSON[leaf.path] == nil {
            problems.append("\(leaf.path): no --json (machine-readable output on stdout)")
        }
        for option in leaf.options {
            let id = "\(leaf.path) \(option.primary)"
            if option.names.contains("--output"), !option.names.contains("-o") {
                problems.append("\(id): the output file is -o, --output")
            } else if option.valueName != nil, option.names.contains("--output") == false, option.saysItWrites,
                      !secondaryOutputs.contains(id) {
                problems.append("\(id): a file it writes is -o, --output (or an exception in CLIConventionTests)")
            }
            if option.namesAModel, !(option.names.contains("-m") && option.names.contains("--model")), !otherModels.contains(id) {
                problems.append("\(id): a model is named by -m, --model")
            }
            if option.names.contains("--top") || option.names.contains("--k") {
                if option.primary != "--top-k" { problems.append("\(id): --top-k is the spelling of how many results (--top, --k: aliases)") }
            }
            if option.names.contains("--top-k"), !option.names.contains("-k"),
               !leaf.options.contains(where: { $0.names.contains("-k") }) {
                problems.append("\(id): -k is --top-k's short form")
            }
        }
        for argument in leaf.arguments where argument.namesAModel && !otherModels.contains("\(leaf.path) \(argument.primary)") {
            problems.append("\(leaf.path) \(argument.primary): a model is named by -m, --model, not a positional argument")
        }
        return problems
    }

    // MARK: - The walk

    /// The help of every leaf subcommand, found from `nlu --help` down.
    static func leaves() throws -> [HelpPage] {
        var leaves: [HelpPage] = [], pending: [[String]] = [[]]
        while let path = pending.popLast() {
            // nlu's tree is two levels deep; deeper means the walk misread a page (and would never end).
            guard path.count <= 3 else {
                Issue.record("nlu \(path.joined(separator: " ")): deeper than any subcommand")
                continue
            }
            let run = try runNLU(path + ["--help"])
            guard run.status == 0 else {
                Issue.record("nlu \(path.joined(separator: " ")) --help exited \(run.status): \(run.stderr)")
                continue
            }
            let page = HelpPage(path: path.joined(separator: " "), text: run.stdout)
            if page.subcommands.isEmpty {
                leaves.append(page)
            } else {
                // `help` is ArgumentParser's own, not a subcommand of ours.
                pending += page.subcommands.filter { $0 != "help" }.map { path + [$0] }
            }
        }
        return leaves
    }
}

/// One subcommand's `--help`, read into its sections: subcommands, positional arguments, options.
struct HelpPage {
    /// An option or argument: its names (`-k`, `--top-k`; `<db>` for an argument), value and help text.
    struct Entry {
        var names: [String]
        var valueName: String?
        var help: String

        /// The first long name (what usage lines and error messages show), else the first name.
        var primary: String { names.first { $0.hasPrefix("--") } ?? names.first ?? "" }

        /// Whether the help says the option names a file written (or saved) there; not "The format to write".
        var saysItWrites: Bool {
            func says(_ pattern: String) -> Bool { help.range(of: pattern, options: [.regularExpression, .caseInsensitive]) != nil }
            return says(#"\b(write|writes|save|saves)\b"#) && (says(#"\b(here|where|file|page)\b"#) || valueName?.contains("file") == true)
        }

        /// Whether it names a model: its value is <model>, or its help begins by naming one
        /// ("The model package", "A sentence-transformers model", "A question-answering checkpoint").
        var namesAModel: Bool {
            valueName?.lowercased() == "model" || primary == "<model>"
                || help.range(of: #"^(An?|The) ([\w-]+ ){0,3}(model|checkpoint|\.mlmodel)\b"#, options: .regularExpression) != nil
        }
    }

    var path: String
    var subcommands: [String] = []
    var arguments: [Entry] = []
    var options: [Entry] = []

    init(path: String, text: String) {
        self.path = path
        var section = "", current: Entry? = nil
        func finish() {
            guard let entry = current else { return }
            switch section {
            case "ARGUMENTS:": arguments.append(entry)
            case "OPTIONS:": options.append(entry)
            case "SUBCOMMANDS:": subcommands.append(entry.names[0])
            default: break
            }
            current = nil
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.trimmingCharacters(in: .whitespaces).isEmpty {
                // A blank line ends a section ("  See 'nlu help <subcommand>'..." follows the subcommands).
                finish()
                section = ""
            } else if let first = line.first, !first.isWhitespace {
                finish()
                section = line.hasSuffix(":") ? line : ""
            } else if line.hasPrefix("  "), !line.hasPrefix("   ") {
                finish()
                current = Self.entry(line.dropFirst(2))
            } else if var entry = current {
                entry.help += (entry.help.isEmpty ? "" : " ") + line.trimmingCharacters(in: .whitespaces)
                current = entry
            }
        }
        finish()
    }

    /// `-k, --top-k, --k <n>    Results per query.` → names, value name, help.
    private static func entry(_ line: Substring) -> Entry {
        let synopsis = line.range(of: "  ").map { line[..<$0.lowerBound] } ?? line
        let help = line[synopsis.endIndex...].trimmingCharacters(in: .whitespaces)
        var names: [String] = [], valueName: String? = nil
        for word in synopsis.split(separator: " ") {
            let word = word.trimmingCharacters(in: CharacterSet(charactersIn: ","))
            if word.hasPrefix("<") || word.hasPrefix("[<") {
                // A positional argument's synopsis is its value name alone.
                if names.isEmpty && word.hasPrefix("<") { names.append(word) }
                valueName = word.trimmingCharacters(in: CharacterSet(charactersIn: "[<>].")).lowercased()
            } else {
                // --normalize/--no-normalize: both names.
                names += word.split(separator: "/").map(String.init)
            }
        }
        if names.first?.hasPrefix("<") == true { valueName = nil }
        return Entry(names: names, valueName: valueName, help: help)
    }
}
