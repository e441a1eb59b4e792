#!/usr/bin/env python3
"""kill -9 under token traffic, then restart: nothing answered is lost and nothing single-use is used twice.

Starts `signin-bridge serve` (SQLite in a temporary folder, or the PostgreSQL database named by
SIGNIN_BRIDGE_STORE_URL), signs the demo user in once, then runs in threads until the end:
- refresh chains: redeem a code, then refresh again and again with the newest refresh token;
- redemptions: a new code (the signed-in browser's authorize answers at once), redeemed twice.
Meanwhile the server is killed with SIGKILL --kills times at random moments and started again. A request whose answer
was lost in a kill leaves its token's fate unknown (RFC 9700 §4.14.2 then calls a retry a replay), so that chain is
dropped and a new one started. At the end:
- every refresh token answered with a 200 and held across a kill works after the restart;
- the newest refresh token of every chain that was answered with a 200 works exactly once (200, then 400);
- no code was redeemed twice (at most one 200 per code, however often it was presented across kills).
Prints the counts and ends with the line "N passed, N failed"; exits 1 on any failure.
"""
import argparse
import os
import random
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from flows.bridge import Browser, Server, free_port, redeem, refresh, write_config  # noqa: E402


class Traffic:
    def __init__(self, port):
        self.port = port
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.answered_refreshes = 0
        self.lost_answers = 0
        self.final_tokens = []          # newest 200-answered refresh token of each chain, never presented since
        self.code_successes = {}        # code -> number of 200 answers
        self.browser = Browser(port)
        self.failures = []
        self.epoch = 0                  # restarts so far
        self.survived = 0               # tokens answered before a kill and refreshed after it

    def new_code(self):
        while not self.stop.is_set():
            try:
                with self.lock:
                    return self.browser.authorize()["code"]
            except Exception:
                time.sleep(0.1)
        return None

    def chain(self):
        while not self.stop.is_set():
            code = self.new_code()
            if code is None:
                return
            try:
                status, body = redeem(self.port, code)
            except OSError:
                continue
            if status != 200:
                continue
            token, received = body["refresh_token"], self.epoch
            while True:
                if self.stop.is_set():
                    with self.lock:
                        self.final_tokens.append(token)
                    return
                # Holding the token a little lets kills land between answers, not only during requests.
                time.sleep(random.uniform(0, 0.05))
                try:
                    status, body = refresh(self.port, token)
                except ConnectionRefusedError:
                    time.sleep(0.05)    # the server is down: the request never left, the token is still live
                    continue
                except OSError:
                    with self.lock:
                        self.lost_answers += 1
                    break               # fate unknown: start a new chain
                if status != 200:
                    with self.lock:
                        self.failures.append(f"refresh of a 200-answered token got {status} {body}")
                    break
                with self.lock:
                    self.answered_refreshes += 1
                    if self.epoch > received:
                        self.survived += 1
                token, received = body["refresh_token"], self.epoch

    def redemptions(self):
        while not self.stop.is_set():
            code = self.new_code()
            if code is None:
                return
            for _ in range(2):
                for _ in range(50):     # retry across a restart: the same code, presented again
                    try:
                        status, _ = redeem(self.port, code)
                        break
                    except OSError:
                        time.sleep(0.1)
                else:
                    continue
                with self.lock:
                    self.code_successes[code] = self.code_successes.get(code, 0) + (status == 200)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--kills", type=int, default=10)
    parser.add_argument("--chains", type=int, default=6)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--postgres", action="store_true",
                        help="a new database on the cluster of SIGNIN_BRIDGE_TEST_POSTGRES_URL instead of SQLite")
    arguments = parser.parse_args()
    environment = None
    if arguments.postgres:
        from multi_instance import fresh_database
        environment = dict(os.environ, SIGNIN_BRIDGE_STORE_URL=fresh_database(os.environ["SIGNIN_BRIDGE_TEST_POSTGRES_URL"]))
    randomness = random.Random(arguments.seed)
    directory = Path(tempfile.mkdtemp(prefix="signin-bridge-crash-"))
    port = free_port()
    server = Server(arguments.binary, write_config(directory, port), port, directory / "server.log",
                    env=environment).start()
    traffic = Traffic(port)
    traffic.new_code()  # signs in and consents once
    threads = [threading.Thread(target=traffic.chain) for _ in range(arguments.chains)]
    threads += [threading.Thread(target=traffic.redemptions) for _ in range(2)]
    for thread in threads:
        thread.start()
    failures = traffic.failures
    try:
        for kill in range(arguments.kills):
            time.sleep(randomness.uniform(0.4, 1.2))
            server.kill()
            server.start()
            traffic.epoch += 1
        time.sleep(1.0)
    except Exception as error:
        failures.append(f"restart: {error}")
    traffic.stop.set()
    for thread in threads:
        thread.join(timeout=60)

    worked = 0
    for token in traffic.final_tokens:
        first, _ = refresh(port, token)
        second, body = refresh(port, token)
        if first != 200 or second != 400 or body.get("error") != "invalid_grant":
            failures.append(f"a 200-answered refresh token gave {first} then {second} {body}")
        else:
            worked += 1
    doubles = [code for code, count in traffic.code_successes.items() if count > 1]
    if doubles:
        failures.append(f"{len(doubles)} codes were redeemed twice")
    server.stop()
    print(f"crash recovery ({'PostgreSQL' if arguments.postgres else 'SQLite'}): {arguments.kills} kills; {traffic.answered_refreshes} refreshes answered; "
          f"{traffic.lost_answers} answers lost in kills; {traffic.survived} refresh tokens answered before a kill "
          f"worked after it; {worked}/{len(traffic.final_tokens)} final refresh tokens "
          f"worked exactly once; {len(traffic.code_successes)} codes presented twice, {len(doubles)} redeemed twice")
    for failure in failures:
        print("FAIL", failure)
    checks = 2 + len(traffic.final_tokens)
    print(f"{checks - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
