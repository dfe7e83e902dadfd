import Foundation
import NLUInputOutput

/// Reads the flows and pages of a Dialogflow CX agent export (the JSON package, a zip or its folder:
/// `agent.json`, `flows/<Flow>/<Flow>.json`, `flows/<Flow>/pages/<Page>.json`, `intents/`, `entityTypes/`)
/// into a node dialogue that keeps CX's state machine: one node per page (and per flow's start page) that
/// says the page's entry fulfillment, collects its form and waits at the routes in scope on that page.
///
/// | Dialogflow CX | NLUKit |
/// | --- | --- |
/// | a page (a flow's start page) | node `<Page>` (`<Flow>`; pages of other flows `<Flow>: <Page>`): entry fulfillment, then the form, then the condition routes, then it waits |
/// | `form.parameters[]`: `required`, `entityType`, `fillBehavior.initialPromptFulfillment`, the `sys.no-match-default` reprompt handler | node `<Page>/form`: slots (the entity of the type's name), prompt, `noMatch` |
/// | routes in scope on a page, in CX's order: the page's intent routes, the flow's intent routes, the page's condition routes | children `<Page>/route[i]`, `<Page>/flow route[i]`; while the form collects, the intent routes are slot handlers |
/// | `transitionRouteGroups` of a page or flow (the flow's `transitionRouteGroups/<Group>.json`, else the agent's) | the group's routes after the page's (or flow's) own, in the listed order: children `<Page>/group '<Group>' route[i]` |
/// | `condition` (`$session.params.x`, `$page.params.x`, `$page.params.status = "FINAL"`, `=`, `!=`, `<`…, `AND`, `OR`, `NOT`) | `condition` (`$x`; FINAL: every required parameter of the page set) |
/// | `triggerFulfillment`, `entryFulfillment`: `messages[].text.text` (one drawn at random), `payload`; `setParameterActions` | responses; context |
/// | `targetPage` (a page, `End Session`, `End Flow`, `Start`, `Current Page`), `targetFlow`, none | a `body` jump; none: the session stays on the page |
/// | `sys.no-match-default` handlers (page, else flow) | child `<Page>/no-match` on `anything_else` |
///
/// Reported by flow, page and route, never dropped silently: webhooks, conditional cases, events
/// other than no-match, numbered reprompt handlers, references and conditions outside the subset above, default
/// values, list parameters. Parameters are context variables: a session's parameters and a page's are one.
///
///     let files = try DialogueExport.files(at: URL(fileURLWithPath: "pizza-cx.zip"))   // NLUPipelines
///     let (model, warnings) = try DialogflowCXDialogueImporter.read(files)
public enum DialogflowCXDialogueImporter {
    struct Agent: Decodable { var displayName: String?; var defaultLanguageCode: String?; var startFlow: String? }
    struct Flow: Decodable {
        var name: String?
        var displayName: String?
        var transitionRoutes: [Route]?
        var eventHandlers: [EventHandler]?
        var transitionRouteGroups: [String]?
    }
    struct Page: Decodable {
        var displayName: String?
        var entryFulfillment: Fulfillment?
        var form: Form?
        var transitionRoutes: [Route]?
        var eventHandlers: [EventHandler]?
        var transitionRouteGroups: [String]?
    }
    struct Form: Decodable { var parameters: [FormParameter]? }
    struct FormParameter: Decodable {
        var displayName: String
        var required: Bool?
        var entityType: String?
        var isList: Bool?
        var fillBehavior: FillBehavior?
        var defaultValue: DialogueValue?
    }
    struct FillBehavior: Decodable { var initialPromptFulfillment: Fulfillment?; var repromptEventHandlers: [EventHandler]? }
    struct Route: Decodable {
        var intent: String?
        var condition: String?
        var triggerFulfillment: Fulfillment?
        var targetPage: String?
        var targetFlow: String?
    }
    struct EventHandler: Decodable {
        var event: String?
        var triggerFulfillment: Fulfillment?
        var targetPage: String?
        var targetFlow: String?
    }
    struct Fulfillment: Decodable {
        var messages: [[String: DialogueValue]]?
        var setParameterActions: [SetParameter]?
        var webhook: String?
        var conditionalCases: DialogueValue?
    }
    struct SetParameter: Decodable { var parameter: String; var value: DialogueValue? }
    struct RouteGroup: Decodable { var name: String?; var displayName: String?; var transitionRoutes: [Route]? }
    struct IntentFile: Decodable { var displayName: String?; var parameters: [IntentParameter]? }
    struct IntentParameter: Decodable { var id: String }

    /// The node that ends a session: every parameter cleared, the next turn starts at the start flow.
    static let endOfSession = "end of session"
    /// The node that answers the opening turn (CX does not speak first).
    static let openingTurn = "opening turn"
    /// The node that takes a turn when no page is active (a new session): the start page's routes.
    static let sessionStart = "session start"

    /// The `agent.json` of a CX agent (at the root, or in one folder), if `files` hold one with `flows/`.
    static func agentPath(_ files: some DialogueExportFiles) -> String? {
        files.paths.filter { $0 == "agent.json" || $0.hasSuffix("/agent.json") }.min { $0.count < $1.count }
            .flatMap { path in
                let root = String(path.dropLast("agent.json".count))
                return files.paths.contains { $0.hasPrefix(root + "flows/") && $0.hasSuffix(".json") } ? path : nil
            }
    }

    /// Whether `files` hold a Dialogflow CX agent (`agent.json` and `flows/`).
    public static func isAgent(_ files: some DialogueExportFiles) -> Bool { agentPath(files) != nil }

