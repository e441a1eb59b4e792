import BridgeStore
import Foundation
import PostgresNIO

extension PostgresStore {
    /// One statement: of several instances inserting the same proof at once, the unique key lets one insert and
    /// makes the others wait for it and then find the row (`ON CONFLICT … WHERE` re-checks the committed row), so
    /// exactly one sees `.firstUse` (PostgreSQL docs, "INSERT … ON CONFLICT").
    public func useDPoPProof(_ proof: DPoPProofUse, at now: Date) async throws -> DPoPProofUseOutcome {
        let won = try await rows(
            Subject("DPoP proof"),
            """
            INSERT INTO dpop_proofs (digest, expires_at) VALUES (\(proof.digest.hex), \(Milliseconds.from(proof.expiresAt)))
            ON CONFLICT (digest) DO UPDATE SET expires_at = EXCLUDED.expires_at
                WHERE dpop_proofs.expires_at <= \(Milliseconds.from(now))
            RETURNING digest
            """)
        return won.isEmpty ? .replayed : .firstUse
    }
}
