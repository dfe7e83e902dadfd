/// JSON written straight into a byte buffer, byte for byte as Foundation's `JSONEncoder` writes the same values
/// with `.withoutEscapingSlashes` (and `.sortedKeys` when the caller gives each object's keys in that order: by
/// their UTF-8 bytes, so "Mod" before "end"): strings escaped as it escapes them (`\"`, `\\`, `\b`, `\f`, `\n`,
/// `\r`, `\t`, other control characters as `\u00xx`; "/", DEL and non-ASCII as they are), integers in decimal.
///
/// For output written a line at a time where `JSONEncoder`'s cost per value counts (it builds a dictionary per
/// object, sorts it, and allocates a new `Data`): a type writes itself with the calls below, in the key order
/// `JSONEncoder` would choose, and a test compares the two.
///
///     var json = JSONWriter()
///     json.beginObject()
///     json.key("end"); json.integer(5)
///     json.key("text"); json.string("a \"b\"")
///     json.endObject()
///     json.bytes  // {"end":5,"text":"a \"b\""}
public struct JSONWriter: Sendable {
    /// What has been written (UTF-8).
    public private(set) var bytes: [UInt8] = []
    /// Per open container, whether it holds an element yet (a comma goes before the next).
    private var containerHasElements: [Bool] = []
    /// Whether a key was just written, so that the value after it takes no comma.
    private var afterKey = false

    public init() {}

    /// Forgets what was written, keeping the buffer's capacity (for the next piece of a stream).
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// Writes bytes as they are, outside any container's comma bookkeeping (a newline between JSON lines).
    public mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    public mutating func beginObject() { open(UInt8(ascii: "{")) }
    public mutating func endObject() { close(UInt8(ascii: "}")) }
    public mutating func beginArray() { open(UInt8(ascii: "[")) }
    public mutating func endArray() { close(UInt8(ascii: "]")) }

    private mutating func open(_ bracket: UInt8) {
        startValue()
        bytes.append(bracket)
        containerHasElements.append(false)
    }

    private mutating func close(_ bracket: UInt8) {
        containerHasElements.removeLast()
        bytes.append(bracket)
    }

    /// An object's key; its value comes next.
    public mutating func key(_ name: StaticString) {
        separateFromPrevious()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))  // byte by byte: an array literal here is allocated at every key
        bytes.append(UInt8(ascii: ":"))
        afterKey = true
    }

    public mutating func string(_ value: String) {
        startValue()
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { appendEscaped($0) }
        bytes.append(UInt8(ascii: "\""))
    }

    public mutating func integer(_ value: Int) {
        startValue()
        if value >= 0 && value < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
        } else {
            bytes.append(contentsOf: String(value).utf8)
        }
    }

    private mutating func startValue() {
        if afterKey {
            afterKey = false
        } else {
            separateFromPrevious()
        }
    }

    private mutating func separateFromPrevious() {
        guard let last = containerHasElements.indices.last else { return }
        if containerHasElements[last] { bytes.append(UInt8(ascii: ",")) } else { containerHasElements[last] = true }
    }

    /// `utf8` escaped as `JSONEncoder` escapes a string's contents; runs that need no escape are copied whole.
    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
            runStart = index + 1
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            default:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                          hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            }
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
    }
}
