import ArgumentParser
import Foundation
import NLUKit

/// `nlu models list`: the models in the Hugging Face cache.
struct ModelsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the models in the Hugging Face cache.",
        discussion: """
        The cache is $HF_HUB_CACHE, else $HF_HOME/hub, else ~/.cache/huggingface/hub (as Python's \
        huggingface_hub uses it). Each model is printed as "ID<TAB>SIZE<TAB>DIRECTORY" where DIRECTORY \
        is the snapshot --model ID resolves to; with --json one {"id", "bytes", "directory", "snapshots"} per line.
        """)

    @Flag(help: "Print one JSON object per model.")
    var json = false

    private struct Entry: Encodable {
        var id: String
        var bytes: Int64
        var directory: String?
        var snapshots: [String]
    }

    func run() throws {
        try HubCacheProblem.checkVariables(environment: ProcessInfo.processInfo.environment)
        let cache = try ModelLocator.hubCache()
        let models = try ModelLocator.cachedModels()
        if models.isEmpty && !json {
            Console.log("No models in the Hugging Face cache (\(cache.path)).")
            return
        }
        for model in models {
            // A snapshot with links to missing blobs is listed as what it is, not as having no snapshot.
            var missing = "(no snapshot for refs/main)"
            let directory: String?
            do {
                directory = try ModelLocator.resolve(model.id).path
            } catch is HubCacheProblem {
                directory = nil
                missing = "(incomplete download: run `nlu models download \(model.id)`)"
            } catch {
                directory = nil
            }
            if json {
                Console.print(try Console.json(Entry(id: model.id, bytes: model.sizeInBytes, directory: directory, snapshots: model.snapshots)))
            } else {
                let size = ByteCountFormatter.string(fromByteCount: model.sizeInBytes, countStyle: .file)
                Console.print("\(model.id)\t\(size)\t\(directory ?? missing)")
            }
        }
    }
}
