import Foundation
import Testing
@testable import NLUCore
import NLUTestSupport

@Suite struct SafeTensorsTests {
    let fixture = fixturesDirectory.appendingPathComponent("safetensors/all-dtypes.safetensors")

    struct Expected: Decodable {
        struct Entry: Decodable {
            var dtype: String
            var shape: [Int]
            var float32Bits: [UInt32]
            var integers: [Int64]?
        }
        var metadata: [String: String]
        var tensors: [String: Entry]
    }

    func expected() throws -> Expected {
        let data = try Data(contentsOf: fixturesDirectory.appendingPathComponent("safetensors/all-dtypes.expected.json"))
        return try JSONDecoder().decode(Expected.self, from: data)
    }

    // MARK: Files written by Python's safetensors

    @Test func readsEveryDTypeWrittenByPythonSafetensors() throws {
        let file = try SafeTensors(contentsOf: fixture)
        let expected = try expected()
        #expect(file.names == expected.tensors.keys.sorted())
        #expect(file.metadata == expected.metadata)
        for (name, entry) in expected.tensors {
            let info = try #require(file.info(name))
            #expect(info.dtype.rawValue == entry.dtype, "\(name)")
            #expect(info.shape == entry.shape, "\(name)")
            let tensor = try file.floatTensor(name)
            #expect(tensor.shape == entry.shape, "\(name)")
            // Exact: every value of these dtypes converts to the same Float as torch's .float().
            #expect(tensor.scalars.map(\.bitPattern) == entry.float32Bits, "\(name)")
        }
    }

    @Test func readsIntegerDTypesAsInt32() throws {
        let file = try SafeTensors(contentsOf: fixture)
        for (name, entry) in try expected().tensors {
            guard let integers = entry.integers else {
                #expect(throws: SafeTensorsError.self) { try file.int32Tensor(name) }
                continue
            }
            if integers.allSatisfy({ Int32(exactly: $0) != nil }) {
                let tensor = try file.int32Tensor(name)
                #expect(tensor.shape == entry.shape)
                #expect(tensor.scalars.map(Int64.init) == integers, "\(name)")
            } else {
                let error = try #require(throws: SafeTensorsError.self) { try file.int32Tensor(name) }
                #expect(error.kind == .conversion)
                #expect(error.tensor == name)
            }
        }
    }

    @Test func float32TensorsAreZeroCopyViewsOfTheMapping() throws {
        let file = try SafeTensors(contentsOf: fixture)
        var matrix = try file.floatTensor("f32.matrix")
        #expect(!matrix.storage.isWritable)  // borrowed from the read-only map
        let original = matrix.scalars
        matrix[0, 0] = 42                    // copy-on-write, the file is untouched
        #expect(matrix.storage.isWritable)
        #expect(try file.floatTensor("f32.matrix").scalars == original)
    }

    @Test func missingTensorNamesFileAndTensor() throws {
        let file = try SafeTensors(contentsOf: fixture)
        let error = try #require(throws: SafeTensorsError.self) { try file.floatTensor("nope") }
        #expect(error.kind == .missingTensor)
        #expect(error.description.contains("all-dtypes.safetensors"))
        #expect(error.description.contains("'nope'"))
    }

    // MARK: Half precision

    @Test func float16BitConversionMatchesSwiftFloat16ForEveryPattern() {
        for bits in 0...UInt16.max {
            let reference = Float(Float16(bitPattern: bits))
            let converted = HalfPrecision.float(fromFloat16Bits: bits)
            if reference.isNaN {
                #expect(converted.isNaN)
            } else if converted.bitPattern != reference.bitPattern {
                Issue.record("F16 0x\(String(bits, radix: 16)): \(converted) != \(reference)")
                return
            }
        }
    }

    @Test func bfloat16RoundsToNearestEven() {
        #expect(HalfPrecision.bfloat16Bits(from: 1) == 0x3F80)
        #expect(HalfPrecision.bfloat16Bits(from: Float(bitPattern: 0x3F80_8000)) == 0x3F80)  // tie, even stays
        #expect(HalfPrecision.bfloat16Bits(from: Float(bitPattern: 0x3F81_8000)) == 0x3F82)  // tie, odd rounds up
        #expect(HalfPrecision.bfloat16Bits(from: Float(bitPattern: 0x3F80_8001)) == 0x3F81)
        #expect(HalfPrecision.float(fromBFloat16Bits: 0xC040) == -3)
    }

