import Foundation
import NLUInputOutput

/// A parsed JSON object file with typed accessors whose errors name the file and field.
struct JSONFile {
    let name: String
    let root: [String: Any]

    init(url: URL) throws {
        name = url.lastPathComponent
        let data: Data
        do {
            data = try InputFile.readModelFile(url)
        } catch let error as InputTooLargeError {
            throw BertTokenizerError.invalidFile(file: url.path, detail: error.reason)
        } catch let error as InputReadError {
            throw BertTokenizerError.invalidFile(file: url.path, detail: "cannot read (\(error.reason))")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data), let root = object as? [String: Any] else {
            throw BertTokenizerError.invalidFile(file: name, detail: "not a JSON object")
        }
        self.root = root
    }

    func object(_ key: String) throws -> [String: Any]? {
        guard let value = root[key], !(value is NSNull) else { return nil }
        guard let object = value as? [String: Any] else {
            throw BertTokenizerError.invalidFile(file: name, detail: "\"\(key)\" must be an object or null")
        }
        return object
    }

    func bool(_ key: String, in object: [String: Any]? = nil, field: String? = nil) throws -> Bool? {
        guard let value = (object ?? root)[key], !(value is NSNull) else { return nil }
        guard let flag = value as? Bool else {
            throw BertTokenizerError.invalidFile(file: name, detail: "\"\(field ?? key)\" must be true, false or null")
        }
        return flag
    }

    func string(_ key: String, in object: [String: Any]? = nil, field: String? = nil) throws -> String? {
        guard let value = (object ?? root)[key], !(value is NSNull) else { return nil }
        guard let string = value as? String else {
            throw BertTokenizerError.invalidFile(file: name, detail: "\"\(field ?? key)\" must be a string")
        }
        return string
    }

    /// A special-token entry of `tokenizer_config.json`: a string or `{"content": ...}`.
    func tokenName(_ key: String) throws -> String? {
        guard let value = root[key], !(value is NSNull) else { return nil }
        if let string = value as? String { return string }
        if let content = (value as? [String: Any])?["content"] as? String { return content }
        throw BertTokenizerError.invalidFile(file: name, detail: "\"\(key)\" must be a string or an object with \"content\"")
    }
}
