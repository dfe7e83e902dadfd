/// A yes/no question asked once a node's required slots are filled: on `yes` the node answers, on `no` it
/// says `denied` and asks for the slots again (their values cleared); anything else asks again (a turn that
/// fills a slot changes that value first).
///
///     {"prompt": [{"type": "text", "values": ["A table for $guests on $date?"]}], "yes": "#affirm", "no": "#deny"}
public struct SlotConfirmation: Sendable, Equatable, Codable {
    public var prompt: [DialogueResponse]
    public var yes: String
    public var no: String
    public var denied: [DialogueResponse]?
    public init(prompt: [DialogueResponse], yes: String, no: String, denied: [DialogueResponse]? = nil) {
        self.prompt = prompt
        self.yes = yes
        self.no = no
        self.denied = denied
    }
}
