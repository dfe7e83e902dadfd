import Foundation
import NLUIntents
import Testing
@testable import NLUServer

/// POST /model/parse in Rasa's shape; the answer must be the library's own prediction.
@Suite("POST /model/parse")
struct ParseRouteTests {
    /// A small intents model trained quickly on `dataset`, to serve.
    static func servedModels(trainedOn dataset: IntentDataset) throws -> ServedModels {
        var training = TrainingOptions()
        training.hiddenSizes = [8]
        training.epochs = 20
        training.validationSplit = 0
        return ServedModels(intents: try IntentClassifier.train(on: dataset, training: training))
    }

    @Test func answerIsTheClassifiersPredictionInRasasShape() async throws {
        try await withTestServer { server in
            let classifier = try #require(try Fixtures.models().intents)
            for text in ["turn on the radio", "will it rain tonight", "switch the heater off", "xyzzy"] {
                let expected = classifier.predict(text, top: 10)
                let response = try await server.request("POST", "/model/parse", json: try jsonString(["text": text]))
                #expect(response.status == 200)
                let object = try #require(response.object)
                #expect(Set(object.keys) == ["text", "intent", "entities", "intent_ranking"])
                #expect(object["text"] as? String == text)
                let intent = try #require(object["intent"] as? [String: Any])
                #expect(intent["name"] as? String == expected.intent)
                #expect(Float(try #require(intent["confidence"] as? Double)) == expected.confidence)
                let ranking = try #require(object["intent_ranking"] as? [[String: Any]])
                #expect(ranking.map { $0["name"] as? String } == expected.ranking.map(\.intent))
                #expect(ranking.map { Float($0["confidence"] as? Double ?? -1) } == expected.ranking.map(\.confidence))
                let entities = try #require(object["entities"] as? [[String: Any]])
            #expect(entities.map { $0["entity"] as? String } == expected.entities.map(\.entity))
            #expect(entities.map { $0["start"] as? Int } == expected.entities.map(\.start))
            #expect(entities.map { $0["end"] as? Int } == expected.entities.map(\.end))
            #expect(entities.map { $0["value"] as? String } == expected.entities.map(\.value))
            }
        }
    }

