#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import NLUInputOutput

/// An NLUKit model package: a directory `NAME.nlumodel/` holding `manifest.json` and
/// `weights.safetensors`.
///
/// The manifest is `{"format": "nlumodel", "formatVersion": 1, "kind": KIND, "config": CONFIG,
/// "metadata": {string: string}}`, where `kind` names the task's model (e.g.
/// `"intent-classifier"`) and `config` is the task's own configuration (vocabulary, labels,
/// sizes). Weights are F32 tensors under the task's documented names. Saving is atomic: the new
/// package is built in a temporary directory beside the destination and swapped in, so a crash
/// mid-save leaves the previous package intact.
///
///     try ModelPackage.save(to: url, kind: "toy", config: ToyConfig(size: 3), weights: ["w": w])
///     let (config, metadata, weights) = try ModelPackage.load(from: url, kind: "toy", config: ToyConfig.self)
///     let w = try weights.floatTensor("w")
public enum ModelPackage {
    /// The newest manifest format version this build reads. A package records the oldest version whose
    /// readers understand all of it (``save(to:kind:config:metadata:weights:replacing:formatVersion:folders:)``),
    /// so that an older NLUKit refuses a model it would otherwise run while silently ignoring part of it.
    public static let formatVersion = 3
    /// The manifest's file name inside the package.
    public static let manifestFileName = "manifest.json"
    /// The weights' file name inside the package.
    public static let weightsFileName = "weights.safetensors"
    /// The training state a checkpoint keeps beside the weights (the language model's Adam moments,
    /// for `--resume`); loading a model ignores it.
    public static let optimizerStateFileName = "optimizer.safetensors"
    /// The folder of a model a package carries whole beside its weights (a fine-tuned encoder in the
    /// Hugging Face layout), written by the `folders` closure of ``save(to:kind:config:metadata:weights:replacing:formatVersion:folders:)``.
    public static let encoderFolderName = "encoder"
    /// Everything NLUKit writes into a package; a folder holding more is not replaced.
    static let packageFileNames: Set<String> = [manifestFileName, weightsFileName, optimizerStateFileName, encoderFolderName]

    /// What ``save(to:kind:config:metadata:weights:replacing:formatVersion:folders:)`` may replace at its destination.
    public enum Replacement: Sendable {
        /// Only a model package of the same kind (the default).
        case sameKind
        /// Any model package, whatever its kind (`nlu ... --force`).
        case anyModelPackage
    }

    /// Writes a package at `url` (conventionally ending in `.nlumodel`), replacing an existing
    /// package atomically. What may be replaced is checked first by ``checkDestination(_:kind:replacing:)``:
    /// a user's folder or file at `url` is never touched. `folders`, when given, writes more of the
    /// package (``encoderFolderName``) into the new package's folder before it is swapped in.
    /// - Throws: ``ModelPackageError/destinationInUse(package:holds:remedy:)`` or
    ///   ``ModelPackageError/writeFailed(package:reason:)``; the previous package, if any, is then unchanged.
    public static func save<Config: Encodable>(
        to url: URL, kind: String, config: Config,
        metadata: [String: String] = [:], weights: [String: Tensor<Float>],
        replacing: Replacement = .sameKind, formatVersion: Int = 1, folders: ((URL) throws -> Void)? = nil
    ) throws {
        precondition((1...Self.formatVersion).contains(formatVersion), "format version \(formatVersion) is not one this build writes")
        let url = try checkDestination(url, kind: kind, replacing: replacing)
        try writeFolder(to: url) { folder in
            do {
                let manifest = Manifest(format: "nlumodel", formatVersion: formatVersion, kind: kind, config: config, metadata: metadata)
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                let manifestData = try encoder.encode(manifest)
                try AtomicFile.write(to: folder.appendingPathComponent(manifestFileName)) { try $0.write(manifestData) }
                try SafeTensors.write(weights, metadata: ["format": "nlumodel", "kind": kind],
                                      to: folder.appendingPathComponent(weightsFileName))
                try folders?(folder)
            } catch let EncodingError.invalidValue(value, context) {
                let field = context.codingPath.map(\.stringValue).joined(separator: ".")
                throw ModelPackageError.writeFailed(package: url, reason: "manifest field '\(field)' is \(value), which JSON cannot hold")
            } catch {
                // `folders`' own ModelPackageError would name the temporary: this names the package.
                throw ModelPackageError.writeFailed(package: url, reason: (error as? LocalizedError)?.errorDescription ?? "\(error)")
            }
        }
    }

