import Foundation
import NLUCore
import NLUHub
import NLUEmbeddings
import NLUSearch

/// Finds the embedder a model name or directory stands for, so that tools can record it in an
/// index and load it again from there.
///
///     let embedder = try EmbedderLoading.load("hashing:384")
public enum EmbedderLoading {
    /// `hashing` or `hashing:DIMENSION` (the model-free ``HashingEmbedder``, 384 by default), or
    /// a sentence-transformers model (``SentenceIndexEmbedder``): its directory, or its Hub id in the
    /// Hugging Face cache (``ModelLocator``).
    ///
    /// - Throws: ``SearchError/invalidArgument(_:)`` saying what was expected, or the model's
    ///   loading error.
    public static func load(_ source: String) throws -> any TextEmbedder {
        if source == "hashing" { return try HashingEmbedder() }
        if let dimension = try hashingDimension(source) { return try HashingEmbedder(dimension: dimension) }
        // A directory, or a Hub id (ORG/NAME[@REV]) found in the Hugging Face cache, as every --model.
        let directory: URL
        do {
            directory = try ModelLocator.resolve(source)
        } catch {
            throw SearchError.invalidArgument("model \"\(source)\": \(error) (expected a sentence-transformers model directory or Hub id, hashing or hashing:DIMENSION)")
        }
        return try SentenceIndexEmbedder(modelDirectory: directory)
    }

    /// Checks the form of a built-in model name (`hashing:DIMENSION`) without loading anything, so
    /// that a tool can report it as a usage error before any work; a directory or Hub id is
    /// checked when it is loaded.
    ///
    /// - Throws: ``SearchError/invalidArgument(_:)`` naming the accepted range.
    public static func checkBuiltInName(_ source: String) throws {
        _ = try hashingDimension(source)
    }

    /// The dimension of `hashing:DIMENSION`; nil for any other source.
    private static func hashingDimension(_ source: String) throws -> Int? {
        guard source.hasPrefix("hashing:") else { return nil }
        guard let dimension = Int(source.dropFirst("hashing:".count)), (1...HashingEmbedder.maximumDimension).contains(dimension) else {
            throw SearchError.invalidArgument(
                "model \"\(source)\": expected hashing:DIMENSION with a whole number from 1 to \(HashingEmbedder.maximumDimension)")
        }
        return dimension
    }

    /// What to record in an index for `source`: a directory as an absolute path (so that the
    /// index can be used from anywhere), a built-in name as it is.
    public static func recordedSource(_ source: String) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory), isDirectory.boolValue else { return source }
        return URL(fileURLWithPath: source).standardizedFileURL.path
    }

    /// Opens the index at `url` with the embedder it was built with — the model recorded at its
    /// creation, or `model` when given (which must be the same model) — or with none when
    /// `needsEmbedder` is false (keyword search, info, delete: no model is loaded). `readOnly` opens
    /// it for reading only (search, info, QA), which also works on a read-only folder or mount.
    /// The file is opened once: the model is read from it, loaded, then attached
    /// (``DocumentIndex/withEmbedder(_:)``).
    public static func openIndex(at url: URL, model: String? = nil, needsEmbedder: Bool, readOnly: Bool = false) throws -> DocumentIndex {
        let plain = try DocumentIndex(at: url, readOnly: readOnly)
        guard let embedder = try recordedEmbedder(for: plain, model: model, needsEmbedder: needsEmbedder) else { return plain }
        return try plain.withEmbedder(embedder)
    }

    /// The embedder to open `index` (opened without one) with: loaded from `model` when given, else
    /// from the location the index records; nil when `needsEmbedder` is false or the index is
    /// keyword-only. Either backend: attach it with its `withEmbedder`.
    ///
    /// - Throws: ``SearchError/embedderRequired(_:)`` when no `model` is given and the index records
    ///   no location or its model does not load from there (moved or removed), or the loading error
    ///   of `model`.
    public static func recordedEmbedder(for index: any SearchableIndex, model: String?, needsEmbedder: Bool) throws -> (any TextEmbedder)? {
        guard needsEmbedder, index.model != nil else { return nil }
        if let model { return try load(model) }
        guard let source = index.modelSource else {
            throw SearchError.embedderRequired("\(index.location): the index records no model location; give --model")
        }
        do {
            return try load(source)
        } catch {
            // The model's folder may have been moved or renamed since: the same files load from anywhere.
            throw SearchError.embedderRequired("\(index.location): the model recorded at its creation does not load from there: \(error); give --model with where it is now")
        }
    }
}
