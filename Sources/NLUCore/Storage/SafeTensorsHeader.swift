import Foundation
import NLUInputOutput

/// The JSON header of a safetensors file, parsed and checked field by field (the byte layout is
/// checked afterwards by ``SafeTensors``).
struct SafeTensorsHeader {
    var tensors: [String: SafeTensors.TensorInfo] = [:]
    var metadata: [String: String] = [:]

    /// Parses `bytes` (the header, possibly padded with trailing spaces).
    /// - Throws: ``SafeTensorsError`` saying which tensor and field is wrong.
    init(parsing bytes: UnsafeRawBufferPointer, file: URL) throws {
        guard bytes.first == UInt8(ascii: "{") else {
            throw SafeTensorsError(file: file, kind: .header, "the header does not start with '{' (it must be a JSON object)")
        }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw SafeTensorsError(file: file, kind: .header, "the header is not valid UTF-8")
        }
        let entries: [String: RawEntry]
        do {
            entries = try JSONDecoder().decode(RawHeader.self, from: Data(bytes)).entries
        } catch let error as SafeTensorsError {
            throw error
        } catch let DecodingError.dataCorrupted(context) where context.codingPath.isEmpty {
            let (field, reason) = JSONFile.describe(DecodingError.dataCorrupted(context), decoding: RawHeader.self, from: Data(bytes))
            throw SafeTensorsError(file: file, kind: .header, field.isEmpty ? "the header: \(reason)" : "the header's field '\(field)': \(reason)")
        } catch let error as DecodingError {
            let (path, reason) = error.locationAndReason
            let tensor = path.first
            let field = path.dropFirst().joined(separator: ".")
            throw SafeTensorsError(file: file, tensor: tensor == "__metadata__" ? nil : tensor, kind: .header,
                                   tensor == "__metadata__"
                                    ? "__metadata__ must map strings to strings: \(reason)"
                                    : "\(field.isEmpty ? "" : "field '\(field)': ")\(reason)")
        } catch {
            throw SafeTensorsError(file: file, kind: .header, "the header cannot be read: \(error)")
        }
        for (name, entry) in entries {
            if name == "__metadata__" {
                guard case .metadata(let metadata) = entry else { continue }
                self.metadata = metadata
                continue
            }
            guard case let .tensor(dtypeName, shape, offsets) = entry else { continue }
            guard let dtype = SafeTensors.DType(rawValue: dtypeName) else {
                throw SafeTensorsError(file: file, tensor: name, kind: .dtype,
                    "unsupported dtype '\(dtypeName)' (expected one of \(SafeTensors.DType.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            guard offsets.count == 2, offsets[0] >= 0, offsets[0] <= offsets[1] else {
                throw SafeTensorsError(file: file, tensor: name, kind: .layout,
                                       "data_offsets \(offsets) must be two byte offsets [begin, end] with 0 <= begin <= end")
            }
            tensors[name] = SafeTensors.TensorInfo(dtype: dtype, shape: shape, dataOffsets: offsets[0]..<offsets[1])
        }
    }

    private enum RawEntry: Decodable {
        case tensor(dtype: String, shape: [Int], dataOffsets: [Int])
        case metadata([String: String])

        private enum CodingKeys: String, CodingKey {
            case dtype, shape
            case dataOffsets = "data_offsets"
        }

        init(from decoder: Decoder) throws {
            if decoder.codingPath.last?.stringValue == "__metadata__" {
                self = .metadata(try [String: String](from: decoder))
                return
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self = .tensor(dtype: try container.decode(String.self, forKey: .dtype),
                           shape: try container.decode([JSONInteger].self, forKey: .shape).map(\.value),
                           dataOffsets: try container.decode([JSONInteger].self, forKey: .dataOffsets).map(\.value))
        }
    }

    /// An integer field. JSONDecoder reports a fraction or an out-of-range number as invalid JSON
    /// without a location; this says which field holds it.
    private struct JSONInteger: Decodable {
        var value: Int

        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(Int.self) {
                self.value = value
            } else if let number = try? container.decode(Double.self) {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(number) is not an integer in range")
            } else {
                self.value = try container.decode(Int.self)
            }
        }
    }

    private struct RawHeader: Decodable {
        var entries: [String: RawEntry]

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: NameKey.self)
            var entries: [String: RawEntry] = [:]
            for key in container.allKeys {
                entries[key.stringValue] = try container.decode(RawEntry.self, forKey: key)
            }
            self.entries = entries
        }
    }

    private struct NameKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

extension DecodingError {
    /// The coding path as names (array positions as "[i]") and a short reason, for error messages
    /// that say where in a JSON document the problem is.
    var locationAndReason: (path: [String], reason: String) {
        func names(_ path: [CodingKey]) -> [String] {
            path.map { key in key.intValue.map { "[\($0)]" } ?? key.stringValue }
        }
        switch self {
        case let .typeMismatch(type, context):
            return (names(context.codingPath), "expected \(Self.jsonName(type)): \(context.debugDescription)")
        case let .valueNotFound(type, context):
            return (names(context.codingPath), "expected \(Self.jsonName(type)), found null")
        case let .keyNotFound(key, context):
            return (names(context.codingPath), "missing field '\(key.stringValue)'")
        case let .dataCorrupted(context):
            return (names(context.codingPath), context.debugDescription)
        @unknown default:
            return ([], "\(self)")
        }
    }

    private static func jsonName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type, is Int32.Type, is Int64.Type: return "an integer"
        case is Double.Type, is Float.Type: return "a number"
        case is Bool.Type: return "true or false"
        default:
            let name = "\(type)"
            if name.hasPrefix("Array") { return "an array" }
            if name.hasPrefix("Dictionary") { return "an object" }
            return name
        }
    }
}