    // MARK: Writing

    @Test func roundTripsOwnFilesWithPaddedHeader() throws {
        let directory = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        var generator = SplitMix64(seed: 11)
        let tensors: [String: Tensor<Float>] = [
            "encoder.layer.0.weight": randomTensor([7, 5], using: &generator),
            "encoder.layer.0.bias": randomTensor([5], using: &generator),
            "scalar": Tensor(shape: [], scalars: [2.5]),
            "empty": Tensor(shape: [3, 0]),
            "name with \"quotes\", \\ and ü": randomTensor([1, 1, 3], using: &generator),
            "transposed": randomTensor([4, 3], using: &generator).transposed(),
        ]
        let metadata = ["format": "pt", "tab\there": "new\nline"]
        let url = directory.appendingPathComponent("round.safetensors")
        try SafeTensors.write(tensors, metadata: metadata, to: url)

        let bytes = try [UInt8](Data(contentsOf: url))
        let headerLength = bytes[0..<8].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        #expect(headerLength % 8 == 0)
        #expect(bytes[8 + headerLength - 1] == UInt8(ascii: " ") || bytes[8 + headerLength - 1] == UInt8(ascii: "}"))
        #expect(ReferenceSafeTensorsValidator.isValid(bytes))

        let file = try SafeTensors(contentsOf: url)
        #expect(file.names == tensors.keys.sorted())
        #expect(file.metadata == metadata)
        for (name, tensor) in tensors {
            let read = try file.floatTensor(name)
            #expect(read == tensor, "\(name)")
            #expect(file.info(name)?.dtype == .F32)
        }
    }