    @Test func trainedIntentIsRecognized() async throws {
        try await withTestServer { server in
            let response = try await server.request("POST", "/model/parse", json: #"{"text": "turn on the radio", "message_id": "m1"}"#)
            let intent = try #require(response.object?["intent"] as? [String: Any])
            #expect(intent["name"] as? String == "turn_on")
        }
    }

    @Test func entitiesComeInRasasShapeWithSynonymsResolved() async throws {
        try await withTestServer { server in
            let response = try await server.request("POST", "/model/parse", json: #"{"text": "turn on the stereo"}"#)
            let entities = try #require(response.object?["entities"] as? [[String: Any]])
            let stereo = try #require(entities.first { $0["start"] as? Int == 12 })
            #expect(stereo["entity"] as? String == "appliance")
            #expect(stereo["end"] as? Int == 18)
            #expect(stereo["value"] as? String == "radio")
            #expect(stereo["confidence_entity"] is Double)
            #expect(["CRFEntityExtractor", "RegexEntityExtractor"].contains(stereo["extractor"] as? String ?? ""))
            #expect(stereo["role"] == nil && stereo["group"] == nil)
        }
    }

    /// A regex entity that runs out of time on the text: Rasa's keys as ever, plus `warnings` naming
    /// the entity and the pattern (absent on a text where nothing ran out).
    @Test func aPatternRunningOutOfTimeIsAWarningBesideRasasKeys() async throws {
        let dataset = IntentDataset(intents: [
            Intent(name: "call", utterances: ["call bob", "phone alice", "ring carol"]),
            Intent(name: "stop", utterances: ["stop it", "halt", "stop now"]),
        ], entities: [EntityDefinition(name: "code", values: [EntityValue("code", patterns: ["(a+)+$"])])])
        let models = try Self.servedModels(trainedOn: dataset)
        try await withTestServer(models: models) { server in
            let runaway = "call " + String(repeating: "a", count: 40) + "!"
            let response = try await server.request("POST", "/model/parse", json: try jsonString(["text": runaway]))
            #expect(response.status == 200)
            let object = try #require(response.object)
            #expect(Set(object.keys) == ["text", "intent", "entities", "intent_ranking", "warnings"])
            let warnings = try #require(object["warnings"] as? [String])
            #expect(warnings.count == 1 && warnings[0].contains("entity 'code'") && warnings[0].contains("(a+)+$"), "\(warnings)")
            let plain = try await server.request("POST", "/model/parse", json: #"{"text": "call aaa"}"#)
            #expect(plain.object.map { Set($0.keys) } == ["text", "intent", "entities", "intent_ranking"])
        }
    }

    @Test func builtinEntitiesComeInRasasDucklingShapeWithTheirResolution() async throws {
        let dataset = IntentDataset(intents: [
            Intent(name: "pay", utterances: ["pay the landlord", "send money to bob", "transfer cash"]),
            Intent(name: "remind", utterances: ["remind me later", "set a reminder", "reminder please"]),
        ], entities: [EntityDefinition(name: "when", builtin: "datetime"), EntityDefinition(name: "amount", builtin: "currency")])
        let models = try Self.servedModels(trainedOn: dataset)
        try await withTestServer(models: models) { server in
            let response = try await server.request("POST", "/model/parse", json:
                #"{"text": "remind me tomorrow at 7pm to pay $20", "reference_time": "2016-11-07T10:00:00"}"#)
            #expect(response.status == 200)
            let entities = try #require(response.object?["entities"] as? [[String: Any]])
            #expect(entities.map { $0["entity"] as? String } == ["when", "amount"])
            let when = entities[0]
            #expect(when["start"] as? Int == 10 && when["end"] as? Int == 25)
            #expect(when["value"] as? String == "2016-11-08 19:00:00")
            #expect(when["confidence_entity"] as? Double == 1)
            #expect(when["extractor"] as? String == "DucklingEntityExtractor")
            let info = try #require(when["additional_info"] as? [String: Any])
            #expect(info["type"] as? String == "datetime")
            let values = try #require(info["values"] as? [[String: Any]])
            #expect(values.count == 1 && values[0]["timex"] as? String == "2016-11-08T19" && values[0]["value"] as? String == "2016-11-08 19:00:00")
            let amount = try #require(entities[1]["additional_info"] as? [String: Any])
            #expect(amount["type"] as? String == "currency" && amount["value"] as? String == "20" && amount["unit"] as? String == "Dollar")

            let bad = try await server.request("POST", "/model/parse", json: #"{"text": "pay $20 tomorrow", "reference_time": "tomorrow"}"#)
            #expect(bad.status == 400)
            #expect(bad.errorMessage.hasPrefix("field 'reference_time': invalid reference time"))
            // An offset no clock uses (issue 46: +99:00 was accepted and ignored) is refused as the CLI refuses it.
            let offset = try await server.request("POST", "/model/parse", json: #"{"text": "pay $20 tomorrow", "reference_time": "2016-11-07T10:00:00+99:00"}"#)
            #expect(offset.status == 400)
            #expect(offset.errorMessage.contains("an offset from -14:00 to +14:00"), "\(offset.errorMessage)")
        }
    }

    @Test func textOverTheLengthLimitIsRefusedWith422AndOneAtTheLimitIsAnswered() async throws {
        try await withTestServer(configure: { $0.maxTextLength = 1000 }) { server in
            let atLimit = String(String(repeating: "turn on the radio ", count: 60).prefix(1000))
            let answered = try await server.request("POST", "/model/parse", json: try jsonString(["text": atLimit]))
            #expect(answered.status == 200)
            #expect((answered.object?["intent"] as? [String: Any])?["name"] as? String == "turn_on")
            let refused = try await server.request("POST", "/model/parse", json: try jsonString(["text": atLimit + "é"]))
            #expect(refused.status == 422)
            #expect(refused.object?["message"] as? String == "field 'text': 1001 characters is over this server's limit of 1000 (--max-text-length)")
        }
    }

    @Test func textOfOneHundredThousandAndOneCharactersIsRefusedByDefault() async throws {
        // The default limit is 100,000 characters; answering that many is timed in the benchmark
        // (release build), not here.
        try await withTestServer { server in
            let text = String(repeating: "x", count: 100_001)
            let refused = try await server.request("POST", "/model/parse", json: try jsonString(["text": text]))
            #expect(refused.status == 422)
            #expect(refused.object?["message"] as? String == "field 'text': 100001 characters is over this server's limit of 100000 (--max-text-length)")
        }
    }

    @Test func concurrentRequestsToOneModelGetTheirOwnAnswers() async throws {
        try await withTestServer { server in
            let classifier = try #require(try Fixtures.models().intents)
            let texts = ["turn on the radio", "will it rain today", "switch the lights off", "what is the weather"]
            let port = server.port
            try await withThrowingTaskGroup(of: (String, String?).self) { group in
                for index in 0..<64 {
                    let text = texts[index % texts.count]
                    group.addTask {
                        let response = try await httpRequest(port: port, "POST", "/model/parse", json: try jsonString(["text": text]))
                        return (text, (response.object?["intent"] as? [String: Any])?["name"] as? String)
                    }
                }
                for try await (text, intent) in group {
                    #expect(intent == classifier.predict(text).intent)
                }
            }
        }
    }
}

func jsonString(_ object: Any) throws -> String {
    String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
}
