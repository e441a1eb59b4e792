#!/usr/bin/env python3
"""Office app-to-app sign-in, end to end, in headless Chromium.

Walks the flow as Office does (Microsoft's Office app-to-app docs): the bootstrapper's 401 challenge gives authorization_uri and
tokenIssuance_uri; the authorize URL carries rs/build/platform; the person signs in and consents in a WebView-sized
browser; the final redirect to https://localhost?code=...&tk=...&sc=... is caught, never loaded (the URL is blocked
and read from Chromium's network log); the code is redeemed at the token endpoint (tk when present) with the
X-WOPI-SessionContext header; the token opens the bootstrapper (200 JSON).

Starts signin-bridge itself on a free loopback port with a temporary SQLite file and config. Saves phone (390x844)
and tablet (1024x1366) screenshots of the sign-in and consent pages. Exits 0 on success, 1 on a failed check.
"""
import argparse
import contextlib
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

ROOT = Path(__file__).resolve().parents[2]
PHONE = (390, 844)
TABLET = (1024, 1366)
DEMO_USER = "demo@example.com"
DEMO_PASSWORD = "demo-password"
OFFICE_SECRET = "office-demo-secret"


class CheckFailed(Exception):
    pass


def wait_until(driver, condition, timeout=30):
    """True once condition(driver) holds. A form post answers only after bcrypt, which takes long on a loaded
    machine: reading the page right after click() can still see the old page."""
    def probe(d):
        try:
            return condition(d)
        except Exception:  # the old page went away mid-read (stale element): try again
            return False
    try:
        WebDriverWait(driver, timeout, poll_frequency=0.1).until(probe)
        return True
    except Exception:
        return False


def check(condition, message):
    if not condition:
        raise CheckFailed(message)
    print(f"ok   {message}")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def write_config(directory: Path, port: int) -> Path:
    """The sample config on a free port, with data in `directory` and a tk override so tk is on the redirect."""
    text = (ROOT / "samples" / "bridge.yaml").read_text()
    text = text.replace("  port: 8080", f"  port: {port}")  # the issuer, derived from listen, follows
    text = text.replace("path: data/bridge.sqlite", f"path: {directory}/bridge.sqlite")
    text = text.replace("file: data/signing-keys.json", f"file: {directory}/signing-keys.json")
    text = re.sub(r"#\s*tokenEndpointOverride: \S+", f"tokenEndpointOverride: http://127.0.0.1:{port}/oauth2/token", text)
    text = text.replace("requests: true", "requests: false")
    path = directory / "bridge.yaml"
    path.write_text(text)
    return path


def http(method, url, headers=None, body=None):
    request = urllib.request.Request(url, method=method, headers=headers or {}, data=body)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read().decode()


def wait_until_serving(base, process):
    for _ in range(200):
        if process.poll() is not None:
            raise CheckFailed(f"signin-bridge exited with {process.returncode}")
        try:
            status, _, _ = http("GET", base + "/auth/health")
            if status == 200:
                return
        except OSError:
            pass
        time.sleep(0.05)
    raise CheckFailed("signin-bridge did not answer /auth/health within 10 s")


def challenge_parameters(header):
    """Bearer auth-params (RFC 9110 section 11): name="value" pairs, separators ',' or ', '."""
    check(header.startswith("Bearer "), "the challenge uses the Bearer scheme")
    return dict(re.findall(r'([A-Za-z_]+)="([^"]*)"', header))


def make_driver():
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--no-first-run", "--disable-extensions", "--lang=en-US"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    driver.execute_cdp_cmd("Network.enable", {})
    # The stop URL is never loaded: Office watches for it and takes the code from the URL (Microsoft's app-to-app docs).
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["https://localhost*"]})
    return driver


def emulate(driver, size):
    width, height = size
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 900})