    @Test func writeReplacesAtomicallyAndLeavesNoTemporaryFiles() throws {
        let directory = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("w.safetensors")
        try SafeTensors.write(["a": Tensor([1, 2])], to: url)
        let firstRead = try SafeTensors(contentsOf: url)
        let mappedBefore = try firstRead.floatTensor("a")
        try SafeTensors.write(["b": Tensor([3, 4, 5])], to: url)
        #expect(try SafeTensors(contentsOf: url).names == ["b"])
        // The old mapping stays valid: rename replaced the directory entry, not the old file's data.
        #expect(mappedBefore.scalars == [1, 2])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["w.safetensors"])

        let bad = try #require(throws: SafeTensorsError.self) {
            try SafeTensors.write(["__metadata__": Tensor([1])], to: url)
        }
        #expect(bad.kind == .invalidArgument)
        #expect(try SafeTensors(contentsOf: url).names == ["b"])
        let unwritable = try #require(throws: SafeTensorsError.self) {
            try SafeTensors.write(["a": Tensor([1])], to: directory.appendingPathComponent("no/such/dir/x.safetensors"))
        }
        #expect(unwritable.kind == .io)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["w.safetensors"])
    }

    // MARK: Hand-made files

    /// A file from a header string and a byte buffer (header length as given, or the header's).
    static func makeFile(_ header: String, _ buffer: [UInt8] = [], length: UInt64? = nil) -> [UInt8] {
        let headerBytes = Array(header.utf8)
        let length = length ?? UInt64(headerBytes.count)
        return (0..<8).map { UInt8(truncatingIfNeeded: length >> (8 * $0)) } + headerBytes + buffer
    }

    func load(_ bytes: [UInt8], name: String = #function) throws -> SafeTensors {
        let directory = try TestScratch.folder(name)
        let url = directory.appendingPathComponent("case.safetensors")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try SafeTensors(contentsOf: url)
    }

    @Test func readsUnalignedFloat32ByCopying() throws {
        // A 5-byte-odd header puts the data at an unaligned address; the reader copies then.
        let header = #"{"x":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}"#
        #expect((8 + header.utf8.count) % 4 != 0)
        let values: [Float] = [1.5, -2.25]
        let buffer = values.flatMap { value in (0..<4).map { UInt8(truncatingIfNeeded: value.bitPattern >> (8 * $0)) } }
        let tensor = try load(Self.makeFile(header, buffer)).floatTensor("x")
        #expect(tensor.scalars == values)
        #expect(tensor.storage.isWritable)
    }

    @Test func emptyFileWithNoTensorsIsValid() throws {
        let file = try load(Self.makeFile("{}      "))
        #expect(file.names.isEmpty)
        #expect(file.metadata.isEmpty)
    }

    /// Each malformed file and the fault the error must report.
    static let violations: [(label: String, bytes: [UInt8], kind: SafeTensorsError.Kind, tensor: String?)] = {
        let four = [UInt8](repeating: 0, count: 4)
        return [
            ("shorter than 8 bytes", [1, 0, 0], .truncated, nil),
            ("header length past the end", SafeTensorsTests.makeFile("{}", length: 50), .truncated, nil),
            ("header length over 100 MB", SafeTensorsTests.makeFile("{}", length: 100_000_001), .header, nil),
            ("header length 2^64-1", SafeTensorsTests.makeFile("{}", length: .max), .header, nil),
            ("header not an object", SafeTensorsTests.makeFile("[1,2]"), .header, nil),
            ("header not UTF-8", [3, 0, 0, 0, 0, 0, 0, 0, UInt8(ascii: "{"), 0xC3, UInt8(ascii: "}")], .header, nil),
            ("header not JSON", SafeTensorsTests.makeFile("{\"a\":"), .header, nil),
            ("deeply nested JSON", SafeTensorsTests.makeFile("{\"a\":" + String(repeating: "[", count: 100_000)), .header, nil),
            ("trailing garbage", SafeTensorsTests.makeFile("{} x"), .header, nil),
            ("missing dtype", SafeTensorsTests.makeFile(#"{"t":{"shape":[1],"data_offsets":[0,4]}}"#, four), .header, "t"),
            ("shape not integers", SafeTensorsTests.makeFile(#"{"t":{"dtype":"F32","shape":["1"],"data_offsets":[0,4]}}"#, four), .header, "t"),
            ("boolean in shape", SafeTensorsTests.makeFile(#"{"t":{"dtype":"F32","shape":[true],"data_offsets":[0,4]}}"#, four), .header, "t"),
            ("fractional shape", SafeTensorsTests.makeFile(#"{"t":{"dtype":"F32","shape":[1.5],"data_offsets":[0,4]}}"#, four), .header, "t"),
            ("unknown dtype", SafeTensorsTests.makeFile(#"{"t":{"dtype":"F8_E4M3","shape":[4],"data_offsets":[0,4]}}"#, four), .dtype, "t"),
            ("negative dimension", SafeTensorsTests.makeFile(#"{"t":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}}"#, four), .layout, "t"),
            ("overflowing shape", SafeTensorsTests.makeFile(#"{"t":{"dtype":"F32","shape":[4611686018427387904,4],"data_offsets":[0,4]}}"#, four), .layout, "t"),
            ("overflowing bytes", SafeTensorsTests.makeFile(#"{"t":{"dtype":"F64","shape":[2305843009213693952],"data_offsets":[0,4]}}"#, four), .layout, "t"),
            ("one offset", SafeTensorsTests.makeFile(#"{"t":{"dtype":"U8","shape":[4],"data_offsets":[4]}}"#, four), .layout, "t"),
            ("begin after end", SafeTensorsTests.makeFile(#"{"t":{"dtype":"U8","shape":[0],"data_offsets":[4,0]}}"#, four), .layout, "t"),
            ("negative offset", SafeTensorsTests.makeFile(#"{"t":{"dtype":"U8","shape":[4],"data_offsets":[-4,0]}}"#, four), .layout, "t"),
            ("size mismatch", SafeTensorsTests.makeFile(#"{"t":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}}"#, four), .layout, "t"),
            ("offsets out of bounds", SafeTensorsTests.makeFile(#"{"t":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}"#, four), .layout, "t"),
            ("gap at start", SafeTensorsTests.makeFile(#"{"t":{"dtype":"U8","shape":[2],"data_offsets":[2,4]}}"#, four), .layout, "t"),
            ("overlap", SafeTensorsTests.makeFile(#"{"a":{"dtype":"U8","shape":[3],"data_offsets":[0,3]},"b":{"dtype":"U8","shape":[2],"data_offsets":[2,4]}}"#, four), .layout, "b"),
            ("buffer not covered", SafeTensorsTests.makeFile(#"{"t":{"dtype":"U8","shape":[2],"data_offsets":[0,2]}}"#, four), .layout, "t"),
            ("bytes but no tensors", SafeTensorsTests.makeFile("{}", four), .layout, nil),
            ("metadata not strings", SafeTensorsTests.makeFile(#"{"__metadata__":{"n":1}}"#), .header, nil),
            ("metadata not an object", SafeTensorsTests.makeFile(#"{"__metadata__":"x"}"#), .header, nil),
        ]
    }()

    @Test(arguments: 0..<violations.count)
    func everyViolationThrowsNamingFileAndTensor(_ index: Int) throws {
        let violation = Self.violations[index]
        let error = try #require(throws: SafeTensorsError.self, "\(violation.label)") {
            try load(violation.bytes, name: "violation\(index)")
        }
        #expect(error.kind == violation.kind, "\(violation.label): \(error)")
        #expect(error.tensor == violation.tensor, "\(violation.label): \(error)")
        #expect(error.description.contains("case.safetensors"))
        #expect(!ReferenceSafeTensorsValidator.isValid(violation.bytes), "\(violation.label)")
    }

    @Test func missingFileAndDirectoryAreIOErrors() throws {
        let directory = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = try #require(throws: SafeTensorsError.self) {
            try SafeTensors(contentsOf: directory.appendingPathComponent("absent.safetensors"))
        }
        #expect(missing.kind == .io)
        let folder = try #require(throws: SafeTensorsError.self) { try SafeTensors(contentsOf: directory) }
        #expect(folder.kind == .io)
    }

    // MARK: Fuzz

    /// 2,000 seeded corruptions of the Python-written fixture: byte changes anywhere (header
    /// length, JSON, padding, data), truncations, insertions and appended bytes. The rule: the
    /// reader accepts a file exactly when the independent ``ReferenceSafeTensorsValidator`` calls
    /// it valid; an accepted file's tensors all decode to `product(shape)` values that equal the
    /// file's bytes (F32) or convert without error; a rejected one throws a SafeTensorsError. No
    /// corruption may crash.
    @Test func randomCorruptionsThrowOrLoadValidatedNeverCrash() throws {
        let original = try [UInt8](Data(contentsOf: fixture))
        let directory = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        var generator = SplitMix64(seed: 2024)
        var accepted = 0, rejected = 0
        for iteration in 0..<2000 {
            var bytes = original
            switch iteration % 6 {
            case 0, 1:  // 1-3 random byte changes anywhere
                for _ in 0..<Int.random(in: 1...3, using: &generator) {
                    bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                }
            case 2:  // a change inside the JSON header, where it matters most
                let headerEnd = min(bytes.count, 8 + Int(bytes[0]) + Int(bytes[1]) << 8)
                bytes[Int.random(in: 8..<headerEnd, using: &generator)] = UInt8.random(in: 0x20...0x7E, using: &generator)
            case 3:  // truncation
                bytes.removeLast(Int.random(in: 1...bytes.count, using: &generator))
            case 4:  // insertion
                bytes.insert(UInt8.random(in: 0...255, using: &generator), at: Int.random(in: 0...bytes.count, using: &generator))
            default:  // a byte flip in the header length, or appended bytes
                if Bool.random(using: &generator) {
                    bytes[Int.random(in: 0..<8, using: &generator)] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &generator)
                } else {
                    bytes += (0..<Int.random(in: 1...16, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                }
            }
            let url = directory.appendingPathComponent("fuzz-\(iteration).safetensors")
            try Data(bytes).write(to: url)
            defer { try? FileManager.default.removeItem(at: url) }
            let valid = ReferenceSafeTensorsValidator.isValid(bytes)
            do {
                let file = try SafeTensors(contentsOf: url)
                accepted += 1
                #expect(valid, "iteration \(iteration): the reader accepted a file the spec rejects")
                for name in file.names {
                    let info = try #require(file.info(name))
                    let tensor = try file.floatTensor(name)
                    #expect(tensor.count == info.shape.reduce(1, *))
                    #expect(tensor.count * info.dtype.byteSize == info.dataOffsets.count)
                }
            } catch let error as SafeTensorsError {
                rejected += 1
                #expect(!valid, "iteration \(iteration): rejected a valid file: \(error)")
            }
        }
        // Both outcomes occur (data-region changes stay valid), so the oracle is exercised both ways.
        #expect(accepted > 50 && rejected > 1000, "accepted \(accepted), rejected \(rejected)")
    }
}
