import Foundation
import NLUKit

/// The last line of defence against raw Foundation and Swift error text (`Error Domain=NSCocoaErrorDomain
/// Code=4 ...`, `DecodingError.dataCorrupted(...)`, `EncodingError.invalidValue: -nan`): every library
/// error names its input itself, but an error that escapes unwrapped is still shown in plain words.
enum FoundationErrorText {
    /// A plain message for `error` when it is one of Foundation's or Swift's own, else nil.
    static func userMessage(for error: any Error) -> String? {
        switch error {
        case DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty:
            return "the JSON input is not valid (or holds a number out of range)"
        case let error as DecodingError:
            let (field, reason) = JSONFile.describe(error, decoding: Bool.self, from: Data())
            return "cannot read the JSON input" + (field.isEmpty ? "" : " at field '\(field)'") + ": \(reason)"
        case let EncodingError.invalidValue(value, context):
            let field = JSONFile.path(context.codingPath)
            return "cannot write \(value) as JSON" + (field.isEmpty ? "" : " (field '\(field)')") + ": JSON has no NaN or infinity"
        case let error as CocoaError:
            let path = (error.userInfo[NSFilePathErrorKey] as? String) ?? error.userInfo[NSURLErrorKey].map { "\($0)" }
            let underlying = (error.userInfo[NSUnderlyingErrorKey] as? NSError)
                .flatMap { $0.domain == NSPOSIXErrorDomain ? String(cString: strerror(Int32($0.code))) : nil }
            let reason = underlying ?? (error.isFileError ? "the file cannot be read or written" : "the operation failed")
            return (path.map { "\($0): " } ?? "") + reason
        default:
            let text = "\(error)"
            guard text.contains("Error Domain=") || text.contains("NSCocoaErrorDomain") else { return nil }
            let nsError = error as NSError
            let path = nsError.userInfo[NSFilePathErrorKey] as? String
            return (path.map { "\($0): " } ?? "") + (nsError.domain == NSPOSIXErrorDomain ? String(cString: strerror(Int32(nsError.code))) : "the operation failed")
        }
    }
}
