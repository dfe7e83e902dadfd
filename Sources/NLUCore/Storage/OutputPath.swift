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
}
