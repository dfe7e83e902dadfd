import Hummingbird

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension ServerRoutes {
    /// `GET /`: the playground page (static, in the binary; it calls the JSON routes).
    func registerPlaygroundRoute(on router: Router<BasicRequestContext>) {
        router.get(.init(RouteTable.playground.path)) { _, _ in
            Response(status: .ok,
                     headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache",
                               .contentSecurityPolicy: "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'"],
                     body: ResponseBody(byteBuffer: ByteBuffer(string: PlaygroundPage.html)))
        }
    }
}
