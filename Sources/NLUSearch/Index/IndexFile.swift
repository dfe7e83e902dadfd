import Foundation
import GRDB

/// How an index file is opened, and what SQLite's failures on it mean for the user.
///
/// A reading handle (`nlu index search`, `info`, `qa ask --index`) must work where nothing can be
/// written: an index shipped in a container image, another user's file in a folder this user cannot
/// write. The file is in WAL mode, whose readers need its `-shm` file; SQLite creates it when it can,
/// and where it cannot, a plain open fails ("unable to open database file", or "attempt to write a
/// readonly database" when the file itself is not writable either).
enum IndexFile {
    /// Opens the file at `path` and reads its settings. A reading handle (`readOnly`):
    /// - when this process can write the file and its folder: opened read-write with `query_only`, so
    ///   that it takes part in WAL locking like any reader (a writer may be adding at the same time)
    ///   and, as the last connection, removes the `-wal` and `-shm` files when it closes (a
    ///   read-only connection leaves them);
    /// - otherwise (or when that open fails for want of writing: a `-shm` of another user), opened
    ///   with `SQLITE_OPEN_READONLY`, as immutable when no `-wal` file holds commits: no lock, no
    ///   `-shm`, nothing created. A `-wal` holding commits (an interrupted writer, or one adding now)
    ///   is read through its `-shm` instead, which only works where that file exists.
    ///
    /// `writable` overrides the check of the file's and folder's permissions (tests run as root,
    /// whom permissions do not stop).
    static func open(_ path: String, readOnly: Bool, writable: Bool? = nil) throws -> (DatabaseQueue, IndexSchema.Settings) {
        do {
            try checkSideFiles(path, readOnly: readOnly)
            guard readOnly else { return try open(path, location: path, configuration: configuration(readonly: false)) }
            if writable ?? canWrite(path) {
                do {
                    var configuration = configuration(readonly: false)
                    configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA query_only = 1") }
                    return try open(path, location: path, configuration: configuration)
                } catch let error as DatabaseError where [.SQLITE_CANTOPEN, .SQLITE_READONLY].contains(error.resultCode) {
                    // A read-only mount (the check cannot see it for root), or side files of another user.
                }
            }
            if walIsEmpty(path), let immutable = immutableURI(path) {
                return try open(path, location: immutable, configuration: configuration(readonly: true))
            }
            do {
                return try open(path, location: path, configuration: configuration(readonly: true))
            } catch let error as DatabaseError where [.SQLITE_CANTOPEN, .SQLITE_READONLY].contains(error.resultCode) {
                throw SearchError.storage(path: path, message: """
                    cannot be read from here: its -wal file holds changes not yet written into the index (an nlu index add \
                    running or interrupted), which a reader can only see through a -shm file it cannot create here; \
                    run nlu index info on it once as a user who can write its folder, or wait until the writer is done
                    """)
            }
        } catch let error as SearchError {
            throw error
        } catch {
            throw self.error(error, path: path)
        }
    }

    /// Refuses a folder where SQLite keeps the index's side files: it failed every open with SQLite's
    /// "unable to open database file" or "attempt to write a readonly database", and a reader took a
    /// `-wal` folder for a log holding changes. A reader does without the `-shm` file (it opens the
    /// index immutable), so only a writer is stopped by a `-shm` folder.
    private static func checkSideFiles(_ path: String, readOnly: Bool) throws {
        for (suffix, holds) in [("-wal", "write-ahead log"), ("-shm", "shared memory for that log")] where !(readOnly && suffix == "-shm") {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path + suffix, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
            throw SearchError.storage(path: path, message: """
                \(path + suffix) is a folder, where SQLite keeps the index's \(holds) in a file; \
                remove or rename that folder (nlu never makes it)
                """)
        }
    }

    private static func open(_ path: String, location: String, configuration: Configuration) throws -> (DatabaseQueue, IndexSchema.Settings) {
        let queue = try DatabaseQueue(path: location, configuration: configuration)
        return (queue, try queue.read { db in try IndexSchema.read(from: db, path: path) })
    }

    /// Whether this process may write the file and create files beside it (`access(2)`, which also
    /// says no on a read-only mount).
    static func canWrite(_ path: String) -> Bool {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return access(path, W_OK) == 0 && access(folder, W_OK | X_OK) == 0
    }

    /// Whether no `-wal` file beside `path` holds commits (none, or empty: the last writer closed cleanly).
    static func walIsEmpty(_ path: String) -> Bool {
        ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int ?? 0) == 0
    }

    /// `path` as an SQLite URI that opens it read-only without locks or -shm (`immutable=1`), or nil
    /// when the path cannot be written as one.
    static func immutableURI(_ path: String) -> String? {
        guard let escaped = URL(fileURLWithPath: path).standardizedFileURL.path
            .addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) else { return nil }
        return "file:\(escaped)?immutable=1"
    }

    static func configuration(readonly: Bool) -> Configuration {
        var configuration = Configuration()
        configuration.readonly = readonly
        configuration.foreignKeysEnabled = true
        // Another process writing (an add in a second terminal) makes us wait, not fail at once.
        configuration.busyMode = .timeout(10)
        return configuration
    }

    /// What went wrong with the file at `path`, in words: SQLite's own text ("SQLite error 11: database
    /// disk image is malformed") says neither what the file is nor what to do.
    static func error(_ error: any Error, path: String) -> SearchError {
        if let error = error as? SearchError { return error }
        guard let error = error as? DatabaseError else { return .storage(path: path, message: "\(error)") }
        let sqlite = error.message ?? "\(error.resultCode)"
        switch error.resultCode {
        case .SQLITE_NOTADB:
            return .notAnIndex(path: path, reason: "not an SQLite file, or one whose first page is overwritten; an index is made by nlu index create")
        case .SQLITE_CORRUPT:
            return damaged(path: path, sqlite: sqlite)
        case .SQLITE_ERROR where sqlite.lowercased().contains("fts5"):
            // FTS5 reports its own damaged records as a plain error ("invalid fts5 file format (found 0,
            // expected 4) - run 'rebuild'"): an SQL command the user cannot run, about a table they never made.
            return damaged(path: path, sqlite: sqlite.replacingOccurrences(of: " - run 'rebuild'", with: ""))
        case .SQLITE_READONLY:
            return .storage(path: path, message: "cannot be written: the file or its folder is read-only for this process, or it was opened for reading only (\(sqlite))")
        case .SQLITE_CANTOPEN:
            return .storage(path: path, message: "cannot be opened (\(sqlite)): check that this process may read the file and, to write it, its folder")
        case .SQLITE_FULL:
            return .storage(path: path, message: "the disk is full (\(sqlite))")
        default:
            return .storage(path: path, message: sqlite)
        }
    }

    /// A file whose pages or keyword tables do not hold a whole index.
    private static func damaged(path: String, sqlite: String) -> SearchError {
        .damaged(path: path, reason: """
            it is not a whole NLUKit index (truncated, or bytes overwritten in it; SQLite: \(sqlite)); \
            re-create it with nlu index create and add its documents again
            """)
    }
}
