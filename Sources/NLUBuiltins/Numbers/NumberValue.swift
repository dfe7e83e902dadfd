import Foundation

/// A resolved number: exact while it fits an `Int64`, a `Double` for fractions and decimals, and the
/// digits themselves when a literal is too large for either (kept as text, never trapped on).
enum NumberValue: Sendable, Equatable {
    case integer(Int64)
    case real(Double)
    case literal(String)

    /// The value of a digit string such as "1234567" (separators already removed).
    init(digits: Substring) {
        if let integer = Int64(digits) {
            self = .integer(integer)
        } else {
            let trimmed = digits.drop { $0 == "0" }
            self = .literal(trimmed.isEmpty ? "0" : String(trimmed))
        }
    }

    var double: Double {
        switch self {
        case .integer(let value): return Double(value)
        case .real(let value): return value
        case .literal(let text): return Double(text) ?? .infinity
        }
    }

    var isInteger: Bool {
        if case .integer = self { return true }
        return false
    }

    /// The whole number, or nil for a fraction or a literal. Read this rather than `Int(double)`: an integer
    /// near `Int64.max` ("nine quintillion 223 quadrillion … 807") rounds up to 2^63 as a `Double`, which `Int`
    /// traps on (`nlu entities extract` died on such a year).
    var integer: Int? {
        if case .integer(let value) = self { return Int(value) }
        return nil
    }

    static func + (lhs: NumberValue, rhs: NumberValue) -> NumberValue {
        if case .integer(let a) = lhs, case .integer(let b) = rhs {
            let (sum, overflow) = a.addingReportingOverflow(b)
            if !overflow { return .integer(sum) }
        }
        // "thirty-two quintillion one hundred…": whole numbers past Int64 stay exact, as their digits.
        if let a = lhs.wholeDigits, let b = rhs.wholeDigits {
            return NumberValue(digits: Substring(DecimalDigits.sum(a, b)))
        }
        if case .literal = lhs, rhs == .integer(0) { return lhs }
        return .real(lhs.double + rhs.double)
    }

    static func * (lhs: NumberValue, rhs: NumberValue) -> NumberValue {
        if case .integer(let a) = lhs, case .integer(let b) = rhs {
            let (product, overflow) = a.multipliedReportingOverflow(by: b)
            if !overflow { return .integer(product) }
        }
        if case .literal = lhs, rhs == .integer(1) { return lhs }
        if let a = lhs.wholeDigits, let b = rhs.wholeDigits {
            return NumberValue(digits: Substring(DecimalDigits.product(a, b)))
        }
        let product = lhs.double * rhs.double
        // From 1e15 up a product of a fraction is a double that .NET writes in exponent notation ("0,9 trilioni" 9E+17).
        if product.isFinite, product.rounded() == product, abs(product) < 1.0e15 { return .integer(Int64(product)) }
        return .real(product)
    }

    static prefix func - (value: NumberValue) -> NumberValue {
        switch value {
        case .integer(let a): return a == .min ? .real(-Double(a)) : .integer(-a)
        case .real(let a): return .real(-a)
        case .literal(let text): return .literal("-" + text)
        }
    }

    /// The digits of a whole number that is not negative (an integer or a literal), else nil.
    private var wholeDigits: [UInt8]? {
        switch self {
        case .integer(let value): return value >= 0 ? DecimalDigits.digits(String(value)) : nil
        case .literal(let text): return DecimalDigits.digits(text)
        case .real: return nil
        }
    }

    /// `lhs / rhs`, or nil when dividing by zero.
    static func / (lhs: NumberValue, rhs: NumberValue) -> NumberValue? {
        let divisor = rhs.double
        guard divisor != 0 else { return nil }
        if case .integer(let a) = lhs, case .integer(let b) = rhs, a % b == 0 { return .integer(a / b) }
        return .real(lhs.double / divisor)
    }

    /// The value as Recognizers-Text writes it: integers in full, other numbers with 15 significant
    /// digits ("0.333333333333333", "1E-12", "1.232E+15"), literals as their digits.
    var text: String {
        switch self {
        case .integer(let value): return String(value)
        case .literal(let text): return text
        case .real(let value):
            guard value.isFinite else { return value > 0 ? "Infinity" : "-Infinity" }
            if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
            // The shortest text that reads back as `value` ("0.25"), when it has at most 15 significant digits and no
            // exponent, is what %.15g writes too, without Foundation's formatter (a twelfth of reading Japanese numbers).
            let shortest = value.description
            if abs(value) >= 1e-4, !shortest.utf8.contains(UInt8(ascii: "e")),
               shortest.utf8.drop(while: { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "0") || $0 == UInt8(ascii: ".") })
                   .filter({ $0 != UInt8(ascii: ".") }).count <= 15 {
                return shortest
            }
            // %g switches to exponent notation below 1e-5 and from 1e15 up, as .NET's G15 does.
            var formatted = String(format: "%.15g", value)
            if let e = formatted.firstIndex(of: "e") {
                var mantissa = String(formatted[..<e])
                if mantissa.contains(".") {
                    while mantissa.hasSuffix("0") { mantissa.removeLast() }
                    if mantissa.hasSuffix(".") { mantissa.removeLast() }
                }
                formatted = mantissa + "E" + formatted[formatted.index(after: e)...]
            }
            return formatted
        }
    }
}

/// Schoolbook arithmetic on whole numbers written as decimal digits (most significant first), for the
/// spelled numbers that pass `Int64` ("four quintillion…" fits, "thirty-two quintillion…" does not).
/// Spelled numbers are bounded in length by the number parser, so the digits stay short.
enum DecimalDigits {
    /// The digits of `text`, or nil unless it is all ASCII digits.
    static func digits(_ text: String) -> [UInt8]? {
        var result: [UInt8] = []
        for byte in text.utf8 {
            guard byte >= 48, byte <= 57 else { return nil }
            result.append(byte - 48)
        }
        return result.isEmpty ? nil : result
    }

    static func sum(_ a: [UInt8], _ b: [UInt8]) -> String {
        var result: [UInt8] = []
        var carry = 0
        var i = a.count - 1, j = b.count - 1
        while i >= 0 || j >= 0 || carry > 0 {
            let total = (i >= 0 ? Int(a[i]) : 0) + (j >= 0 ? Int(b[j]) : 0) + carry
            result.append(UInt8(total % 10))
            carry = total / 10
            i -= 1
            j -= 1
        }
        return text(result.reversed())
    }

    static func product(_ a: [UInt8], _ b: [UInt8]) -> String {
        var result = [Int](repeating: 0, count: a.count + b.count)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                result[i + j + 1] += Int(a[i]) * Int(b[j])
            }
        }
        for k in stride(from: result.count - 1, to: 0, by: -1) {
            result[k - 1] += result[k] / 10
            result[k] %= 10
        }
        return text(result.map { UInt8($0) })
    }

    private static func text(_ digits: some Sequence<UInt8>) -> String {
        let string = String(decoding: digits.map { $0 + 48 }, as: UTF8.self)
        let trimmed = string.drop { $0 == "0" }
        return trimmed.isEmpty ? "0" : String(trimmed)
    }
}
