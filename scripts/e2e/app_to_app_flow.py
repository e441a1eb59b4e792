#!/usr/bin/env python3
"""App-to-app login with SignInBridge as the provider, end to end, in headless Chromium.

The Vipps/MobilePay "integrate from a mobile app" flow with our host's app in the provider's seat: the merchant app
opens the authorize URL with requested_flow=app_to_app in its browser tab; the page parks the request and offers a
deep link into the host's app; the host's app (here: HTTP calls with its own first-party access token) approves and
gets app_callback_uri?state=…&resume_uri=…; the merchant opens resume_uri in the same browser tab, which shows the
consent page and ends in redirect_uri?code=…&state=…&scope=… (caught from Chromium's network log, never loaded).
The code is redeemed with the PKCE verifier; the ID token carries the nonce. Then the failure pages: the same
resume_uri twice, and a resume_uri in another browser (no cookies).

Starts signin-bridge itself on a free loopback port with the sample config. Saves phone (390x844) screenshots of
the parked, consent and failure pages, and a tablet one of the parked page. Exits 0 on success, 1 on a failed check.
"""
import base64
import hashlib
import json
import secrets
import sys
import time
import urllib.parse
from pathlib import Path

from selenium.webdriver.common.by import By

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "test"))
from office_flow import PHONE, check, http, main_with, screenshots, serving, wait_until  # noqa: E402
from flows.bridge import Browser  # noqa: E402

MERCHANT_REDIRECT = "com.example.merchant:/oauth2redirect"
MERCHANT_CALLBACK = "com.example.merchant:/app-callback"
HOST_REDIRECT = "com.example.partner:/oauth2redirect"


def pkce():
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    return verifier, challenge


def token(base, form):
    status, _, body = http("POST", base + "/oauth2/token", {"Content-Type": "application/x-www-form-urlencoded"},
                           urllib.parse.urlencode(form).encode())
    check(status == 200, "the token endpoint answers 200" + ("" if status == 200 else f" (got {status}: {body[:300]})"))
    return json.loads(body)


def host_app_token(base, port):
    """The host's own app signs the demo user in (first-party partner-app, code + PKCE) and keeps its token."""
    verifier, challenge = pkce()
    browser = Browser(port)
    parameters = browser.authorize(client_id="partner-app", redirect_uri=HOST_REDIRECT, challenge=challenge)
    tokens = token(base, {"grant_type": "authorization_code", "code": parameters["code"], "client_id": "partner-app",
                          "redirect_uri": HOST_REDIRECT, "code_verifier": verifier})
    return tokens["access_token"]


def approve(base, access_token, reference, decision="approve"):
    status, _, body = http("POST", base + "/oauth2/app-to-app/decision", {
        "Authorization": "Bearer " + access_token, "Content-Type": "application/x-www-form-urlencoded"},
        urllib.parse.urlencode({"reference": reference, "decision": decision}).encode())
    check(status == 200, f"the host app's {decision} is answered 200" + ("" if status == 200 else f" ({body[:200]})"))
    url = json.loads(body)["app_callback_url"]
    return url, dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query))


def redirect_from_log(driver, prefix):
    """The first URL starting with `prefix` that appears anywhere in Chromium's network log (a Location header)."""
    for entry in driver.get_log("performance"):
        text = entry["message"]
        index = text.find(prefix)
        if index >= 0:
            return json.loads('"' + text[index:].split('"')[0] + '"')
    return None


def caught_redirect(driver, prefix):
    """`redirect_from_log`, waiting up to 5 s for the redirect to appear."""
    for _ in range(50):
        redirect = redirect_from_log(driver, prefix)
        if redirect:
            return redirect
        time.sleep(0.1)
    return None


def merchant_authorize_url(base, state, nonce, challenge):
    return base + "/oauth2/authorize?" + urllib.parse.urlencode({
        "client_id": "merchant-app", "redirect_uri": MERCHANT_REDIRECT, "response_type": "code",
        "scope": "openid profile email", "state": state, "nonce": nonce, "code_challenge": challenge,
        "code_challenge_method": "S256", "requested_flow": "app_to_app", "app_callback_uri": MERCHANT_CALLBACK})


def parked_reference(driver, base):
    check(wait_until(driver, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Continue in the app"),
          "the merchant's browser shows the parked page")
    link = driver.find_element(By.ID, "open-app").get_attribute("href")
    check(link.startswith(base + "/app-to-app?reference="), f"the deep link leads into the host's app ({link[:60]}…)")
    check(driver.find_element(By.ID, "password").is_displayed(), "the page also offers the plain sign-in")
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(link).query))["reference"]


