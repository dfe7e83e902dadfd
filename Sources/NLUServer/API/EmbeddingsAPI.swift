import Foundation
import NLUCore

/// `POST /embed` (Hugging Face Text Embeddings Inference) and `POST /v1/embeddings` (OpenAI).
///
/// - TEI: `{"inputs": "text" | ["text", ...], "normalize": true}` → `[[Float]]`. The Hugging Face
///   client's form `{"inputs": ..., "parameters": {...}}` works too: unknown fields are ignored, as TEI does.
/// - OpenAI: `{"input": "text" | ["text", ...], "model": "name", "encoding_format": "float" | "base64"}` →
///   `{"object": "list", "data": [{"object": "embedding", "index", "embedding"}], "model", "usage"}`.
///   `base64` is little-endian Float32, as OpenAI sends it (its Python client asks for it by default).
///
/// Both normalize to unit length by default (TEI's default; OpenAI's embeddings are unit length).
enum EmbeddingsAPI {
    /// The most texts one request may embed (OpenAI's limit).
    static let maxTexts = 2048

    /// A string or an array of strings, as both APIs accept.
    struct Texts: Decodable, Sendable {
        var texts: [String]

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                texts = [text]
            } else if let texts = try? container.decode([String].self) {
                self.texts = texts
            } else {
                throw APIError.badRequest("\(Self.fieldName(decoder.codingPath)): expected a string or an array of strings")
            }
        }

        static func fieldName(_ path: [any CodingKey]) -> String {
            "field '\(path.map(\.stringValue).joined(separator: "."))'"
        }

        /// Checks the count (1 ... ``maxTexts``).
        func validated(field: String) throws -> [String] {
            guard !texts.isEmpty else { throw APIError.badRequest("field '\(field)': expected at least one text") }
            guard texts.count <= EmbeddingsAPI.maxTexts else {
                throw APIError.unprocessable("field '\(field)': \(texts.count) texts is over the limit of \(EmbeddingsAPI.maxTexts) per request")
            }
            return texts
        }
    }

    struct TEIRequest: Decodable, Sendable {
        var inputs: Texts
        var normalize: Bool?
    }

    struct OpenAIRequest: Decodable, Sendable {
        var input: Texts
        var model: String?
        var encodingFormat: String?

        enum CodingKeys: String, CodingKey {
            case input, model
            case encodingFormat = "encoding_format"
        }
    }

    struct OpenAIResponse: Encodable, Sendable {
        struct Item: Encodable, Sendable {
            var object = "embedding"
            var index: Int
            var embedding: Embedding
        }
        struct Usage: Encodable, Sendable {
            var promptTokens: Int
            var totalTokens: Int
            enum CodingKeys: String, CodingKey {
                case promptTokens = "prompt_tokens"
                case totalTokens = "total_tokens"
            }
        }
        var object = "list"
        var data: [Item]
        var model: String
        var usage: Usage
    }

    /// An embedding as a JSON array of numbers, or as OpenAI's base64 string of little-endian Float32.
    enum Embedding: Encodable, Sendable {
        case floats([Float])
        case base64([Float])

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .floats(let values):
                try container.encode(values)
            case .base64(let values):
                var bytes = Data(capacity: values.count * 4)
                for value in values { withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }
                try container.encode(bytes.base64EncodedString())
            }
        }
    }

    /// The embedding's form for an OpenAI `encoding_format`.
    /// - Throws: 400 for a format other than "float" or "base64".
    static func embedding(_ values: [Float], format: String?) throws -> Embedding {
        switch format ?? "float" {
        case "float": return .floats(values)
        case "base64": return .base64(values)
        default: throw APIError.badRequest("field 'encoding_format': expected \"float\" or \"base64\", got \"\(EchoedValue.prefix(format ?? ""))\"")
        }
    }
}
