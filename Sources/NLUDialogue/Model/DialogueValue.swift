import Foundation

/// A JSON value: what a context variable holds, what a condition evaluates to, what a custom payload carries.
///
///     let value: DialogueValue = ["cuisine": "thai", "guests": 4]
///     value["guests"]?.number   // 4
///     value.isTruthy            // true
public enum DialogueValue: Sendable, Equatable, Hashable, Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([DialogueValue])
    case object([String: DialogueValue])

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null; return }
        if let bool = try? container.decode(Bool.self) { self = .bool(bool); return }
        if let number = try? container.decode(Double.self) { self = .number(number); return }
        if let string = try? container.decode(String.self) { self = .string(string); return }
        if let array = try? container.decode([DialogueValue].self) { self = .array(array); return }
        self = .object(try container.decode([String: DialogueValue].self))
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let bool): try container.encode(bool)
        case .number(let number):
            // Whole numbers stay integers in the JSON written (a counter of 3 is `3`, not `3.0`).
            if number.rounded() == number, abs(number) < 1e15 { try container.encode(Int64(number)) } else { try container.encode(number) }
        case .string(let string): try container.encode(string)
        case .array(let array): try container.encode(array)
        case .object(let object): try container.encode(object)
        }
    }

    /// The member `key` of an object, `nil` for anything else.
    public subscript(key: String) -> DialogueValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The string, `nil` for anything else.
    public var string: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The number, or a string that reads as one (entity values such as `@sys-number` arrive as text).
    public var number: Double? {
        switch self {
        case .number(let number): return number
        case .string(let string): return Double(string.trimmingCharacters(in: .whitespaces))
        case .bool, .null, .array, .object: return nil
        }
    }

    /// Watson's truth of a value used as a condition: `null`, `false`, `0` and `""` are false, anything else true.
    public var isTruthy: Bool {
        switch self {
        case .null: return false
        case .bool(let bool): return bool
        case .number(let number): return number != 0
        case .string(let string): return !string.isEmpty
        case .array, .object: return true
        }
    }

    /// The value as it is shown inside a response text: strings as they are, whole numbers without a
    /// decimal point, `null` as nothing, arrays and objects as compact JSON.
    public var displayText: String {
        switch self {
        case .null: return ""
        case .bool(let bool): return bool ? "true" : "false"
        case .number(let number):
            if number.rounded() == number, abs(number) < 1e15 { return String(Int64(number)) }
            return String(number)
        case .string(let string): return string
        case .array, .object:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return (try? encoder.encode(self)).flatMap { String(data: $0, encoding: .utf8) } ?? ""
        }
    }
}

extension DialogueValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(nilLiteral: ()) { self = .null }
    public init(arrayLiteral elements: DialogueValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, DialogueValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
