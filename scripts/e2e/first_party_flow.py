#!/usr/bin/env python3
"""A first-party app's `redirect_to_web` (draft-ietf-oauth-first-party-apps-04 §5.2.2.1.1) continued in headless
Chromium: the app posts to the authorization challenge endpoint with prompt=consent (a page is needed), gets
`redirect_to_web` with a `request_uri`, and opens /oauth2/authorize?client_id=…&request_uri=… in the browser, which
signs in, allows, and ends at redirect_uri?code=…&state=… (caught from Chromium's network log, never loaded). The
code is redeemed with the PKCE verifier of the native first request. The same request_uri a second time is refused.

Starts signin-bridge itself on a free loopback port with the sample config (firstPartyApps.enabled). Saves a phone
screenshot of the sign-in page reached through the request_uri. Exits 0 on success, 1 on a failed check.
"""
import json
import secrets
import sys
import urllib.parse
from pathlib import Path

from selenium.webdriver.common.by import By

sys.path.insert(0, str(Path(__file__).resolve().parent))
from app_to_app_flow import caught_redirect, pkce, token  # noqa: E402
from office_flow import DEMO_PASSWORD, DEMO_USER, check, http, main_with, screenshots, serving, wait_until  # noqa: E402

PARTNER_REDIRECT = "com.example.partner:/oauth2redirect"


def run(binary, artifacts: Path):
    with serving(binary, prefix="signin-bridge-e2e-fpa-") as (base, _, driver):
        state = secrets.token_urlsafe(16)
        verifier, challenge = pkce()
        status, _, body = http("POST", base + "/oauth2/authorize-challenge",
                               {"Content-Type": "application/x-www-form-urlencoded"}, urllib.parse.urlencode({
                                   "client_id": "partner-app", "response_type": "code", "scope": "openid profile",
                                   "state": state, "prompt": "consent", "code_challenge": challenge,
                                   "code_challenge_method": "S256"}).encode())
        answer = json.loads(body)
        check(status == 400 and answer.get("error") == "redirect_to_web",
              f"a request that needs a page is redirect_to_web (got {status}: {body[:200]})")
        request_uri = answer.get("request_uri", "")
        check(request_uri.startswith("urn:ietf:params:oauth:request_uri:"), "with a request_uri (RFC 9126 §2.2)")
        authorize = base + "/oauth2/authorize?" + urllib.parse.urlencode(
            {"client_id": "partner-app", "request_uri": request_uri})
        driver.get(authorize)
        check(wait_until(driver, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Sign in"),
              "the browser shows the sign-in page for the pushed request")
        screenshots(driver, artifacts, "first-party-redirect-to-web", sizes=(("phone", (390, 844)),))
        driver.find_element(By.ID, "username").send_keys(DEMO_USER)
        driver.find_element(By.ID, "password").send_keys(DEMO_PASSWORD)
        driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        check(wait_until(driver, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Allow access?"),
              "prompt=consent shows the consent page, even for a first-party app")
        driver.get_log("performance")
        driver.find_element(By.CSS_SELECTOR, "button[value=allow]").click()
        redirect = caught_redirect(driver, PARTNER_REDIRECT + "?")
        check(redirect is not None, "the browser was sent to the app's redirect_uri (caught, not loaded)")
        final = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(redirect).query))
        check(final.get("state") == state and bool(final.get("code")), "redirect_uri?code=…&state=…")
        tokens = token(base, {"grant_type": "authorization_code", "code": final["code"], "client_id": "partner-app",
                              "redirect_uri": PARTNER_REDIRECT, "code_verifier": verifier})
        check(bool(tokens.get("access_token")) and bool(tokens.get("id_token")),
              "the code is redeemed with the native request's PKCE verifier")
        driver.get(authorize)
        check(wait_until(driver, lambda d: "invalid_request_uri" in d.page_source or "used" in d.page_source),
              "the same request_uri a second time is refused")


if __name__ == "__main__":
    main_with(run, "e2e: first-party redirect_to_web passed", __doc__.splitlines()[0])