    /// The agent's flows and pages as a dialogue, in the agent's default language.
    /// - Throws: `JSONFileError` naming the file and field: malformed JSON, a route to a page or flow the
    ///   agent lacks, a route on an intent it lacks, a form parameter of an entity type it lacks or whose name
    ///   is not a variable name.
    public static func read(_ files: some DialogueExportFiles) throws -> (model: DialogueModel, warnings: [String]) {
        guard let agentPath = agentPath(files) else {
            throw JSONFileError(file: files.name, field: "", reason: "no agent.json beside a flows/ folder: not a Dialogflow CX agent")
        }
        let root = String(agentPath.dropLast("agent.json".count))
        let agent = try decode(Agent.self, agentPath, files)
        let language = agent.defaultLanguageCode ?? "en"
        // `<folder>/<Name>/<Name>.json` definitions, by the folder they sit in.
        func definitions(_ folder: String) -> [String] {
            files.paths.filter { path in
                guard path.hasPrefix(root + folder) else { return false }
                let parts = path.dropFirst((root + folder).count).split(separator: "/")
                return parts.count == 2 && parts[1] == "\(parts[0]).json"
            }
        }
        var intents = Set<String>()
        var parameters = Set<String>()
        for path in definitions("intents/") {
            let intent = try decode(IntentFile.self, path, files)
            intents.insert(intent.displayName ?? String(path.split(separator: "/").dropLast().last ?? ""))
            parameters.formUnion((intent.parameters ?? []).map(\.id))
        }
        let entityTypes = Set(definitions("entityTypes/").map { String($0.split(separator: "/").dropLast().last ?? "") })
        // Route groups: a flow's in `flows/<Flow>/transitionRouteGroups/`, the agent's in `transitionRouteGroups/`.
        func routeGroups(in folder: String) throws -> [RouteGroupSource] {
            try files.paths.filter { $0.hasPrefix(folder) && $0.hasSuffix(".json") }.sorted().map { path in
                let group = try decode(RouteGroup.self, path, files)
                let fileName = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
                return RouteGroupSource(group: group, name: group.displayName ?? fileName, file: files.displayName(path))
            }
        }
        var flows: [FlowSource] = []
        for path in definitions("flows/") {
            let flow = try decode(Flow.self, path, files)
            let folder = String(path.dropLast((path as NSString).lastPathComponent.count))
            var pages: [(page: Page, file: String)] = []
            for pagePath in files.paths where pagePath.hasPrefix(folder + "pages/") && pagePath.hasSuffix(".json") {
                pages.append((try decode(Page.self, pagePath, files), files.displayName(pagePath)))
            }
            let name = flow.displayName ?? String(path.split(separator: "/").dropLast().last ?? "")
            flows.append(FlowSource(flow: flow, name: name, file: files.displayName(path), pages: pages,
                                    routeGroups: try routeGroups(in: folder + "transitionRouteGroups/")))
        }
        let agentRouteGroups = try routeGroups(in: root + "transitionRouteGroups/")
        // The start flow first: agent.json names it by id; exports call it "Default Start Flow".
        guard let start = flows.firstIndex(where: { $0.flow.name != nil && $0.flow.name == agent.startFlow })
                ?? flows.firstIndex(where: { $0.name == "Default Start Flow" }) ?? flows.indices.first else {
            throw JSONFileError(file: files.name, field: "", reason: "no flows/<Flow>/<Flow>.json: the agent has no flow")
        }
        flows.insert(flows.remove(at: start), at: 0)
        for flow in flows {
            for (page, _) in flow.pages {
                parameters.formUnion((page.form?.parameters ?? []).map(\.displayName))
                for fulfillment in [page.entryFulfillment] + (page.transitionRoutes ?? []).map(\.triggerFulfillment) {
                    parameters.formUnion((fulfillment?.setParameterActions ?? []).map(\.parameter))
                }
            }
            let groupRoutes = (flow.routeGroups + agentRouteGroups).flatMap { $0.group.transitionRoutes ?? [] }
            for route in (flow.flow.transitionRoutes ?? []) + groupRoutes {
                parameters.formUnion((route.triggerFulfillment?.setParameterActions ?? []).map(\.parameter))
            }
        }
        var builder = DialogflowCXNodeBuilder(language: language, intents: intents, entityTypes: entityTypes, flows: flows,
                                              agentRouteGroups: agentRouteGroups)
        var nodes = [
            DialogueNode(id: openingTurn, condition: "welcome", next: .init(action: .jump, target: flows[0].name, selector: .body)),
            DialogueNode(id: sessionStart, condition: "true", next: .init(action: .jump, target: builder.firstTurnRoute(ofState: flows[0].name), selector: .condition)),
            DialogueNode(id: endOfSession, context: Dictionary(uniqueKeysWithValues: parameters.sorted().map { ($0, DialogueValue.null) })),
        ]
        nodes += try builder.nodes()
        let name = agent.displayName ?? URL(fileURLWithPath: root.isEmpty ? files.name : root).deletingPathExtension().lastPathComponent
        // A flow's routes are read on every page they are in scope on: each problem is said once.
        var seen = Set<String>()
        let warnings = builder.warnings.filter { seen.insert($0).inserted }
        return (DialogueModel(name: name, language: language, source: "dialogflow-cx", nodes: nodes), warnings)
    }

    /// A flow file read, with its pages and route groups.
    struct FlowSource {
        let flow: Flow
        let name: String
        let file: String
        let pages: [(page: Page, file: String)]
        var routeGroups: [RouteGroupSource] = []
    }

    /// A route group file read: its display name is how pages and flows list it.
    struct RouteGroupSource {
        let group: RouteGroup
        let name: String
        let file: String
    }

    static func decode<T: Decodable>(_ type: T.Type, _ path: String, _ files: some DialogueExportFiles) throws -> T {
        try JSONFile.decode(type, from: try files.data(at: path), file: files.displayName(path))
    }
}