def screenshots(driver, artifacts: Path, name, sizes=(("phone", PHONE), ("tablet", TABLET))):
    for label, size in sizes:
        emulate(driver, size)  # the page lays itself out again; no reload needed
        time.sleep(0.3)
        path = artifacts / f"{name}-{label}-{size[0]}x{size[1]}.png"
        driver.save_screenshot(str(path))
        print(f"     screenshot {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
    emulate(driver, PHONE)


def stop_url_from_log(driver):
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            url = message["params"]["request"]["url"]
            if url.startswith("https://localhost"):
                return url
    return None


@contextlib.contextmanager
def serving(binary, prefix="signin-bridge-e2e-"):
    """signin-bridge on a free loopback port with the sample config and a temporary SQLite file, and a Chromium
    driver; yields (base URL, port, driver). On a failed check the server log's tail goes to stderr; the browser and
    the server stop in any case."""
    directory = Path(tempfile.mkdtemp(prefix=prefix))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    config = write_config(directory, port)
    log = open(directory / "server.log", "w")
    server = subprocess.Popen([binary, "serve", "--config", str(config)], stdout=log, stderr=subprocess.STDOUT)
    driver = None
    try:
        wait_until_serving(base, server)
        print(f"     signin-bridge serving on {base} (data in {directory})")
        driver = make_driver()
        emulate(driver, PHONE)
        yield base, port, driver
    except CheckFailed:
        log.flush()
        print((directory / "server.log").read_text()[-4000:], file=sys.stderr)
        raise
    finally:
        if driver is not None:
            driver.quit()
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


def main_with(run, passed, description):
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--binary", required=True, help="the signin-bridge executable")
    parser.add_argument("--artifacts", default="artifacts/e2e", help="where screenshots go")
    args = parser.parse_args()
    artifacts = Path(args.artifacts).resolve()
    artifacts.mkdir(parents=True, exist_ok=True)
    try:
        run(os.path.abspath(args.binary), artifacts)
    except CheckFailed as failure:
        print(f"FAIL {failure}", file=sys.stderr)
        sys.exit(1)
    print(passed)


def run(binary, artifacts: Path):
    with serving(binary) as (base, _, driver):
        # 1. Bootstrap without a token: 401 and the challenge.
        status, headers, _ = http("GET", base + "/wopibootstrapper")
        check(status == 401, "GET /wopibootstrapper without a token answers 401")
        bearer = [v for v in headers.get_all("WWW-Authenticate") or [] if v.startswith("Bearer")]
        check(len(bearer) == 1, "exactly one Bearer challenge")
        challenge = challenge_parameters(bearer[0])
        authorization_uri = challenge["authorization_uri"]
        check(authorization_uri == base + "/oauth2/authorize", f"authorization_uri is {authorization_uri}")

        # 2a. The page language follows Office's rs (here Norwegian Bokmal, as for Vipps).
        driver.get(f"{authorization_uri}?client_id=office&response_type=code&rs=nb-NO&build=16.0&platform=android")
        check(driver.find_element(By.TAG_NAME, "h1").text == "Logg inn", "rs=nb-NO gives the Norwegian page")
        screenshots(driver, artifacts, "signin-nb", sizes=(("phone", PHONE),))

        # 2. Authorize as Office does: rs/build/platform, state, redirect to the stop URL.
        state = secrets.token_urlsafe(16)
        query = urllib.parse.urlencode({
            "client_id": "office", "redirect_uri": "https://localhost", "response_type": "code", "scope": "wopi",
            "state": state, "rs": "en-US", "build": "16.0.17328.20000", "platform": "iOS"})
        driver.get(f"{authorization_uri}?{query}")
        check(driver.find_element(By.TAG_NAME, "h1").text == "Sign in", "the sign-in page is shown")
        check(driver.execute_script("return document.documentElement.scrollWidth") <= PHONE[0],
              "the sign-in page fits a 390 px phone without horizontal scrolling")
        check(driver.find_element(By.LINK_TEXT, "Privacy statement").is_displayed(), "a privacy statement is linked")
        screenshots(driver, artifacts, "signin")

        # 3. Sign in: first with a wrong password (the error must be visible on a phone), then right.
        driver.find_element(By.ID, "username").send_keys(DEMO_USER)
        driver.find_element(By.ID, "password").send_keys("not the password")
        driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        check(wait_until(driver, lambda d: d.find_element(By.CSS_SELECTOR, ".error").is_displayed()),
              "a wrong password is reported on the page")
        check(driver.find_element(By.ID, "username").get_attribute("value") == DEMO_USER, "the user name is kept")
        screenshots(driver, artifacts, "signin-error", sizes=(("phone", PHONE),))
        driver.find_element(By.ID, "username").clear()
        driver.find_element(By.ID, "username").send_keys(DEMO_USER)
        driver.find_element(By.ID, "password").send_keys(DEMO_PASSWORD)
        driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        check(wait_until(driver, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Allow access?"),
              "the consent page follows the sign-in")
        check(driver.execute_script("return document.documentElement.scrollWidth") <= PHONE[0],
              "the consent page fits a 390 px phone")
        screenshots(driver, artifacts, "consent")
        driver.get_log("performance")  # forget what came before

        # 4. Consent; catch the redirect to the stop URL without loading it.
        driver.find_element(By.CSS_SELECTOR, "button[value=allow]").click()
        stop_url = None
        for _ in range(50):
            stop_url = stop_url_from_log(driver)
            if stop_url:
                break
            time.sleep(0.1)
        check(stop_url is not None, "the browser was sent to https://localhost (caught, not loaded)")
        parameters = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(stop_url).query))
        check(parameters.get("state") == state, "state is echoed")
        check(bool(parameters.get("code")), "the redirect carries a code")
        check(parameters.get("tk") == base + "/oauth2/token", "tk carries the per-client token endpoint")
        check(bool(parameters.get("sc")), "sc carries a session context")
        print(f"     stop URL {stop_url.split('code=')[0]}code=…")

        # 5. Token request, as the Office Identity Service makes it (form POST, server side).
        status, _, body = http("GET", base + "/.well-known/oauth-authorization-server")
        metadata = json.loads(body)
        check(metadata.get("token_endpoint") == base + "/oauth2/token", "the metadata lists the token endpoint")
        token_url = parameters.get("tk") or challenge["tokenIssuance_uri"]
        form = urllib.parse.urlencode({
            "client_id": "office", "client_secret": OFFICE_SECRET, "code": parameters["code"],
            "grant_type": "authorization_code", "redirect_uri": "https://localhost"}).encode()
        status, headers, body = http("POST", token_url, {
            "Content-Type": "application/x-www-form-urlencoded", "X-WOPI-SessionContext": parameters["sc"]}, form)
        # The body holds tokens: shown only when it is an error.
        check(status == 200, "the token endpoint answers 200" + ("" if status == 200 else f" (got {status}: {body[:300]})"))
        tokens = json.loads(body)
        check(tokens.get("token_type", "").lower() == "bearer" and tokens.get("access_token"), "a bearer access token")
        check(isinstance(tokens.get("expires_in"), int), "expires_in is a number")

        # 6. Bootstrap with the token.
        status, headers, body = http("GET", base + "/wopibootstrapper", {
            "Authorization": "Bearer " + tokens["access_token"], "X-WOPI-SessionContext": parameters["sc"]})
        check(status == 200, f"GET /wopibootstrapper with the token answers 200 (got {status})")
        bootstrap = json.loads(body)["Bootstrap"]
        check(bootstrap.get("SignInName") == DEMO_USER, "the bootstrap names the signed-in user")


if __name__ == "__main__":
    main_with(run, "e2e: Office flow passed", __doc__.splitlines()[0])
