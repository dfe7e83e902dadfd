/// The dataset formats NLUKit imports, by the names the CLI's `--format` accepts.
///
///     let format = DatasetFormat(rawValue: "rasa")   // .rasaYAML
public enum DatasetFormat: String, CaseIterable, Sendable {
    /// NLUKit's own JSON form (``IntentDataset``).
    case nlukit
    /// IBM Watson Assistant / Conversation workspace JSON.
    case watson
    /// IBM Watson Natural Language Classifier CSV (`text,class`).
    case watsonNLC = "watson-nlc"
    /// Amazon Lex V1 bot (or intent) JSON export.
    case lexV1 = "lex"
    /// Amazon Lex V2 bot export (zip or unzipped folder).
    case lexV2 = "lex-v2"
    /// Google Dialogflow ES agent export (zip or unzipped folder).
    case dialogflow
    /// Alexa skill interaction model JSON.
    case alexa
    /// Rasa NLU training data in YAML (Rasa 2 and 3).
    case rasaYAML = "rasa"
    /// Legacy Rasa NLU JSON (`rasa_nlu_data`).
    case rasaJSON = "rasa-json"
    /// Legacy Rasa NLU Markdown (`## intent:name`).
    case rasaMarkdown = "rasa-md"
    /// Microsoft LUIS app JSON.
    case luis
    /// The Snips NLU benchmark JSON.
    case snips
    /// CSV with `text,intent` rows (optional header).
    case csv
    /// Azure AI Language CLU (Conversational Language Understanding) project export JSON.
    case clu
    /// Bot Framework `.lu` files (LUIS's source format), a file or a folder.
    case lu
    /// Google Dialogflow CX agent package (zip or unzipped folder).
    case dialogflowCX = "dialogflow-cx"
    /// IBM watsonx Assistant actions skill JSON (the new experience).
    case watsonxActions = "watsonx"
    /// snips-nlu's own dataset JSON (`snips-nlu generate-dataset`) or its YAML input.
    case snipsNLU = "snips-nlu"
    /// CLINC150's data JSON (`train`, `val`, `test` and their `oos_` rows, as [text, intent] pairs).
    case clinc = "clinc150"

    /// One line per format for help texts.
    public var summary: String {
        switch self {
        case .nlukit: return "NLUKit dataset JSON"
        case .watson: return "Watson Assistant workspace JSON"
        case .watsonNLC: return "Watson NLC CSV (text,class)"
        case .lexV1: return "Amazon Lex V1 bot JSON"
        case .lexV2: return "Amazon Lex V2 export (.zip or folder)"
        case .dialogflow: return "Dialogflow ES agent (.zip or folder)"
        case .alexa: return "Alexa interaction model JSON"
        case .rasaYAML: return "Rasa NLU YAML"
        case .rasaJSON: return "legacy Rasa NLU JSON"
        case .rasaMarkdown: return "legacy Rasa NLU Markdown"
        case .luis: return "Microsoft LUIS app JSON"
        case .snips: return "Snips benchmark JSON"
        case .csv: return "CSV text,intent"
        case .clu: return "Azure CLU project JSON"
        case .lu: return "Bot Framework .lu files"
        case .dialogflowCX: return "Dialogflow CX agent (.zip or folder)"
        case .watsonxActions: return "watsonx Assistant actions skill JSON"
        case .snipsNLU: return "snips-nlu dataset (JSON or YAML)"
        case .clinc: return "CLINC150 data JSON"
        }
    }

    /// Where an export of this format records its language, for an error about it ("field 'culture'").
    public var languageSource: String {
        switch self {
        case .nlukit, .watson, .watsonxActions, .snipsNLU, .clu: return "field 'language'"
        case .luis: return "field 'culture'"
        case .lexV1: return "field 'locale'"
        case .lexV2: return "the locale folder's name (BotLocales/<locale>)"
        case .dialogflow: return "agent.json's 'language' or a training phrase file's name"
        case .dialogflowCX: return "a training phrase file's name"
        case .alexa: return "the locale in the file name"
        case .rasaYAML, .rasaJSON, .rasaMarkdown: return "config.yml's 'language'"
        case .lu: return "'> !# @app.culture'"
        case .watsonNLC, .csv, .snips, .clinc: return "language"
        }
    }
}
