import Foundation
import NLUCore
import Testing
@testable import NLUCoreML

/// The fixtures of scripts/fixtures/coreml.py: `.mlmodel` files written by coremltools 9.0 and, per case, the inputs
/// and the outputs NumPy computed (float64) from the weights stored in the file.
enum CoreMLFixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/coreml")

    static func url(_ name: String) -> URL { directory.appendingPathComponent(name + ".mlmodel") }

    static func model(_ name: String) throws -> CoreMLModel { try CoreMLModel(contentsOf: url(name)) }

    struct Case {
        let inputs: Data
        let outputs: [String: Any]
    }

    static func cases(_ name: String) throws -> [Case] {
        let data = try Data(contentsOf: directory.appendingPathComponent(name + ".json"))
        let list = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        return try list.map { item in
            Case(inputs: try JSONSerialization.data(withJSONObject: try #require(item["inputs"])),
                 outputs: try #require(item["outputs"] as? [String: Any]))
        }
    }

    /// Runs every case of fixture `name` and checks every output within `tolerance` (absolute).
    static func check(_ name: String, tolerance: Double, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let model = try model(name)
        for (index, fixture) in try cases(name).enumerated() {
            let input = try FeatureJSON.provider(from: fixture.inputs, for: model.modelDescription)
            let output = try model.prediction(from: input)
            for (feature, expected) in fixture.outputs {
                let actual = try #require(output.featureValue(for: feature), "\(name) case \(index): no output '\(feature)'",
                                          sourceLocation: sourceLocation)
                compare(actual, expected, tolerance: tolerance, context: "\(name) case \(index) '\(feature)'", sourceLocation: sourceLocation)
            }
        }
    }

    static func compare(_ actual: FeatureValue, _ expected: Any, tolerance: Double, context: String, sourceLocation: SourceLocation) {
        switch actual {
        case .string(let label):
            #expect(label == expected as? String, "\(context)", sourceLocation: sourceLocation)
        case .dictionary(let probabilities):
            let expectedProbabilities = expected as? [String: Double] ?? [:]
            #expect(Set(probabilities.keys) == Set(expectedProbabilities.keys), "\(context)", sourceLocation: sourceLocation)
            for (key, value) in expectedProbabilities {
                #expect(abs((probabilities[key] ?? .nan) - value) <= tolerance, "\(context)[\(key)]: \(probabilities[key] ?? .nan) vs \(value)",
                        sourceLocation: sourceLocation)
            }
        case .floatTensor(let tensor):
            var shape = [Int]()
            var values = [Double]()
            flatten(expected, depth: 0, shape: &shape, values: &values)
            #expect(tensor.shape == shape, "\(context): shape \(tensor.shape), expected \(shape)", sourceLocation: sourceLocation)
            let worst = zip(tensor.scalars, values).map { abs(Double($0) - $1) }.max() ?? .nan
            #expect(tensor.count == values.count && worst <= tolerance, "\(context): largest difference \(worst)", sourceLocation: sourceLocation)
        default:
            Issue.record("\(context): unexpected output \(actual)", sourceLocation: sourceLocation)
        }
    }

    private static func flatten(_ value: Any, depth: Int, shape: inout [Int], values: inout [Double]) {
        if let array = value as? [Any] {
            if shape.count == depth { shape.append(array.count) }
            for item in array { flatten(item, depth: depth + 1, shape: &shape, values: &values) }
        } else if let number = value as? Double {
            values.append(number)
        }
    }
}
