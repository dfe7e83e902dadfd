import HummingbirdCore

/// The limits of the HTTP/1.1 request head, set explicitly (they are Hummingbird's defaults) so
/// that the 431 answer can name them.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
enum HTTPLimits {
    /// Bytes in one header field, and in all of them together.
    static let headerBytes = 80 * 1024
    /// Header fields in one request.
    static let headerFields = 1000

    static var decoder: HTTP1Channel.Configuration.DecoderConfiguration {
        .init(maxHeaderFieldSize: headerBytes, maxHeaderListSize: headerBytes, maxHeaderFieldCount: headerFields)
    }
}
