import Hummingbird

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension ServerRoutes {
    /// `GET /health`, `/version`, `/status` and `/metrics`.
    func registerServiceRoutes(on router: Router<BasicRequestContext>) {
        let models = self.models, configuration = self.configuration, metrics = self.metrics, started = self.started
        router.get(.init(RouteTable.health.path)) { _, _ in
            // Models are loaded before the port is bound, so a server that answers has them.
            try JSONResponse.make(ServiceInfo.Health(status: "ok"))
        }
        router.get(.init(RouteTable.version.path)) { _, _ in
            try JSONResponse.make(ServiceInfo.version)
        }
        router.get(.init(RouteTable.status.path)) { _, _ in
            let uptime = ContinuousClock.now - started
            return try JSONResponse.make(ServiceInfo.Status(
                version: ServiceInfo.version.version, models: models.info, workers: configuration.workers,
                uptimeSeconds: Double(uptime.components.seconds) + Double(uptime.components.attoseconds) / 1e18))
        }
        router.get(.init(RouteTable.metrics.path)) { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                     body: ResponseBody(byteBuffer: ByteBuffer(string: metrics.exposition())))
        }
    }
}
