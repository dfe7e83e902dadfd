import NLUIntents

/// `POST /model/parse` in Rasa's shape, so Rasa clients (bots, Rasa X style tools) switch by URL.
///
/// Request: `{"text": "turn the radio on", "message_id": "optional"}`.
/// Response: `{"text", "intent": {"name", "confidence"}, "entities": [{"entity", "start", "end", "value",
/// "confidence_entity", "extractor", "role"?, "group"?}], "intent_ranking": [...]}`;
/// `intent.name` is null when the model's "none" class wins or the best intent is under the
/// model's threshold (Rasa answers null for empty text in the same way).
enum RasaParse {
    struct Request: Decodable, Sendable {
        var text: String
        var messageID: String?

        enum CodingKeys: String, CodingKey {
            case text
            case messageID = "message_id"
        }
    }

    struct Intent: Encodable, Sendable, Equatable {
        var name: String?
        var confidence: Float

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)   // null, not absent, for no intent
            try container.encode(confidence, forKey: .confidence)
        }
        enum CodingKeys: String, CodingKey { case name, confidence }
    }

    /// One entity as Rasa reports it; `role` and `group` are left out when the model has none.
    struct Entity: Encodable, Sendable, Equatable {
        var entity: String
        var start: Int
        var end: Int
        var value: String
        var confidenceEntity: Float
        var extractor: String
        var role: String?
        var group: String?

        enum CodingKeys: String, CodingKey {
            case entity, start, end, value, extractor, role, group
            case confidenceEntity = "confidence_entity"
        }
    }

    struct Response: Encodable, Sendable {
        var text: String
        var intent: Intent
        var entities: [Entity]
        var intentRanking: [Intent]

        enum CodingKeys: String, CodingKey {
            case text, intent, entities
            case intentRanking = "intent_ranking"
        }
    }

    /// How many intents the ranking lists (Rasa's default `ranking_length`).
    static let rankingLength = 10

    /// The Rasa response for `prediction`.
    static func response(_ prediction: IntentPrediction) -> Response {
        Response(text: prediction.text,
                 intent: Intent(name: prediction.intent, confidence: prediction.confidence),
                 entities: prediction.entities.map(entity),
                 intentRanking: prediction.ranking.map { Intent(name: $0.intent, confidence: $0.confidence) })
    }

    /// An extracted entity under the name of the Rasa component that does the same job: the slot
    /// tagger is Rasa's CRF extractor; dictionaries (Rasa's lookup tables) and regexes are its regex
    /// extractor. `value` is the canonical value (synonyms resolved, as Rasa's synonym mapper does).
    static func entity(_ entity: ExtractedEntity) -> Entity {
        let extractor = switch entity.extractor {
        case .crf: "CRFEntityExtractor"
        case .dictionary, .regex: "RegexEntityExtractor"
        }
        return Entity(entity: entity.entity, start: entity.start, end: entity.end, value: entity.value,
                      confidenceEntity: Float(entity.confidence), extractor: extractor, role: entity.role, group: entity.group)
    }
}
