# Sourced by the benchmarks that drive the sample config's code flow (flow.sh, load.sh): the client, the PKCE pair
# and the authorize path they send, and two steps they share. Not a benchmark itself (all.sh runs scripts/bench/*.sh).
VERIFIER=dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk   # RFC 7636 Appendix B
CHALLENGE=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM
BASIC="Basic $(printf 'office:office-demo-secret' | base64)"
AUTHORIZE="/oauth2/authorize?client_id=office&redirect_uri=https%3A%2F%2Flocalhost&response_type=code&scope=wopi&state=s&code_challenge=$CHALLENGE&code_challenge_method=S256"

# The sample config on a port, its files in a folder, written to folder/bridge.yaml.
sample_config() {  # folder port
  python3 - "$1" "$2" <<'PY'
import sys
sys.path.insert(0, "scripts/test")
from pathlib import Path
from flows.bridge import write_config
write_config(Path(sys.argv[1]), int(sys.argv[2])).rename(Path(sys.argv[1]) / "bridge.yaml")
PY
}

# Signs the demo user in and consents once, as a browser; prints the Cookie header that browser then sends.
signed_in_cookie() {  # port
  python3 - "$1" "$CHALLENGE" <<'PY'
import sys
sys.path.insert(0, "scripts/test")
from flows.bridge import Browser
browser = Browser(int(sys.argv[1]))
browser.authorize(challenge=sys.argv[2])
print("; ".join(f"{name}={value}" for name, value in browser.cookies.items()))
PY
}
