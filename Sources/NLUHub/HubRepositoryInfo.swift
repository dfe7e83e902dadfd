import Foundation

/// What `GET /api/models/ID/revision/REV` answers: the commit the revision points to and the files
/// of that commit (the fields `huggingface_hub.snapshot_download` reads).
struct HubRepositoryInfo: Decodable {
    struct Sibling: Decodable { var rfilename: String }

    /// The commit hash.
    var sha: String
    /// The repository's files, as paths relative to its root.
    var siblings: [Sibling]

    /// The most files a repository may list (the Hub lists far fewer; a bound keeps a hostile answer small).
    static let maximumFiles = 100_000

    /// Decodes and checks the answer: a commit that is a hash, file paths that stay inside the snapshot.
    static func decode(_ data: Data, url: String) throws -> HubRepositoryInfo {
        let info: HubRepositoryInfo
        do {
            info = try JSONDecoder().decode(HubRepositoryInfo.self, from: data)
        } catch {
            throw HubError.invalidResponse(url: url, reason: "expected JSON with \"sha\" and \"siblings\"")
        }
        guard isCommitHash(info.sha) else {
            throw HubError.invalidResponse(url: url, reason: "\"sha\" is not a commit hash: '\(info.sha.prefix(80))'")
        }
        guard info.siblings.count <= maximumFiles else {
            throw HubError.invalidResponse(url: url, reason: "more than \(maximumFiles) files")
        }
        for sibling in info.siblings where !isSafeRelativePath(sibling.rfilename) {
            throw HubError.invalidResponse(url: url, reason: "unsafe file name '\(sibling.rfilename.prefix(200))'")
        }
        return info
    }

    /// 40 lowercase hex digits, as git's commit ids (huggingface_hub's REGEX_COMMIT_HASH).
    static func isCommitHash(_ text: String) -> Bool {
        text.utf8.count == 40 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// A path that stays below the directory it is joined to: relative, no `.`/`..`/empty component,
    /// no backslash or control character.
    static func isSafeRelativePath(_ path: String) -> Bool {
        guard !path.isEmpty, path.utf8.count <= 1024, !path.hasPrefix("/") else { return false }
        guard !path.unicodeScalars.contains(where: { $0 == "\\" || $0.value < 0x20 || $0.value == 0x7F }) else { return false }
        return path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { $0 != "" && $0 != "." && $0 != ".." }
    }
}
