#!/usr/bin/env python3
"""PostgreSQL stopped under load, then started again, with `signin-bridge serve` left running throughout.
While the database is down, every step that needs it answers 503 with Retry-After (the token endpoint with
`temporarily_unavailable`, RFC 6749 §5.2), within the pool's connect timeout and never 500 or a hang, and
/auth/health says 503. Once the database is back, the same server answers 200 again, and a refresh token whose
refresh failed with 503 during the outage still works (nothing was consumed).
Needs the cluster of scripts/test/postgres.sh (its state file names the data folder). Ends with "N passed, N failed".
"""
import argparse
import glob
import os
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from flows.bridge import Browser, Server, basic, bootstrap, free_port, redeem, refresh, request, write_config  # noqa: E402
from flows.tally import check, tally  # noqa: E402
from multi_instance import fresh_database  # noqa: E402


def pg_ctl(action, directory, port):
    binary = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))[-1]
    command = [binary, "-D", f"{directory}/data", "-l", f"{directory}/server.log", "-w", "-t", "30"]
    if action == "start":
        command += ["-o", f"-p {port} -k {directory} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"]
    else:
        command += ["-m", "fast"]
    if os.getuid() == 0:
        command = ["runuser", "-u", "postgres", "--"] + command
    subprocess.run(command + [action], check=True, stdout=subprocess.DEVNULL)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--state", default=str(Path(__file__).resolve().parents[2] / ".build/postgres-test.env"))
    arguments = parser.parse_args()
    state = dict(line.split("=", 1) for line in Path(arguments.state).read_text().split() if "=" in line)
    base, directory = state["SIGNIN_BRIDGE_TEST_POSTGRES_URL"], state["POSTGRES_TEST_DIR"]
    pg_port = urllib.parse.urlsplit(base).port
    url = fresh_database(base)
    work = Path(tempfile.mkdtemp(prefix="signin-bridge-outage-"))
    port = free_port()
    server = Server(arguments.binary, write_config(work, port), port, work / "server.log",
                    env=dict(os.environ, SIGNIN_BRIDGE_STORE_URL=url)).start()
    try:
        browser = Browser(port)
        _, tokens = redeem(port, browser.authorize()["code"])
        access, refresh_token = tokens["access_token"], tokens["refresh_token"]

        statuses, slowest, stop = [], [0.0], threading.Event()

        def load():
            while not stop.is_set():
                started = time.monotonic()
                try:
                    statuses.append(bootstrap(port, access))
                except OSError:
                    statuses.append("connection error")
                slowest[0] = max(slowest[0], time.monotonic() - started)

        threads = [threading.Thread(target=load) for _ in range(4)]
        for thread in threads:
            thread.start()
        time.sleep(0.5)
        pg_ctl("stop", directory, pg_port)
        time.sleep(0.5)
        began = time.monotonic()
        status, headers, _ = request("127.0.0.1", port, "POST", "/oauth2/token",
                                     urllib.parse.urlencode({"grant_type": "refresh_token", "refresh_token": refresh_token}),
                                     {"Content-Type": "application/x-www-form-urlencoded",
                                      "Authorization": basic()}, timeout=30)
        check(status == 503 and "retry-after" in headers, f"a refresh during the outage: 503 with Retry-After (got {status})")
        check(time.monotonic() - began < 10, "… within the pool's timeout, not a hang")
        health, _, _ = request("127.0.0.1", port, "GET", "/auth/health", timeout=30)
        check(health == 503, f"/auth/health says 503 while the database is down (got {health})")
        page, headers, _ = browser.call("GET", "/oauth2/authorize?client_id=office&redirect_uri=https%3A%2F%2Flocalhost"
                                               "&response_type=code&scope=wopi&state=s")
        check(page == 503 and "retry-after" in headers, f"the authorize page during the outage: 503 (got {page})")
        time.sleep(2)
        pg_ctl("start", directory, pg_port)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and bootstrap(port, access) != 200:
            time.sleep(0.2)
        stop.set()
        for thread in threads:
            thread.join()
        check(bootstrap(port, access) == 200, "the bootstrapper answers 200 again without a restart")
        check(request("127.0.0.1", port, "GET", "/auth/health")[0] == 200, "/auth/health says 200 again")
        status, _ = refresh(port, refresh_token)
        check(status == 200, "the refresh token refused with 503 during the outage still works")
        unexpected = sorted({s for s in statuses if s not in (200, 503)}, key=str)
        check(not unexpected, f"under load only 200 and 503 were answered ({len(statuses)} requests; other: {unexpected})")
        check(slowest[0] < 10, f"no request under load hung (slowest {slowest[0]:.1f} s)")
    finally:
        server.stop()
    return tally.summary()


if __name__ == "__main__":
    sys.exit(main())
