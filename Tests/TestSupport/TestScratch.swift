#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Scratch space for tests: every file or folder a test writes goes in one folder per test process,
/// `nlukit-tests-<pid>` under the system's temporary directory, which is removed when the process exits.
///
/// Tests made their own `nlukit-…-UUID` folders and files under `/tmp`, and whatever a test did not
/// remove (a failed `#require`, a helper without a `defer`) stayed there: thousands of entries after a
/// few dozen runs. Here a test may still remove what it made early, but need not.
///
///     let work = try TestScratch.folder("import")           // a new, empty folder
///     let model = TestScratch.file("bad", extension: "nlumodel")  // a free name; nothing is there yet
///
/// The root is made on first use, once for the whole process (a `static let` is initialized once, thread
/// safely, however many tests ask at the same time), and an `atexit` handler removes it. A process that
/// crashes leaves its root behind; the next test process removes such roots, and only those: each live
/// process holds a lock on its root's `.lock` file, which the system releases when the process ends
/// however it ends, so a root whose lock can be taken has no owner.
public enum TestScratch {
    /// The folder holding this process's scratch files; made on first use.
    public static var root: URL { owner.root }

    /// A new, empty folder `root/PREFIX-N`, made now; `prefix` (letters, digits, `-`, `_` and `.` kept)
    /// says which test made it, the calling function's name unless given.
    public static func folder(_ prefix: String = #function) throws -> URL {
        let url = file(prefix)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A name `root/PREFIX-N.EXTENSION` where nothing is yet, for a file the test writes or a folder
    /// (a model package, a cache) that the code under test is to make itself.
    public static func file(_ prefix: String = #function, extension pathExtension: String? = nil) -> URL {
        let label = prefix.filter { $0.isLetter || $0.isNumber || "-_.".contains($0) }
        var name = "\(label.isEmpty ? "scratch" : label)-\(counter.next())"
        if let pathExtension, !pathExtension.isEmpty { name += "." + pathExtension }
        return root.appendingPathComponent(name)
    }

    /// What names the process's root: the folders of other test processes start with it too.
    static let rootPrefix = "nlukit-tests-"
    /// The file in a root whose lock its owner holds until it ends.
    static let lockName = ".lock"

    private static let counter = Counter()
    private static let owner = Owner.make()

    /// This process's root, made and locked, with the process that made it (a child made by `fork` must
    /// not remove its parent's root when it exits).
    private struct Owner: Sendable {
        let root: URL
        let process: pid_t

        static func make() -> Owner {
            let parent = FileManager.default.temporaryDirectory
            let process = getpid()
            var root = parent.appendingPathComponent("\(rootPrefix)\(process)")
            // A root of this name that is not ours: a crashed run whose pid was ours, or a process with the
            // same pid in another pid namespace sharing this folder. Left alone; another name instead.
            // Searchable by all (0755, as the folders tests made before): some tests run `nlu` as another
            // user on files in it.
            var attempt = 0
            while mkdir(root.path, 0o755) != 0 {
                attempt += 1
                guard errno == EEXIST, attempt < 100 else {
                    // Nothing more to do here: `folder` will throw the reason when a test asks for one.
                    return Owner(root: root, process: process)
                }
                root = parent.appendingPathComponent("\(rootPrefix)\(process)-\(attempt)")
            }
            lock(root)
            atexit { TestScratch.removeOwnRoot() }
            removeAbandonedRoots(in: parent, except: root)
            return Owner(root: root, process: process)
        }

        /// Locks `root/.lock` for the rest of the process. The file is locked under another name, then
        /// renamed, so that no other process ever sees it unlocked.
        private static func lock(_ root: URL) {
            let staging = root.appendingPathComponent(lockName + ".new").path
            let descriptor = open(staging, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { return }
            // Never closed: the lock lasts as long as the process (children started by exec do not get it).
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
                rename(staging, root.appendingPathComponent(lockName).path)
            }
        }
    }

    /// Removes the roots of test processes that have ended without removing theirs (a crash, a kill).
    /// A root without a `.lock` (being made right now) or whose lock is held (its process is running) is
    /// kept.
    private static func removeAbandonedRoots(in parent: URL, except own: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent.path) else { return }
        for name in names where name.hasPrefix(rootPrefix) && name != own.lastPathComponent {
            let root = parent.appendingPathComponent(name)
            let lockPath = root.appendingPathComponent(lockName).path
            let descriptor = open(lockPath, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { continue }
            // The lock is on the file we opened; another process removing the same root may have
            // unlinked it since, and a new root of the same name would have a new lock file.
            var opened = stat(), current = stat()
            guard fstat(descriptor, &opened) == 0, lstat(lockPath, &current) == 0,
                  opened.st_dev == current.st_dev, opened.st_ino == current.st_ino else { continue }
            removeTree(root.path)
        }
    }

    /// The `atexit` handler: removes this process's root, only in the process that made it.
    private static func removeOwnRoot() {
        guard getpid() == owner.process else { return }
        removeTree(owner.root.path)
    }

    /// Removes `path` and everything in it, making folders writable first: a test that checks how
    /// the code handles a read-only folder may leave one (which only root could otherwise remove).
    private static func removeTree(_ path: String) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        if status.st_mode & S_IFMT == S_IFDIR {
            chmod(path, 0o700)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
                removeTree(path + "/" + name)
            }
            rmdir(path)
        } else {
            unlink(path)
        }
    }

    /// Numbers scratch names in the order they are asked for, from any thread.
    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var last = 0

        func next() -> Int {
            lock.lock()
            defer { lock.unlock() }
            last += 1
            return last
        }
    }
}