def run(binary, artifacts: Path):
    with serving(binary, prefix="signin-bridge-e2e-a2a-") as (base, port, driver):
        host_token = host_app_token(base, port)
        check(bool(host_token), "the host app holds its own first-party access token")

        # 1. The merchant app opens the authorize URL in its browser tab: parked, with the deep link.
        state, nonce = secrets.token_urlsafe(16), secrets.token_urlsafe(16)
        verifier, challenge = pkce()
        driver.get(merchant_authorize_url(base, state, nonce, challenge))
        reference = parked_reference(driver, base)
        check(driver.execute_script("return document.documentElement.scrollWidth") <= PHONE[0],
              "the parked page fits a 390 px phone")
        screenshots(driver, artifacts, "app-to-app-parked")

        # 2. The host app reads who asks, then approves through the API and gets the merchant's callback URL.
        status, _, body = http("GET", base + "/oauth2/app-to-app/request?" + urllib.parse.urlencode(
            {"reference": reference}), {"Authorization": "Bearer " + host_token})
        details = json.loads(body) if status == 200 else {}
        check(details.get("client_name") == "Example Merchant" and details.get("scope") == "openid profile email",
              "the host app reads who asks and for what")
        callback, parameters = approve(base, host_token, reference)
        check(callback.startswith(MERCHANT_CALLBACK + "?"), "the answer is the merchant's app_callback_uri")
        check(parameters.get("state") == state, "the callback carries the request's state")
        resume_uri = parameters.get("resume_uri", "")
        check(resume_uri.startswith(base + "/oauth2/app-to-app/resume?token="), "and a resume_uri on this server")

        # 3. The merchant opens resume_uri in the same browser tab: consent, then the redirect with the code.
        driver.get(resume_uri)
        check(wait_until(driver, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Allow access?"),
              "resuming in the same browser shows the consent page")
        check("Example Merchant" in driver.find_element(By.CSS_SELECTOR, ".lead").text, "naming the merchant")
        screenshots(driver, artifacts, "app-to-app-consent", sizes=(("phone", PHONE),))
        driver.get_log("performance")
        driver.find_element(By.CSS_SELECTOR, "button[value=allow]").click()
        redirect = caught_redirect(driver, MERCHANT_REDIRECT + "?")
        check(redirect is not None, "the browser was sent to the merchant's redirect_uri (caught, not loaded)")
        final = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(redirect).query))
        check(final.get("state") == state and bool(final.get("code")), "redirect_uri?code=…&state=…")
        check(final.get("scope") == "openid profile email", "and scope=… as the Vipps pages show it")
        tokens = token(base, {"grant_type": "authorization_code", "code": final["code"], "client_id": "merchant-app",
                              "redirect_uri": MERCHANT_REDIRECT, "code_verifier": verifier})
        payload = json.loads(base64.urlsafe_b64decode(tokens["id_token"].split(".")[1] + "=="))
        check(payload.get("nonce") == nonce and payload.get("aud") == "merchant-app" and payload.get("sub") == "demo",
              "the merchant's ID token names the demo user, its audience and its nonce")

        # 4. The same resume_uri again: a clear page.
        driver.get(resume_uri)
        check(wait_until(driver, lambda d: "already used" in d.find_element(By.CSS_SELECTOR, ".lead").text),
              "the resume_uri a second time shows 'already used'")
        screenshots(driver, artifacts, "app-to-app-resume-used", sizes=(("phone", PHONE),))

        # 5. A resume_uri opened in another browser (no cookies of the parked request): a clear page. The tab is
        #    signed in by now, so a fresh request parks only after its cookies are gone.
        driver.delete_all_cookies()
        driver.get(merchant_authorize_url(base, state, nonce, challenge))
        _, parameters = approve(base, host_token, parked_reference(driver, base))
        driver.delete_all_cookies()
        driver.get(parameters["resume_uri"])
        check(wait_until(driver, lambda d: "another browser" in d.find_element(By.CSS_SELECTOR, ".lead").text),
              "the resume_uri in another browser says so")
        screenshots(driver, artifacts, "app-to-app-other-browser", sizes=(("phone", PHONE),))


if __name__ == "__main__":
    main_with(run, "e2e: app-to-app flow passed", __doc__.splitlines()[0])
