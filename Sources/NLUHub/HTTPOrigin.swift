import Foundation

/// The origin of a URL (scheme, host, port; the port made explicit for http and https), what decides
/// who may see the Hub token: huggingface_hub's `requests` drops `Authorization` on a redirect to
/// another host, port or scheme, and so does NLUKit. A same-host comparison alone let the token follow
/// a redirect to another port of the endpoint's host.
///
///     HTTPOrigin(URL(string: "http://127.0.0.1:8080/a")!) == HTTPOrigin(URL(string: "http://127.0.0.1:9090/b")!)   // false
///     HTTPOrigin(URL(string: "https://hf.co/a")!) == HTTPOrigin(URL(string: "https://HF.co:443/b")!)              // true
struct HTTPOrigin: Equatable {
    var scheme: String
    var host: String
    var port: Int?

    init(_ url: URL) {
        scheme = url.scheme?.lowercased() ?? ""
        host = url.host?.lowercased() ?? ""
        port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil)
    }

    /// True for the two schemes a download may use (a redirect to `file:` or `ftp:` is refused).
    var isHTTP: Bool { scheme == "http" || scheme == "https" }
}
