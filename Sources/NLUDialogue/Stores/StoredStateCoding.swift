import Foundation

/// A state as the stores keep it: compact JSON (sorted keys, so equal states are equal bytes), checked
/// against the store's size limit, and read back with a message naming the conversation when it is not a state.
public enum StoredStateCoding {
    /// - Throws: ``ConversationStoreError/stateTooLarge(id:bytes:limit:)`` when the JSON is over `limit` bytes.
    public static func encode(_ state: DialogueState, id: String, limit: Int?) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(state)
        if let limit, data.count > limit {
            throw ConversationStoreError.stateTooLarge(id: id, bytes: data.count, limit: limit)
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// - Throws: ``ConversationStoreError/damagedState(id:reason:)``.
    public static func decode(_ text: String, id: String) throws(ConversationStoreError) -> DialogueState {
        do {
            return try JSONDecoder().decode(DialogueState.self, from: Data(text.utf8))
        } catch {
            throw .damagedState(id: id, reason: "\(error)")
        }
    }
}
