#!/usr/bin/env python3
"""The WOPI ecosystem and the probes of `signin-bridge serve`, read with clients that are not ours: `requests` for
HTTP and `jsonschema` against the answers schemas/openapi.yaml documents (schemathesis, in openapi.sh, never holds a
valid ecosystem token, so it only sees the refusals).

Office's sign-in on the sample config (flows/bridge.py), then, as Office does after the bootstrap (Microsoft's
"CheckEcosystem" and "GetRootContainer (ecosystem)" pages): GET EcosystemUrl (SupportsContainers true), GET
<path>/root_container_pointer (ContainerPointer with Name and an absolute Url with an access_token), the same with
the token in `Authorization: Bearer`, an altered token (401 with a Bearer challenge naming invalid_token), a file's
token from GET_NEW_ACCESS_TOKEN (404), no token (401); and /health/live and /health/ready.

Run with the test venv's Python: .build/venv-test/bin/python scripts/test/wopi_ecosystem.py --binary …
Prints one line per check and ends with "N passed, N failed"; exits 1 on any failure.
"""
import argparse
import sys
import urllib.parse
from pathlib import Path

import jsonschema
import requests
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from flows.bridge import ROOT, Browser, redeem, serving  # noqa: E402
from flows.tally import expect as check, tally  # noqa: E402

OPENAPI = yaml.safe_load((ROOT / "schemas" / "openapi.yaml").read_text())


def documented(path, status="200"):
    """The JSON schema openapi.yaml gives the answer, with its components resolvable."""
    response = OPENAPI["paths"][path]["get"]["responses"][status]
    schema = response["content"]["application/json"]["schema"]
    return {**schema, "components": OPENAPI["components"]}


def valid(instance, path, status="200"):
    try:
        jsonschema.validate(instance, documented(path, status))
        return True
    except jsonschema.ValidationError as error:
        return error.message


def altered(url):
    """The URL with its access_token changed in the middle: a token of the right shape this server never sealed."""
    parts = urllib.parse.urlsplit(url)
    query = urllib.parse.parse_qs(parts.query)
    token = list(query["access_token"][0])
    token[len(token) // 2] = "B" if token[len(token) // 2] == "A" else "A"
    return urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode({"access_token": "".join(token)})))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    args = parser.parse_args()
    with serving(args.binary) as port:
        base = f"http://127.0.0.1:{port}"
        code = Browser(port).authorize()["code"]
        status, tokens = redeem(port, code)
        check("Office's code redeems", status == 200, tokens)
        bearer = {"Authorization": "Bearer " + tokens["access_token"]}
        answer = requests.get(base + "/wopibootstrapper", headers=bearer, timeout=10).json()
        ecosystem = answer["Bootstrap"]["EcosystemUrl"]
        check("EcosystemUrl is this server's /wopi/ecosystem with an access_token",
              ecosystem.startswith(base + "/wopi/ecosystem?access_token=w1."), ecosystem)

        response = requests.get(ecosystem, timeout=10)
        check("CheckEcosystem: 200 application/json, no-store",
              response.status_code == 200 and response.headers.get("Content-Type") == "application/json"
              and response.headers.get("Cache-Control") == "no-store", (response.status_code, dict(response.headers)))
        check("CheckEcosystem: SupportsContainers true", response.json() == {"SupportsContainers": True}, response.text)
        check("CheckEcosystem: as openapi.yaml documents it", valid(response.json(), "/wopi/ecosystem") is True,
              valid(response.json(), "/wopi/ecosystem"))

        parts = urllib.parse.urlsplit(ecosystem)
        pointer_url = urllib.parse.urlunsplit(parts._replace(path=parts.path + "/root_container_pointer"))
        response = requests.get(pointer_url, timeout=10)
        pointer = response.json().get("ContainerPointer", {}) if response.status_code == 200 else {}
        check("GetRootContainer: 200 with ContainerPointer Name", pointer.get("Name") == "Demo files", response.text)
        url = urllib.parse.urlsplit(pointer.get("Url", ""))
        check("GetRootContainer: Url absolute with an access_token",
              url.scheme == "http" and url.netloc == f"127.0.0.1:{port}"
              and urllib.parse.parse_qs(url.query).get("access_token", [""])[0].startswith("w1."), pointer)
        check("GetRootContainer: as openapi.yaml documents it",
              valid(response.json(), "/wopi/ecosystem/root_container_pointer") is True,
              valid(response.json(), "/wopi/ecosystem/root_container_pointer"))

        token = urllib.parse.parse_qs(parts.query)["access_token"][0]
        response = requests.get(base + "/wopi/ecosystem", headers={"Authorization": "Bearer " + token}, timeout=10)
        check("CheckEcosystem takes the token in Authorization: Bearer", response.status_code == 200, response.text)

        for name, target in (("CheckEcosystem", ecosystem), ("GetRootContainer", pointer_url)):
            response = requests.get(altered(target), timeout=10)
            challenge = response.headers.get("WWW-Authenticate", "")
            check(f"{name}: an altered token gets 401 with a Bearer invalid_token challenge",
                  response.status_code == 401 and challenge.startswith(f'Bearer realm="{base}"')
                  and 'error="invalid_token"' in challenge, (response.status_code, challenge))
        response = requests.get(base + "/wopi/ecosystem", timeout=10)
        check("CheckEcosystem without a token: 401 with the bare challenge",
              response.status_code == 401 and response.headers.get("WWW-Authenticate") == f'Bearer realm="{base}"',
              (response.status_code, response.headers.get("WWW-Authenticate")))

        file_answer = requests.post(base + "/wopibootstrapper", timeout=10, headers={
            **bearer, "X-WOPI-EcosystemOperation": "GET_NEW_ACCESS_TOKEN", "X-WOPI-WopiSrc": base + "/wopi/files/demo"})
        file_token = file_answer.json()["AccessTokenInfo"]["AccessToken"]
        response = requests.get(base + "/wopi/ecosystem", params={"access_token": file_token}, timeout=10)
        check("CheckEcosystem with a file's token (GET_NEW_ACCESS_TOKEN): 404", response.status_code == 404,
              (response.status_code, response.text))

        response = requests.get(base + "/health/live", timeout=10)
        check("/health/live: 200 {\"status\":\"ok\"}", response.status_code == 200 and response.json() == {"status": "ok"},
              response.text)
        response = requests.get(base + "/health/ready", timeout=10)
        check("/health/ready: 200, ready, as openapi.yaml documents it",
              response.status_code == 200 and response.json().get("status") == "ready"
              and valid(response.json(), "/health/ready") is True, response.text)
    return tally.summary()


if __name__ == "__main__":
    sys.exit(main())
