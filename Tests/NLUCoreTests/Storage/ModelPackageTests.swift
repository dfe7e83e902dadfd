import Foundation
import Testing
@testable import NLUCore
import NLUTestSupport

@Suite struct ModelPackageTests {
    struct ToyConfig: Codable, Equatable {
        var labels: [String]
        var hiddenSize: Int
    }

    /// A configuration whose encoding fails, to interrupt a save after it has started.
    struct FailingConfig: Encodable {
        struct Refused: Error {}
        func encode(to encoder: Encoder) throws { throw Refused() }
    }

    let weights: [String: Tensor<Float>] = [
        "classifier.weight": Tensor(shape: [2, 3], scalars: [1, 2, 3, 4, 5, 6]),
        "classifier.bias": Tensor([0.5, -0.5]),
    ]

    @Test func savesAndLoadsConfigMetadataAndWeights() throws {
        let directory = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("toy.nlumodel")
        let config = ToyConfig(labels: ["greet", "bye"], hiddenSize: 3)
        try ModelPackage.save(to: url, kind: "toy", config: config, metadata: ["trainedOn": "unit test"], weights: weights)

        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: url.appendingPathComponent("manifest.json"))) as? [String: Any]
        #expect(manifest?["format"] as? String == "nlumodel")
        #expect(manifest?["formatVersion"] as? Int == 1)
        #expect(manifest?["kind"] as? String == "toy")
        #expect((manifest?["config"] as? [String: Any])?["hiddenSize"] as? Int == 3)

        let loaded = try ModelPackage.load(from: url, kind: "toy", config: ToyConfig.self)
        #expect(loaded.config == config)
        #expect(loaded.metadata == ["trainedOn": "unit test"])
        #expect(loaded.weights.names == ["classifier.bias", "classifier.weight"])
        #expect(try loaded.weights.floatTensor("classifier.weight") == weights["classifier.weight"])
    }

    @Test func saveReplacesAnExistingPackageAndLeavesNothingBehind() throws {
        let directory = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("toy.nlumodel")
        try ModelPackage.save(to: url, kind: "toy", config: ToyConfig(labels: ["a"], hiddenSize: 1), weights: weights)
        try ModelPackage.save(to: url, kind: "toy", config: ToyConfig(labels: ["b"], hiddenSize: 2), weights: ["w": Tensor([9])])
        let loaded = try ModelPackage.load(from: url, kind: "toy", config: ToyConfig.self)
        #expect(loaded.config.labels == ["b"])
        #expect(loaded.weights.names == ["w"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["toy.nlumodel"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: url.path).sorted() == ["manifest.json", "weights.safetensors"])
    }

    @Test(arguments: [true, false])
    func swapReplacesTheOldPackageWithOrWithoutRenameExchange(_ useExchange: Bool) throws {
        let directory = try TestScratch.folder("swap\(useExchange)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("toy.nlumodel")
        let staged = directory.appendingPathComponent("staged")
        try ModelPackage.save(to: url, kind: "toy", config: ToyConfig(labels: ["old"], hiddenSize: 1), weights: weights)
        try ModelPackage.save(to: staged, kind: "toy", config: ToyConfig(labels: ["new"], hiddenSize: 1), weights: weights)
        try ModelPackage.swapIntoPlace(staged, destination: url, useExchange: useExchange)
        #expect(try ModelPackage.load(from: url, kind: "toy", config: ToyConfig.self).config.labels == ["new"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["toy.nlumodel"])
    }

    @Test func aSaveThatFailsMidwayLeavesThePreviousPackageIntact() throws {
        let directory = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("toy.nlumodel")
        let config = ToyConfig(labels: ["keep"], hiddenSize: 3)
        try ModelPackage.save(to: url, kind: "toy", config: config, weights: weights)

        let failure = try #require(throws: ModelPackageError.self) {
            try ModelPackage.save(to: url, kind: "toy", config: FailingConfig(), weights: weights)
        }
        guard case .writeFailed = failure else { Issue.record("unexpected \(failure)"); return }
        // Weights that cannot be stored fail after the manifest was written into the temporary package.
        #expect(throws: ModelPackageError.self) {
            try ModelPackage.save(to: url, kind: "toy", config: config, weights: ["__metadata__": Tensor([1])])
        }
        #expect(try ModelPackage.load(from: url, kind: "toy", config: ToyConfig.self).config == config)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["toy.nlumodel"])
    }

    @Test func aCrashBeforeTheSwapLeavesThePreviousPackageLoadable() throws {
        // What a crash mid-save leaves: the old package plus a half-written temporary directory.
        let directory = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("toy.nlumodel")
        let config = ToyConfig(labels: ["keep"], hiddenSize: 3)
        try ModelPackage.save(to: url, kind: "toy", config: config, weights: weights)
        let leftover = directory.appendingPathComponent("toy.nlumodel.tmp-dead")
        try FileManager.default.createDirectory(at: leftover, withIntermediateDirectories: false)
        try Data("{\"format\":".utf8).write(to: leftover.appendingPathComponent("manifest.json"))
        #expect(try ModelPackage.load(from: url, kind: "toy", config: ToyConfig.self).config == config)
        try ModelPackage.save(to: url, kind: "toy", config: ToyConfig(labels: ["new"], hiddenSize: 3), weights: weights)
        #expect(try ModelPackage.load(from: url, kind: "toy", config: ToyConfig.self).config.labels == ["new"])
    }

    /// Writes a package by hand (as another tool would) with `manifest` as its manifest.
    func handMadePackage(_ manifest: String, weights: Bool = true, in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent("hand.nlumodel")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try Data(manifest.utf8).write(to: url.appendingPathComponent("manifest.json"))
        if weights { try SafeTensors.write(self.weights, to: url.appendingPathComponent("weights.safetensors")) }
        return url
    }

    @Test func aPackageWrittenByAnotherToolLoads() throws {
        let directory = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try handMadePackage(#"{"format":"nlumodel","formatVersion":1,"kind":"toy","config":{"labels":["x"],"hiddenSize":3}}"#, in: directory)
        let loaded = try ModelPackage.load(from: url, kind: "toy", config: ToyConfig.self)
        #expect(loaded.config == ToyConfig(labels: ["x"], hiddenSize: 3))
        #expect(loaded.metadata.isEmpty)
    }

    static let faults: [(manifest: String, weights: Bool, expected: String)] = [
        (#"{"format":"nlumodel","formatVersion":4,"kind":"toy","config":{}}"#, true, "format version 4 was written by a newer NLUKit"),
        (#"{"format":"nlumodel","formatVersion":1,"kind":"lm","config":{"labels":[],"hiddenSize":1}}"#, true, "is a 'lm' package, expected 'toy'"),
        (#"{"format":"onnx","formatVersion":1,"kind":"toy","config":{}}"#, true, "format is 'onnx', expected 'nlumodel'"),
        // Another kind's config would not decode as ours: the kind is what gets reported.
        (#"{"format":"nlumodel","formatVersion":1,"kind":"lm","config":{"vocabulary":[]}}"#, true, "is a 'lm' package, expected 'toy'"),
        (#"{"format":"nlumodel","formatVersion":1,"kind":"toy","config":{"labels":["x"],"hiddenSize":"3"}}"#, true, "field 'config.hiddenSize': expected an integer"),
        (#"{"format":"nlumodel","formatVersion":1,"kind":"toy","config":{"labels":["x"]}}"#, true, "field 'config.hiddenSize': missing"),
        (#"{"format":"nlumodel","formatVersion":1,"kind":"toy","config":{"labels":[1],"hiddenSize":3}}"#, true, "field 'config.labels[0]': expected a string"),
        (#"{"format":"nlumodel","formatVersion":1,"kind":"toy""#, true, "manifest.json: not valid JSON"),
        (#"{"format":"nlumodel","formatVersion":1,"config":{}}"#, true, "field 'kind': missing"),
        (#"{"format":"nlumodel","formatVersion":0,"kind":"toy","config":{}}"#, true, "0 is not a valid version"),
        (#"{"format":"nlumodel","formatVersion":1,"kind":"toy","config":{"labels":[],"hiddenSize":1}}"#, false, "missing weights.safetensors"),
    ]

    @Test(arguments: 0..<faults.count)
    func faultsAreNamedPrecisely(_ index: Int) throws {
        let fault = Self.faults[index]
        let directory = try TestScratch.folder("fault\(index)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try handMadePackage(fault.manifest, weights: fault.weights, in: directory)
        let error = try #require(throws: ModelPackageError.self) {
            try ModelPackage.load(from: url, kind: "toy", config: ToyConfig.self)
        }
        #expect(error.description.contains(fault.expected), "\(error)")
        #expect(error.description.contains("hand.nlumodel"))
    }

    @Test func missingPackageAndMissingManifestAreNamed() throws {
        let directory = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let absent = try #require(throws: ModelPackageError.self) {
            try ModelPackage.load(from: directory.appendingPathComponent("absent.nlumodel"), kind: "toy", config: ToyConfig.self)
        }
        #expect(absent == .missingFile(package: directory.appendingPathComponent("absent.nlumodel"), file: ""))
        // A file given as the package (a dataset, a weights file): said to be one.
        let file = directory.appendingPathComponent("car.json")
        try Data("{}".utf8).write(to: file)
        let notPackage = try #require(throws: ModelPackageError.self) {
            try ModelPackage.load(from: file, kind: "toy", config: ToyConfig.self)
        }
        #expect(notPackage == .notADirectory(package: file))
        #expect(notPackage.description.hasSuffix("car.json: a file, not a model package (a directory holding manifest.json and weights.safetensors)"))
        let empty = directory.appendingPathComponent("empty.nlumodel")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: false)
        let noManifest = try #require(throws: ModelPackageError.self) {
            try ModelPackage.load(from: empty, kind: "toy", config: ToyConfig.self)
        }
        #expect(noManifest.description.contains("missing manifest.json"))
    }

    @Test func corruptWeightsSurfaceAsSafeTensorsErrors() throws {
        let directory = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try handMadePackage(#"{"format":"nlumodel","formatVersion":1,"kind":"toy","config":{"labels":[],"hiddenSize":1}}"#,
                                      weights: false, in: directory)
        try Data([1, 2, 3]).write(to: url.appendingPathComponent("weights.safetensors"))
        let error = try #require(throws: SafeTensorsError.self) {
            try ModelPackage.load(from: url, kind: "toy", config: ToyConfig.self)
        }
        #expect(error.file.lastPathComponent == "weights.safetensors")
    }
}
