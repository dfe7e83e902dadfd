extension Dialogue {
    /// The state in `signed`, once its signature verifies (``DialogueStateSigner/verify(_:conversation:source:)``)
    /// and this dialogue accepts it: made by this dialogue (its fingerprint), naming only nodes and slots it has.
    /// Checked here rather than at the next turn, so that the error names where the state came from.
    ///
    ///     let state = try dialogue.verifiedState(signed, signer: signer, conversation: "user-42")
    /// - Parameter source: how errors name the state; by default the conversation, or "the conversation state".
    /// - Throws: ``SignedStateError``; ``SignedStateError/refusedByDialogue(source:_:)`` for a state of another dialogue.
    public func verifiedState(_ signed: SignedDialogueState, signer: DialogueStateSigner, conversation: String? = nil,
                              source: String? = nil) throws(SignedStateError) -> DialogueState {
        let source = source ?? DialogueStateSigner.source(conversation)
        let state = try signer.verify(signed, conversation: conversation, source: source)
        do throws(DialogueError) {
            try check(state)
        } catch {
            throw .refusedByDialogue(source: source, error)
        }
        return state
    }
}

extension Conversation {
    /// Continues the conversation in `signed`, a state this application signed (``signedState(using:conversation:)``)
    /// and kept somewhere it does not control: refused unless its signature verifies with `signer`'s keys, it was
    /// signed for `conversation`, and `dialogue` made it.
    ///
    ///     let saved = try SignedDialogueState(jsonData: data, source: "the saved conversation")
    ///     var conversation = try Conversation(dialogue: dialogue, signedState: saved, signer: signer)
    /// - Throws: ``SignedStateError`` naming the conversation.
    public init(dialogue: Dialogue, signedState signed: SignedDialogueState, signer: DialogueStateSigner,
                conversation: String? = nil) throws(SignedStateError) {
        self.init(dialogue: dialogue, state: try dialogue.verifiedState(signed, signer: signer, conversation: conversation))
    }

    /// The current state signed with `signer`'s key, for `conversation` when given: what to keep outside the
    /// application (an iOS app's storage, a client) and hand back to ``init(dialogue:signedState:signer:conversation:)``.
    /// - Throws: ``SignedStateError`` when the state is too large or cannot be encoded.
    public func signedState(using signer: DialogueStateSigner, conversation: String? = nil) throws(SignedStateError) -> SignedDialogueState {
        try signer.sign(state, conversation: conversation)
    }
}
