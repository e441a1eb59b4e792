"""Pre-issues N single-use authorization codes (with one PKCE S256 challenge) into SignInBridge's SQLite store and
into the authlib peer's, and writes the codes, one a line, to a file per side for the load generator."""
import base64
import hashlib
import sqlite3
import sys
import time
import uuid
import secrets

side, db_path, count, out_path, verifier = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
now = int(time.time() * 1000)
expires = now + 15 * 60 * 1000  # outlives the seeding and the run; expiry is not what is measured
conn = sqlite3.connect(db_path, isolation_level=None)
conn.execute("PRAGMA busy_timeout=10000")
codes = [secrets.token_urlsafe(32) for _ in range(count)]
conn.execute("BEGIN IMMEDIATE")
for code in codes:
    digest = hashlib.sha256(code.encode()).hexdigest()
    if side == "bridge":
        grant = str(uuid.uuid4())
        conn.execute("INSERT INTO grants (id, user_id, client_id, scope, created_at) VALUES (?, 'demo', 'office', 'wopi', ?)",
                     (grant, now))
        conn.execute(
            "INSERT INTO authorization_codes (digest, grant_id, client_id, redirect_uri, code_challenge, "
            "code_challenge_method, scope, issued_at, expires_at) VALUES (?, ?, 'office', 'https://localhost', ?, 'S256', 'wopi', ?, ?)",
            (digest, grant, challenge, now, expires))
    else:
        conn.execute("INSERT INTO codes VALUES (?, 'office', 'https://localhost', 'wopi', 'demo', ?, 'S256', ?, ?, NULL)",
                     (digest, challenge, now // 1000, expires))
conn.execute("COMMIT")
conn.close()
with open(out_path, "w") as f:
    f.write("\n".join(codes) + "\n")
