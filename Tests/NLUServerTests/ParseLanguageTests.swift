import Foundation
import NLUIntents
import Testing
@testable import NLUServer

/// POST /model/parse with `language`: the built-ins are read in that language for the request; the model's own
/// (its dataset's) otherwise; a code the built-ins do not read is a 400 that lists the supported codes.
@Suite("POST /model/parse with a language")
struct ParseLanguageTests {
    static func models(language: String?) throws -> ServedModels {
        try ParseRouteTests.servedModels(trainedOn: IntentDataset(language: language, intents: [
            Intent(name: "commander", utterances: ["je voudrais des pizzas", "une pizza margherita", "commander des pizzas"]),
            Intent(name: "annuler", utterances: ["annulez ma commande", "je ne veux plus rien", "annuler tout"]),
        ], entities: [EntityDefinition(name: "quantite", builtin: "number")]))
    }

    static func numbers(_ response: RawHTTPResponse) -> [String] {
        ((response.object?["entities"] as? [[String: Any]]) ?? []).filter { $0["entity"] as? String == "quantite" }
            .compactMap { $0["value"] as? String }
    }

    @Test func frenchModelReadsFrenchNumbersWithoutALanguageField() async throws {
        try await withTestServer(models: try Self.models(language: "fr")) { server in
            let response = try await server.request("POST", "/model/parse", json: #"{"text": "deux pizzas"}"#)
            #expect(response.status == 200)
            #expect(Self.numbers(response) == ["2"])
        }
    }

    @Test func languageFieldReadsTheBuiltinsInThatLanguage() async throws {
        try await withTestServer(models: try Self.models(language: nil)) { server in
            let english = try await server.request("POST", "/model/parse", json: #"{"text": "deux pizzas"}"#)
            #expect(Self.numbers(english).isEmpty)
            let french = try await server.request("POST", "/model/parse", json: #"{"text": "deux pizzas", "language": "fr-FR"}"#)
            #expect(french.status == 200)
            #expect(Self.numbers(french) == ["2"])
            let german = try await server.request("POST", "/model/parse", json: #"{"text": "zweiundzwanzig Pizzen", "language": "de_de"}"#)
            #expect(Self.numbers(german) == ["22"])
            // Chinese and Japanese numbers are found inside unspaced text, offsets in Unicode scalars.
            let chinese = try await server.request("POST", "/model/parse", json: #"{"text": "来两千四百五个披萨", "language": "zh-CN"}"#)
            #expect(chinese.status == 200)
            #expect(Self.numbers(chinese) == ["2450"])
            let mention = ((chinese.object?["entities"] as? [[String: Any]]) ?? []).first { $0["entity"] as? String == "quantite" }
            #expect(mention?["start"] as? Int == 1 && mention?["end"] as? Int == 6)
            let japanese = try await server.request("POST", "/model/parse", json: #"{"text": "ピザを一万三枚", "language": "ja-JP"}"#)
            #expect(Self.numbers(japanese) == ["10003"])
        }
    }

    /// Date-times follow the dataset's language too: a French model resolves "demain à 15h30".
    @Test func frenchModelReadsFrenchDateTimes() async throws {
        let models = try ParseRouteTests.servedModels(trainedOn: IntentDataset(language: "fr", intents: [
            Intent(name: "rappeler", utterances: ["rappelle-moi plus tard", "un rappel s'il te plaît", "rappel"]),
            Intent(name: "annuler", utterances: ["annulez ma commande", "je ne veux plus rien", "annuler tout"]),
        ], entities: [EntityDefinition(name: "quand", builtin: "datetime")]))
        try await withTestServer(models: models) { server in
            let response = try await server.request("POST", "/model/parse", json:
                #"{"text": "rappelle-moi demain à 15h30", "reference_time": "2016-11-07T10:00:00"}"#)
            #expect(response.status == 200)
            let entities = (response.object?["entities"] as? [[String: Any]]) ?? []
            let when = try #require(entities.first { $0["entity"] as? String == "quand" })
            #expect(when["start"] as? Int == 13 && when["end"] as? Int == 27)
            #expect(when["value"] as? String == "2016-11-08 15:30:00")
        }
    }

    /// A Chinese model resolves "明天下午3点" inside unspaced text, offsets in Unicode scalars.
    @Test func chineseModelReadsChineseDateTimes() async throws {
        let models = try ParseRouteTests.servedModels(trainedOn: IntentDataset(language: "zh-CN", intents: [
            Intent(name: "remind", utterances: ["提醒我", "给我一个提醒", "请提醒"]),
            Intent(name: "cancel", utterances: ["取消订单", "我不要了", "全部取消"]),
        ], entities: [EntityDefinition(name: "when", builtin: "datetime")]))
        try await withTestServer(models: models) { server in
            let response = try await server.request("POST", "/model/parse", json:
                #"{"text": "明天下午3点提醒我", "reference_time": "2016-11-07T10:00:00"}"#)
            #expect(response.status == 200)
            let entities = (response.object?["entities"] as? [[String: Any]]) ?? []
            let when = try #require(entities.first { $0["entity"] as? String == "when" })
            #expect(when["start"] as? Int == 0 && when["end"] as? Int == 6)
            #expect(when["value"] as? String == "2016-11-08 15:00:00")
        }
    }

    @Test func unsupportedOrMalformedLanguageIsA400NamingTheSupportedCodes() async throws {
        try await withTestServer(models: try Self.models(language: "fr")) { server in
            let unsupported = try await server.request("POST", "/model/parse", json: #"{"text": "deux pizzas", "language": "ko-KR"}"#)
            #expect(unsupported.status == 400)
            #expect(unsupported.errorMessage.hasPrefix("field 'language': "), "\(unsupported.errorMessage)")
            #expect(unsupported.errorMessage.contains("'ko-KR'") && unsupported.errorMessage.contains("supported: en, fr, es, de, pt, it, nl, zh, ja"),
                    "\(unsupported.errorMessage)")
            let long = String(repeating: "x", count: 5000)
            let malformed = try await server.request("POST", "/model/parse", json: try jsonString(["text": "deux", "language": long]))
            #expect(malformed.status == 400)
            #expect(malformed.errorMessage.contains("not a language code") && malformed.errorMessage.count < 400, "\(malformed.errorMessage.prefix(200))")
        }
    }
}
