/// The line being typed at an interactive prompt and what each key does to it, readline's way:
/// moving by character (a grapheme, so an accented letter or an emoji is one step), deleting, the
/// Ctrl shortcuts, and a history that Up and Down walk through (a recalled line is edited as a copy;
/// the history keeps what was entered). Pure state: ``TerminalLineReader`` reads the keys and draws it.
///
///     var editor = LineEditor()
///     for key in [.character("h"), .character("i"), .enter] as [TerminalKey] { _ = editor.apply(key) }
///     // the last apply returned .submit("hi")
public struct LineEditor: Sendable {
    /// What a key asks of the reader.
    public enum Outcome: Equatable, Sendable {
        /// Redraw the line.
        case edited
        /// The line is entered (also added to the history when it is not blank).
        case submit(String)
        /// End of input (Ctrl-D on an empty line).
        case endOfInput
        /// Ctrl-C on an empty line; on a line with text Ctrl-C clears it (`edited`).
        case interrupt
    }

    /// The most entries the history keeps.
    public static let historyLimit = 1000

    public private(set) var characters: [Character] = []
    /// The cursor, before `characters[cursor]` (0 ... count).
    public private(set) var cursor = 0
    public private(set) var history: [String] = []
    /// The history entry shown (history.count: the line being typed).
    private var historyIndex = 0
    /// The line being typed while the history is shown, restored by Down past the newest entry.
    private var draft: [Character] = []

    public init(history: [String] = []) {
        self.history = Array(history.suffix(Self.historyLimit))
        historyIndex = self.history.count
    }

    public var text: String { String(characters) }

    public mutating func apply(_ key: TerminalKey) -> Outcome {
        switch key {
        case .character(let character):
            characters.insert(character, at: cursor)
            cursor += 1
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(characters.count, cursor + 1)
        case .home: cursor = 0
        case .end: cursor = characters.count
        case .backspace:
            if cursor > 0 {
                characters.remove(at: cursor - 1)
                cursor -= 1
            }
        case .delete:
            if cursor < characters.count { characters.remove(at: cursor) }
        case .deleteToEnd: characters.removeSubrange(cursor...)
        case .deleteToStart:
            characters.removeSubrange(..<cursor)
            cursor = 0
        case .deleteWord:
            var start = cursor
            while start > 0, characters[start - 1].isWhitespace { start -= 1 }
            while start > 0, !characters[start - 1].isWhitespace { start -= 1 }
            characters.removeSubrange(start..<cursor)
            cursor = start
        case .up: showHistory(historyIndex - 1)
        case .down: showHistory(historyIndex + 1)
        case .enter:
            let line = text
            if line.contains(where: { !$0.isWhitespace }), history.last != line {
                history.append(line)
                if history.count > Self.historyLimit { history.removeFirst(history.count - Self.historyLimit) }
            }
            characters = []
            cursor = 0
            draft = []
            historyIndex = history.count
            return .submit(line)
        case .endOfInput:
            if characters.isEmpty { return .endOfInput }
            if cursor < characters.count { characters.remove(at: cursor) }
        case .interrupt:
            if characters.isEmpty { return .interrupt }
            characters = []
            cursor = 0
        case .redraw:
            break
        }
        return .edited
    }

    private mutating func showHistory(_ index: Int) {
        guard (0...history.count).contains(index), index != historyIndex else { return }
        if historyIndex == history.count { draft = characters }
        historyIndex = index
        characters = index == history.count ? draft : Array(history[index])
        cursor = characters.count
    }

    /// The columns `characters` take on a terminal: 2 for East Asian wide and fullwidth characters and
    /// emoji, 0 for a zero-width one, else 1 (what wcwidth gives for the common cases).
    public static func columns<C: Collection>(_ characters: C) -> Int where C.Element == Character {
        characters.reduce(0) { $0 + columns(of: $1) }
    }

    static func columns(of character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        if character.unicodeScalars.contains(where: { $0.properties.isEmojiPresentation }) { return 2 }
        switch scalar.value {
        case 0x200B...0x200F, 0xFE00...0xFE0F: return 0
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return 2
        default: return 1
        }
    }
}
