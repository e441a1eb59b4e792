import BridgeStore
import Foundation

extension SQLiteStore {
    /// One UPSERT: a new proof is inserted, a proof whose window ended is taken over, and a live one is left alone,
    /// in which case RETURNING gives no row.
    public func useDPoPProof(_ proof: DPoPProofUse, at now: Date) async throws -> DPoPProofUseOutcome {
        try await transaction("DPoP proof") { tx in
            let won = try tx.query(
                """
                INSERT INTO dpop_proofs (digest, expires_at) VALUES (?, ?)
                ON CONFLICT (digest) DO UPDATE SET expires_at = excluded.expires_at WHERE dpop_proofs.expires_at <= ?
                RETURNING digest
                """,
                [.text(proof.digest.hex), .millis(proof.expiresAt), .millis(now)])
            return won.isEmpty ? .replayed : .firstUse
        }
    }
}