    /// Builds a folder for `destination` and swaps it in whole: `build` fills a new folder beside
    /// `destination` (named as every atomic writer's temporary, so a signal removes it and a later write
    /// sweeps what a killed process left), then ``swapIntoPlace(_:destination:useExchange:)`` replaces
    /// what is there. Checking that `destination` may be replaced is the caller's.
    ///
    ///     try ModelPackage.writeFolder(to: checkpoint) { folder in try weights.write(in: folder) }
    /// - Throws: ``ModelPackageError/writeFailed(package:reason:)`` naming `destination` (a `ModelPackageError`
    ///   from `build` as it is); the previous folder, if any, is then unchanged and the temporary gone.
    package static func writeFolder(to destination: URL, _ build: (URL) throws -> Void) throws {
        AtomicFile.removeAbandonedTemporaries(beside: destination)
        let temporary = AtomicFile.temporaryURL(beside: destination)
        do {
            try TemporaryFiles.create(temporary) { try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: false) }
        } catch {
            throw ModelPackageError.writeFailed(package: destination, reason: "cannot create \(temporary.path): \(systemError())")
        }
        defer { TemporaryFiles.unregister(temporary) }
        var swapped = false
        // Before the unregistering above: a signal meanwhile still finds the temporary.
        defer { if !swapped { try? FileManager.default.removeItem(at: temporary) } }
        do {
            try build(temporary)
        } catch let error as ModelPackageError {
            throw error
        } catch {
            throw ModelPackageError.writeFailed(package: destination, reason: (error as? LocalizedError)?.errorDescription ?? "\(error)")
        }
        try swapIntoPlace(temporary, destination: destination)
        swapped = true
    }

    /// Checks that a package of `kind` may be saved at `url`, before any work: nothing is there, an
    /// empty folder (not the current one), or a model package (recognised by its manifest) of the same
    /// kind — of any kind with `.anyModelPackage` — holding nothing but the files NLUKit writes there
    /// (`manifest.json`, `weights.safetensors`, `optimizer.safetensors`, their temporaries). A symbolic
    /// link is followed to its target.
    /// - Returns: the path the package will be written to (links followed).
    /// - Throws: ``ModelPackageError/destinationInUse(package:holds:remedy:)`` saying what is there.
    @discardableResult
    public static func checkDestination(_ given: URL, kind: String, replacing: Replacement = .sameKind) throws -> URL {
        let url: URL
        do {
            url = try ExistingPath.resolvingSymbolicLinks(given.standardizedFileURL)
        } catch {
            throw ModelPackageError.destinationInUse(package: given, holds: "a loop of symbolic links", remedy: "choose another path")
        }
        let newPath = "choose a new path such as NAME.nlumodel, or move it away yourself"
        switch ExistingPath(url) {
        case .nothing:
            let folder = url.deletingLastPathComponent()
            guard ExistingPath(try ExistingPath.resolvingSymbolicLinks(folder)) == .directory else {
                throw ModelPackageError.writeFailed(package: given, reason: "the folder \(folder.path) does not exist")
            }
            return url
        case .regularFile:
            throw ModelPackageError.destinationInUse(package: given, holds: "a file, not a model package", remedy: newPath)
        case .specialFile, .symbolicLink:
            throw ModelPackageError.destinationInUse(package: given, holds: "a special file, not a model package", remedy: newPath)
        case .directory:
            break
        }
        let currentDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        if url.path == "/" || ExistingPath.isSameFile(url, currentDirectory) {
            throw ModelPackageError.destinationInUse(package: given, holds: "the current directory (or the root)", remedy: newPath)
        }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        if entries.isEmpty { return url }
        guard let data = try? InputFile.readModelFile(url.appendingPathComponent(manifestFileName)),
              let header = try? JSONDecoder().decode(ManifestHeader.self, from: data), header.format == "nlumodel" else {
            let shown = entries.sorted().prefix(3).joined(separator: ", ") + (entries.count > 3 ? ", ..." : "")
            throw ModelPackageError.destinationInUse(
                package: given, holds: "a folder that is not a model package (\(entries.count == 1 ? "1 entry" : "\(entries.count) entries"): \(shown))",
                remedy: newPath)
        }
        let existingKind = header.kind ?? "unknown"
        guard existingKind == kind || replacing == .anyModelPackage else {
            throw ModelPackageError.destinationInUse(
                package: given, holds: "a model package of kind '\(existingKind)', not '\(kind)'",
                remedy: "pass --force to replace it, or choose another path")
        }
        // Replacing the package removes the whole folder: files a user put beside ours would go with it.
        let extra = entries.filter { !isPackageFile($0) }.sorted().map { name in
            ExistingPath(url.appendingPathComponent(name)) == .directory ? name + "/" : name
        }
        if !extra.isEmpty {
            let shown = extra.prefix(5).joined(separator: ", ") + (extra.count > 5 ? ", ... (\(extra.count) in all)" : "")
            throw ModelPackageError.destinationInUse(
                package: given, holds: "a model package with entries a model package does not have (\(shown))",
                remedy: "move them out of the package, or choose another path")
        }
        return url
    }

    /// Whether `name` is a file NLUKit writes into a package, or the temporary of one that a killed
    /// writer left (`weights.safetensors.tmp-PID-RANDOM`, see ``AtomicFile/temporaryURL(beside:)``).
    private static func isPackageFile(_ name: String) -> Bool {
        packageFileNames.contains(name) || packageFileNames.contains { file in
            name.hasPrefix(file + ".tmp-") && name.dropFirst(file.count + 5).allSatisfy { $0.isHexDigit || $0 == "-" }
        }
    }

    /// Reads the package at `url`, checking its format, version and kind, and decodes its configuration.
    /// - Returns: the configuration, the manifest's metadata and the (memory-mapped, validated) weights.
    /// - Throws: ``ModelPackageError`` for a missing file, bad JSON (saying where), another
    ///   format, a newer format version or another kind; ``SafeTensorsError`` for bad weights.
    public static func load<Config: Decodable>(
        from url: URL, kind: String, config: Config.Type
    ) throws -> (config: Config, metadata: [String: String], weights: SafeTensors) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ModelPackageError.missingFile(package: url, file: "")
        }
        guard isDirectory.boolValue else { throw ModelPackageError.notADirectory(package: url) }
        let manifestURL = url.appendingPathComponent(manifestFileName)
        let data: Data
        do { data = try InputFile.readModelFile(manifestURL) } catch is InputReadError {
            throw ModelPackageError.missingFile(package: url, file: manifestFileName)
        }
        // One parse; the body's errors wait until the header says this is the right kind of package.
        let manifest = try reportingDecodingErrors(package: url, data: data, probe: ManifestHeader.self) {
            try JSONDecoder().decode(ManifestContents<Config>.self, from: data)
        }
        let header = manifest.header
        guard header.format == "nlumodel" else {
            throw ModelPackageError.notAModelPackage(package: url, format: header.format)
        }
        guard header.formatVersion <= formatVersion else {
            throw ModelPackageError.unsupportedFormatVersion(package: url, version: header.formatVersion, supported: formatVersion)
        }
        guard header.formatVersion >= 1 else {
            throw ModelPackageError.invalidManifest(package: url, field: "formatVersion",
                                                    reason: "\(header.formatVersion) is not a valid version (versions start at 1)")
        }
        guard let packageKind = header.kind else {
            throw ModelPackageError.invalidManifest(package: url, field: "kind", reason: "missing field 'kind'")
        }
        guard packageKind == kind else {
            throw ModelPackageError.wrongKind(package: url, kind: packageKind, expected: kind)
        }
        let body = try reportingDecodingErrors(package: url, data: data, probe: ManifestBody<Config>.self) { try manifest.body.get() }
        let weightsURL = url.appendingPathComponent(weightsFileName)
        guard FileManager.default.fileExists(atPath: weightsURL.path) else {
            throw ModelPackageError.missingFile(package: url, file: weightsFileName)
        }
        return (body.config, body.metadata ?? [:], try SafeTensors(contentsOf: weightsURL))
    }

    /// Runs `body`, turning a `DecodingError` into ``ModelPackageError/invalidManifest(package:field:reason:)``
    /// that names the field (`probe` is the type whose decoding failed, to find a number Foundation
    /// could not convert).
    private static func reportingDecodingErrors<T, Probe: Decodable>(
        package: URL, data: Data, probe: Probe.Type, _ body: () throws -> T
    ) throws -> T {
        do {
            return try body()
        } catch where JSONFile.isDecoderError(error) {
            let (field, reason) = JSONFile.describe(anyError: error, decoding: probe, from: data)
            throw ModelPackageError.invalidManifest(package: package, field: field, reason: reason)
        }
    }

    /// Moves the finished package at `temporary` to `destination`. An existing package is
    /// exchanged atomically where the system can (Linux `renameat2(RENAME_EXCHANGE)`), else moved
    /// aside first; either way the old package is only deleted once the new one is in place.
    /// (`useExchange: false` forces the portable path, for tests.)
    package static func swapIntoPlace(_ temporary: URL, destination: URL, useExchange: Bool = true) throws {
        let fileManager = FileManager.default
        guard fileManager.fileExists(atPath: destination.path) else {
            guard rename(temporary.path, destination.path) == 0 else {
                throw ModelPackageError.writeFailed(package: destination, reason: "cannot move the new package into place: \(systemError())")
            }
            return
        }
        if useExchange, exchange(temporary, destination) {
            // `temporary` now holds the old package: a signal from here on removes the old one, as wanted.
            try? fileManager.removeItem(at: temporary)  // now holds the old package
            return
        }
        let aside = destination.deletingLastPathComponent()
            .appendingPathComponent("\(destination.lastPathComponent).old-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))")
        guard rename(destination.path, aside.path) == 0 else {
            throw ModelPackageError.writeFailed(package: destination, reason: "cannot move the old package aside: \(systemError())")
        }
        guard rename(temporary.path, destination.path) == 0 else {
            let reason = systemError()
            _ = rename(aside.path, destination.path)  // put the old one back
            throw ModelPackageError.writeFailed(package: destination, reason: "cannot move the new package into place: \(reason)")
        }
        try? fileManager.removeItem(at: aside)
    }

    /// Atomically exchanges two paths with Linux's `renameat2(..., RENAME_EXCHANGE)`, looked up
    /// at run time (it is missing from older C libraries); false when unavailable or refused.
    private static func exchange(_ first: URL, _ second: URL) -> Bool {
        #if os(Linux)
        typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "renameat2") else { return false }
        let renameat2 = unsafeBitCast(symbol, to: RenameAt2.self)
        let currentDirectory: Int32 = -100  // AT_FDCWD
        let renameExchange: UInt32 = 1 << 1  // RENAME_EXCHANGE
        return renameat2(currentDirectory, first.path, currentDirectory, second.path, renameExchange) == 0
        #else
        return false
        #endif
    }

    private static func systemError() -> String { String(cString: strerror(errno)) }

    private struct Manifest<Config: Encodable>: Encodable {
        var format: String
        var formatVersion: Int
        var kind: String
        var config: Config
        var metadata: [String: String]
    }

    private struct ManifestHeader: Decodable {
        var format: String
        var formatVersion: Int
        var kind: String?  // checked after the version, which may change the schema
    }

    private struct ManifestBody<Config: Decodable>: Decodable {
        var config: Config
        var metadata: [String: String]?
    }

    /// The header and the body from one parse of the manifest; the body's decoding error is kept
    /// rather than thrown, so that a wrong format, version or kind is reported first.
    private struct ManifestContents<Config: Decodable>: Decodable {
        var header: ManifestHeader
        var body: Result<ManifestBody<Config>, any Error>

        init(from decoder: any Decoder) throws {
            header = try ManifestHeader(from: decoder)
            do { body = .success(try ManifestBody<Config>(from: decoder)) } catch { body = .failure(error) }
        }
    }
}
