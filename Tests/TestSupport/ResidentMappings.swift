import Foundation

/// The kilobytes of the file at `path` this process holds in resident memory through its memory maps (the
/// `Rss` of every mapping of the file in `/proc/self/smaps`); nil where there is no such file (not Linux).
public func residentKilobytes(ofMappingsOf path: String) -> Int? {
    guard let smaps = try? String(contentsOfFile: "/proc/self/smaps", encoding: .utf8) else { return nil }
    let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    var total = 0
    var inTarget = false
    for line in smaps.split(separator: "\n") {
        let fields = line.split(separator: " ")
        // A mapping's first line is "start-end perms offset device inode [path]"; the others are "Key: value kB".
        if let first = fields.first, first.contains("-"), !first.hasSuffix(":") {
            inTarget = fields.count >= 6 && fields[5...].joined(separator: " ") == target
        } else if inTarget, fields.count >= 2, fields[0] == "Rss:", let kilobytes = Int(fields[1]) {
            total += kilobytes
        }
    }
    return total
}
