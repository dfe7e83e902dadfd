import Foundation

/// An entity annotation of a training utterance that no tagger can learn from: its span lies outside
/// the utterance's text or is empty, or it overlaps another annotation of the same utterance. The
/// message names the intent, the utterance and both spans (Unicode-scalar offsets).
///
///     catch let error as EntityAnnotationError { print(error) }
///     // intent 'book_table', utterance "a table for 4": entity 'party_size' at 12..<20 is outside the text's 13 characters
public struct EntityAnnotationError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// The intent of the utterance.
    public var intent: String
    /// The utterance's text.
    public var utterance: String
    /// What is wrong with its annotations.
    public var reason: String

    public var description: String { "intent '\(intent)', utterance \"\(utterance)\": \(reason)" }
    public var errorDescription: String? { description }

    /// Throws for the first annotation of `utterance` that is out of range, empty or overlapping another.
    static func check(_ utterance: Utterance, intent: String) throws {
        let length = utterance.text.unicodeScalars.count
        func describe(_ annotation: EntityAnnotation) -> String { "entity '\(annotation.entity)' at \(annotation.start)..<\(annotation.end)" }
        for annotation in utterance.entities where !(0 <= annotation.start && annotation.start < annotation.end && annotation.end <= length) {
            throw EntityAnnotationError(intent: intent, utterance: utterance.text,
                                        reason: "\(describe(annotation)) is outside the text's \(length) characters or empty")
        }
        let ordered = utterance.entities.sorted { ($0.start, $0.end) < ($1.start, $1.end) }
        for (previous, next) in zip(ordered, ordered.dropFirst()) where next.start < previous.end {
            throw EntityAnnotationError(intent: intent, utterance: utterance.text, reason: "\(describe(next)) overlaps \(describe(previous))")
        }
    }
}
