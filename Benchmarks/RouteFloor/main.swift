import Hummingbird

// The floor under every SignInBridge route: Hummingbird answering GET /floor with a fixed body the size of a
// bootstrap answer, and nothing else (no middleware, no store, no crypto). scripts/bench/flow.sh loads it with the
// same wrk settings as the authenticated bootstrapper, so the ratio between the two says what our own work costs.
// Usage: RouteFloor PORT
let port = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 18092 : 18092
let body = ByteBuffer(string: "{\"Bootstrap\":{\"EcosystemUrl\":\"" + String(repeating: "x", count: 240) + "\"}}")
let router = Router()
router.get("/floor") { _, _ -> Response in
    Response(
        status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
        body: ResponseBody(byteBuffer: body))
}
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()
