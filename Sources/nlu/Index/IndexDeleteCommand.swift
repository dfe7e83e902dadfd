import ArgumentParser
import Foundation
import NLUKit

/// `nlu index delete DB ID...`: removes documents, in one transaction.
struct IndexDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete documents by id (ids not in the index are reported on stderr).")

    @Argument(help: ArgumentHelp("The index file, or a postgres:// URL.", valueName: "db"))
    var database: String

    @Argument(help: ArgumentHelp("Ids of the documents to delete.", valueName: "id"))
    var ids: [String]

    @Flag(help: "Print {\"index\", \"deleted\", \"absent\"} on stdout (absent: the ids not in the index).")
    var json = false

    struct Output: Encodable {
        var index: String
        var deleted: Int
        var absent: [String]
    }

    func validate() throws {
        guard !ids.isEmpty else { throw ValidationError("give at least one ID to delete") }
    }

    func run() throws {
        let index = try IndexLocation.open(database, needsEmbedder: false)
        let absent = try ids.filter { try !index.contains(id: $0) }
        // A PostgreSQL URL is named without its password.
        let name = IndexLocation.name(database, of: index)
        for id in absent { Console.log("warning: no document \"\(id)\" in \(name)") }
        let removed = try index.delete(ids: ids)
        if json {
            Console.print(try Console.json(Output(index: name, deleted: removed, absent: absent)))
            return
        }
        Console.print("deleted \(Console.count(removed, "document")) from \(name)")
    }
}
