import Foundation
import NLUCore
import NLUInputOutput

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
    /// The decoder's `userInfo` key for the most texts one request may embed
    /// (``ServerConfiguration/maxEmbeddingTexts``), which ``Texts`` checks while decoding.
    static let maxTextsKey = CodingUserInfoKey(rawValue: "NLUKit.maxEmbeddingTexts")!

    /// A string or an array of strings, as both APIs accept. An empty string is refused (400), as
    /// Text Embeddings Inference (`` `inputs` cannot be empty``) and OpenAI (`input` "cannot be an empty
    /// string") refuse it: it has nothing to embed, and its vector (the model's reading of `[CLS] [SEP]`)
    /// would only look like an answer. An empty array is refused the same way.
    ///
    /// The count is checked before any element is decoded: JSONDecoder has already scanned the body
    /// (bounded by `--max-body`) into its compact map, whose arrays know their length, so a request of
    /// 100,000 texts is refused without making 100,000 Swift strings. Elements are then decoded one
    /// by one, so a wrong one is named by its index.
    struct Texts: Decodable, Sendable {
        var texts: [String]
        /// Whether the request sent an array (its texts are then named `inputs[i]`), not one string.
        var isArray = false

        init(from decoder: any Decoder) throws {
            let field = JSONFile.path(decoder.codingPath)
            if let text = try? decoder.singleValueContainer().decode(String.self) {
                try Self.checkNotEmpty(text, field: field)
                texts = [text]
                return
            }
            guard var elements = try? decoder.unkeyedContainer() else {
                throw APIError.badRequest("field '\(field)': expected a string or an array of strings")
            }
            let limit = decoder.userInfo[EmbeddingsAPI.maxTextsKey] as? Int ?? ServerConfiguration().maxEmbeddingTexts
            if let count = elements.count { try Self.checkCount(count, limit: limit, field: field) }
            texts = []
            isArray = true
            while !elements.isAtEnd {
                // Without a known count, stop reading at the first text over the limit.
                if texts.count == limit { try Self.checkCount(texts.count + 1, limit: limit, field: field) }
                let index = elements.currentIndex
                guard let text = try? elements.decode(String.self) else {
                    throw APIError.badRequest("field '\(field)[\(index)]': expected a string")
                }
                try Self.checkNotEmpty(text, field: "\(field)[\(index)]")
                texts.append(text)
            }
            guard !texts.isEmpty else { throw APIError.badRequest("field '\(field)': expected at least one text") }
        }

        /// 422 for more than `limit` texts.
        private static func checkCount(_ count: Int, limit: Int, field: String) throws {
            guard count <= limit else {
                throw APIError.unprocessable("field '\(field)': \(count) texts is over this server's limit of \(limit) per request (--max-embed-texts)")
            }
        }

        /// 400 for an empty text.
        private static func checkNotEmpty(_ text: String, field: String) throws {
            guard !text.isEmpty else { throw APIError.badRequest("field '\(field)': expected a non-empty string") }
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
