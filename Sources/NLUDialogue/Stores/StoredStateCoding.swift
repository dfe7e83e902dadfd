import Foundation

/// A state as the database stores keep it: compact JSON (sorted keys, so equal states are equal bytes),
/// read back with a message naming the conversation when it is not a state.
public enum StoredStateCoding {
    public static func encode(_ state: DialogueState) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(state), as: UTF8.self)
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
