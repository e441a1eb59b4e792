#!/usr/bin/env python3
"""Simple Login (requested_flow=app_to_app_v2) without the host's app, end to end, in headless Chromium.

The merchant app opens the authorize URL with requested_flow=app_to_app_v2 in its browser tab; the page parks the
request and offers the deep link into the host's app. No app claims the link here, so the browser opens it: the
universal link's page leads to the sign-in form of the same parked request (the deep link page is bound to the browser
that parked it), then the consent page, and the browser is sent to the merchant's https redirect_uri with code, state
and iss (caught from Chromium's network log). The code is redeemed with the PKCE verifier; the ID token carries the
nonce. (The approval in the host's app is scripts/test/simple_login_client.py.)

Starts signin-bridge itself on a free loopback port with the sample config. Saves phone (390x844) and tablet
(1024x1366) screenshots of the parked, sign-in and consent pages. Exits 0 on success, 1 on a failed check.
"""
import base64
import json
import secrets
import sys
import urllib.parse
from pathlib import Path

from selenium.webdriver.common.by import By

sys.path.insert(0, str(Path(__file__).resolve().parent))
from app_to_app_flow import caught_redirect, parked_reference, pkce, token  # noqa: E402
from office_flow import DEMO_PASSWORD, DEMO_USER, PHONE, check, main_with, screenshots, serving, wait_until  # noqa: E402

MERCHANT_REDIRECT = "https://merchant.example.com/app/callback"


def run(binary, artifacts: Path):
    with serving(binary, prefix="signin-bridge-e2e-simple-") as (base, _, driver):
        state, nonce = secrets.token_urlsafe(16), secrets.token_urlsafe(16)
        verifier, challenge = pkce()
        driver.get(base + "/oauth2/authorize?" + urllib.parse.urlencode({
            "client_id": "merchant-app", "redirect_uri": MERCHANT_REDIRECT, "response_type": "code",
            "scope": "openid profile", "state": state, "nonce": nonce, "code_challenge": challenge,
            "code_challenge_method": "S256", "requested_flow": "app_to_app_v2"}))
        parked_reference(driver, base)
        check("takes you straight back to Example Merchant" in driver.page_source,
              "the parked page says the app returns the user straight to the merchant")
        check(driver.execute_script("return document.documentElement.scrollWidth") <= PHONE[0],
              "the parked page fits a 390 px phone")
        screenshots(driver, artifacts, "simple-login-parked")

        # No app takes the universal link: the browser opens it and lands on the parked request's sign-in form.
        driver.find_element(By.ID, "open-app").click()
        check(wait_until(driver, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Sign in"),
              "the deep link opened in the browser shows the sign-in page")
        check(not driver.find_elements(By.ID, "open-app"), "without offering the app again")
        screenshots(driver, artifacts, "simple-login-web-signin")
        driver.find_element(By.ID, "username").send_keys(DEMO_USER)
        driver.find_element(By.ID, "password").send_keys(DEMO_PASSWORD)
        driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        check(wait_until(driver, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Allow access?"),
              "after sign-in the consent page is shown (the merchant is a third party)")
        check("Example Merchant" in driver.find_element(By.CSS_SELECTOR, ".lead").text, "naming the merchant")
        screenshots(driver, artifacts, "simple-login-web-consent")

        driver.get_log("performance")
        driver.find_element(By.CSS_SELECTOR, "button[value=allow]").click()
        redirect = caught_redirect(driver, MERCHANT_REDIRECT + "?")
        check(redirect is not None, "the browser was sent to the merchant's https redirect_uri")
        final = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(redirect).query))
        check(final.get("state") == state and bool(final.get("code")) and final.get("iss") == base,
              "redirect_uri?code=…&state=…&iss=… (RFC 9207 section 2)")
        tokens = token(base, {"grant_type": "authorization_code", "code": final["code"], "client_id": "merchant-app",
                              "redirect_uri": MERCHANT_REDIRECT, "code_verifier": verifier})
        payload = json.loads(base64.urlsafe_b64decode(tokens["id_token"].split(".")[1] + "=="))
        check(payload.get("nonce") == nonce and payload.get("aud") == "merchant-app" and payload.get("sub") == "demo",
              "the merchant's ID token names the demo user, its audience and its nonce")


if __name__ == "__main__":
    main_with(run, "e2e: Simple Login web fallback passed", __doc__.splitlines()[0])
