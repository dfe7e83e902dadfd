import ArgumentParser
import Foundation

/// How `nlu embed` writes embeddings: JSON lines, tab-separated values, or a NumPy `.npy` matrix.
enum EmbeddingFormat: String, ExpressibleByArgument, CaseIterable {
    /// One `{"text": ..., "embedding": [...]}` per line, in input order.
    case jsonl
    /// One line of tab-separated floats per text (the TensorFlow projector's vectors.tsv).
    case tsv
    /// A float32 [texts, dimension] matrix in NumPy's format (version 1.0, little-endian).
    case npy
}

/// Writes embeddings in an ``EmbeddingFormat`` to a sink as they come, through a 64 KiB buffer: what it
/// holds does not grow with the number of texts. npy's header comes first and holds the row count, so the
/// caller counts the texts before the first row.
final class EmbeddingWriter {
    private let format: EmbeddingFormat
    private let sink: (Data) throws -> Void
    private var buffer = Data()
    /// The rows the header announced (npy).
    private let declaredRows: Int
    private let dimension: Int
    private var rows = 0

    /// A writer of `rows` embeddings of `dimension` floats in `format` (the shape is npy's header).
    init(format: EmbeddingFormat, rows: Int, dimension: Int, sink: @escaping (Data) throws -> Void) {
        self.format = format
        self.sink = sink
        declaredRows = rows
        self.dimension = dimension
        if format == .npy { buffer.append(Self.npyHeader(rows: rows, columns: dimension)) }
    }

    private let textEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()

    func write(text: String, embedding: [Float]) throws {
        precondition(embedding.count == dimension, "an embedding of \(embedding.count) floats, not \(dimension)")
        rows += 1
        switch format {
        case .jsonl:
            // Written by hand so "text" comes first, as documented; Float's description is the
            // shortest form that reads back exactly, and a valid JSON number.
            buffer.append(Data(#"{"text":"#.utf8))
            buffer.append(try textEncoder.encode(text))
            buffer.append(Data((#","embedding":["# + embedding.map { "\($0)" }.joined(separator: ",") + "]}\n").utf8))
        case .tsv:
            buffer.append(Data((embedding.map { "\($0)" }.joined(separator: "\t") + "\n").utf8))
        case .npy:
            guard rows <= declaredRows else { throw Self.changedInput(declaredRows) }
            embedding.withUnsafeBytes { buffer.append(contentsOf: $0) }   // x86-64 and arm64 are little-endian
        }
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Writes what is pending. An npy writer checks that it wrote the rows its header announced.
    /// - Throws: what the sink throws; ``InputError`` when an npy input held another number of texts
    ///   than counted before (the file changed while it was read).
    func finish() throws {
        if format == .npy, rows != declaredRows { throw Self.changedInput(declaredRows) }
        try flush()
    }

    private static func changedInput(_ counted: Int) -> InputError {
        InputError("the input changed while it was read: \(counted) texts were counted for the npy header, and then another number embedded")
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        try sink(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// The `.npy` 1.0 header: magic, version, length, and a dict padded so the data starts at a
    /// multiple of 64 bytes.
    static func npyHeader(rows: Int, columns: Int) -> Data {
        var dictionary = "{'descr': '<f4', 'fortran_order': False, 'shape': (\(rows), \(columns)), }"
        let unpadded = 10 + dictionary.utf8.count + 1
        dictionary += String(repeating: " ", count: (64 - unpadded % 64) % 64) + "\n"
        var header = Data([0x93]) + Data("NUMPY".utf8) + Data([1, 0])
        let length = UInt16(dictionary.utf8.count)
        header += Data([UInt8(length & 0xFF), UInt8(length >> 8)])
        header += Data(dictionary.utf8)
        return header
    }
}
