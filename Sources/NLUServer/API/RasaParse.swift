import NLUBuiltins
import NLUIntents

/// `POST /model/parse` in Rasa's shape, so Rasa clients (bots, Rasa X style tools) switch by URL.
///
/// Request: `{"text": "turn the radio on", "message_id": "optional", "reference_time": "optional"}`
/// (`reference_time`, ISO 8601, is the "now" of relative date-times; default: the server's local time), and
/// ours, `"language": "fr-FR"` (optional): the language the built-in entities are read in for this text
/// (default: the model's, its dataset's); a code the built-ins do not read is a 400 listing those they do.
/// Response: `{"text", "intent": {"name", "confidence"}, "entities": [{"entity", "start", "end", "value",
/// "confidence_entity", "extractor", "role"?, "group"?, "additional_info"?}], "intent_ranking": [...],
/// "warnings"?: [...]}` (`warnings`, ours, only when a regex pattern ran out of time on the text);
/// `intent.name` is null when the model's "none" class wins or the best intent is under the
/// model's threshold (Rasa answers null for empty text in the same way).
enum RasaParse {
    struct Request: Decodable, Sendable {
        var text: String
        var messageID: String?
        var referenceTime: String?
        var language: String?

        enum CodingKeys: String, CodingKey {
            case text
            case messageID = "message_id"
            case referenceTime = "reference_time"
            case language
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

    /// One entity as Rasa reports it; `role` and `group` are left out when the model has none;
    /// `additional_info` is the built-in's resolution (as Rasa's Duckling extractor adds Duckling's), left
    /// out for entities that are no built-in.
    struct Entity: Encodable, Sendable, Equatable {
        var entity: String
        var start: Int
        var end: Int
        var value: String
        var confidenceEntity: Float
        var extractor: String
        var role: String?
        var group: String?
        var additionalInfo: AdditionalInfo?

        enum CodingKeys: String, CodingKey {
            case entity, start, end, value, extractor, role, group
            case confidenceEntity = "confidence_entity"
            case additionalInfo = "additional_info"
        }
    }

    /// A built-in's kind and resolution: `{"type": "currency", "value": "1500", "unit": "Dollar", ...}` or
    /// `{"type": "date", "values": [{"timex", "type", "value"}...]}` (LUIS datetimeV2 readings).
    struct AdditionalInfo: Encodable, Sendable, Equatable {
        var type: BuiltinEntityType
        var resolution: BuiltinResolution

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(type, forKey: .type)
            try resolution.encode(to: encoder)   // the resolution's keys beside `type`
        }
        enum CodingKeys: String, CodingKey { case type }
    }

    struct Response: Encodable, Sendable {
        var text: String
        var intent: Intent
        var entities: [Entity]
        var intentRanking: [Intent]
        /// ``IntentPrediction/warnings`` (a regex pattern that ran out of time on this text): not in
        /// Rasa's shape, and left out when empty, so Rasa clients read the rest as they always did.
        var warnings: [String]

        enum CodingKeys: String, CodingKey {
            case text, intent, entities, warnings
            case intentRanking = "intent_ranking"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(text, forKey: .text)
            try container.encode(intent, forKey: .intent)
            try container.encode(entities, forKey: .entities)
            try container.encode(intentRanking, forKey: .intentRanking)
            if !warnings.isEmpty { try container.encode(warnings, forKey: .warnings) }
        }
    }

    /// How many intents the ranking lists (Rasa's default `ranking_length`).
    static let rankingLength = 10

    /// The Rasa response for `prediction`.
    static func response(_ prediction: IntentPrediction) -> Response {
        Response(text: prediction.text,
                 intent: Intent(name: prediction.intent, confidence: prediction.confidence),
                 entities: prediction.entities.map(entity),
                 intentRanking: prediction.ranking.map { Intent(name: $0.intent, confidence: $0.confidence) },
                 warnings: prediction.warnings)
    }

    /// An extracted entity under the name of the Rasa component that does the same job: the slot
    /// tagger is Rasa's CRF extractor; dictionaries (Rasa's lookup tables) and regexes are its regex
    /// extractor; the built-in recognizer is its Duckling extractor; the fine-tuned joint model is its
    /// DIETClassifier (a transformer trained for intents and entities together). `value` is the canonical value
    /// (synonyms resolved, as Rasa's synonym mapper does; a built-in's resolved value).
    static func entity(_ entity: ExtractedEntity) -> Entity {
        let extractor = switch entity.extractor {
        case .crf: "CRFEntityExtractor"
        case .dictionary, .regex: "RegexEntityExtractor"
        case .builtin: "DucklingEntityExtractor"
        case .transformer: "DIETClassifier"
        }
        var additionalInfo: AdditionalInfo?
        if let type = entity.builtin, let resolution = entity.resolution {
            additionalInfo = AdditionalInfo(type: type, resolution: resolution)
        }
        return Entity(entity: entity.entity, start: entity.start, end: entity.end, value: entity.value,
                      confidenceEntity: Float(entity.confidence), extractor: extractor, role: entity.role, group: entity.group,
                      additionalInfo: additionalInfo)
    }
}
