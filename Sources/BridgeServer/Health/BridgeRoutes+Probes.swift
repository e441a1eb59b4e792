import BridgeHTTP
import Hummingbird
import SignInProtocol

extension BridgeRoutes {
    /// Kubernetes-style probes beside `/auth/health` (which stays as documented): `/health/live` says the process
    /// answers and nothing else, so a store outage never gets a healthy instance restarted; `/health/ready` says
    /// whether it should take traffic (`ReadinessChecks`).
    func registerProbes(on router: Router<BridgeRequestContext>) {
        let live = JSONBody.bytes(["status": "ok"])
        router.get("/health/live") { _, _ in Self.json(live, cacheable: false) }
        router.get("/health/ready") { _, _ in
            let report = await self.services.readiness.report()
            var response = Self.json(JSONBody.bytes(report), cacheable: false)
            if !report.isReady { response.status = .serviceUnavailable }
            return response
        }
    }
}
