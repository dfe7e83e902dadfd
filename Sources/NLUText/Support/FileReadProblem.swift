import Foundation

/// Why a file could not be read, in plain words for an error message ("no such file or directory",
/// "a directory, not a file"), where Foundation's own error says "The operation could not be
/// completed" on Linux. NLUCore's `ExistingPath.unreadableReason` does the same for the modules
/// above it; NLUText depends on nothing.
enum FileReadProblem {
    static func reason(_ path: String) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return "no such file or directory" }
        return isDirectory.boolValue ? "a directory, not a file" : "the file cannot be read (permissions?)"
    }
}
