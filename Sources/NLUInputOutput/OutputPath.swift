import Foundation

/// Checks on where a command writes, made before it does any work.
public enum OutputPath {
    /// Why an output path cannot be used.
    public struct Error: Swift.Error, Equatable, CustomStringConvertible, LocalizedError {
        public var output: String
        public var reason: String
        public var description: String { "\(output): \(reason)" }
        public var errorDescription: String? { description }
    }

    /// Refuses an output that would overwrite one of the `inputs`: the same file (also through
    /// links or another spelling of the path), or a folder holding an input.
    /// - Throws: ``OutputPath/Error`` naming the output and the input.
    public static func checkNotAnInput(_ output: URL, inputs: [URL]) throws {
        guard !output.path.isEmpty else { throw Error(output: "''", reason: "an empty path; give a file name") }
        let resolvedOutput = output.standardizedFileURL.resolvingSymlinksInPath().path
        for input in inputs {
            if ExistingPath.isSameFile(output, input) {
                throw Error(output: output.path, reason: "is also an input (\(input.path)); write to another path")
            }
            let resolvedInput = input.standardizedFileURL.resolvingSymlinksInPath().path
            if resolvedInput.hasPrefix(resolvedOutput.hasSuffix("/") ? resolvedOutput : resolvedOutput + "/") {
                throw Error(output: output.path, reason: "holds an input (\(input.path)); write to another path")
            }
        }
    }

    /// True when `first` and `second` would write the same file: the same existing file (also
    /// through links or hard links), or, for paths not created yet, the same path once `.`, `..`,
    /// links to folders and a link in the final component are followed (`out.json`, `./out.json`,
    /// `link-to-out.json`).
    public static func isSameDestination(_ first: URL, _ second: URL) -> Bool {
        ExistingPath.isSameFile(first, second) || destination(first) == destination(second)
    }

    /// The path a writer would create for `url`: final links followed, the folder's links resolved.
    private static func destination(_ url: URL) -> String {
        let target = (try? ExistingPath.resolvingSymbolicLinks(url.standardizedFileURL)) ?? url.standardizedFileURL
        let folder = target.deletingLastPathComponent().resolvingSymlinksInPath()
        return folder.appendingPathComponent(target.lastPathComponent).standardizedFileURL.path
    }
}
