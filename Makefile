# SignInBridge: one entry point for people and CI.
#   make run    install what is missing, build release, start the server on the sample config
#   make test   install what is missing, run every test (PostgreSQL on a throwaway cluster), every command shown in
#               README.md and docs/ (scripts/test/docs_commands.py), the conformance suite against its fixture host,
#               our own server and django-oauth-toolkit (about 15 s a run), schemathesis against
#               schemas/openapi.yaml, then the browser end-to-end test (make e2e)
#   make bench  the instruction-count regression check (make bench-check), then every benchmark into BENCHMARKS.md
SWIFT ?= swift
CONFIG ?= samples/bridge.yaml
PORT ?= 8080
BIN = .build/release/signin-bridge

.PHONY: deps test-deps run build release test e2e bench bench-check clean fuzz-smoke

deps:
	@bash scripts/install-deps.sh run

test-deps:
	@bash scripts/install-deps.sh test
	@bash scripts/test/python-venv.sh

build: deps
	$(SWIFT) build

release: deps
	SWIFT=$(SWIFT) bash scripts/release/build.sh

# The PostgreSQL store's tests, and two instances over one database (multi_instance.py, outage.py), run against
# throwaway clusters that the script starts and always stops.
# Suites that start child processes run on their own, one test at a time: swift-corelibs-foundation's Process.run
# crashes (a try! on EINTR, a memcpy) when another child's exit signal lands during a launch, which the parallel
# run made likely on 2 busy cores.
CHILD_PROCESS_SUITES = SignInBridgeCLITests|FetchCommandTests|AndroidManifestStructureTests
# The checkpoint test bounds how far SQLite's write-ahead log grows while eight writers race its checkpointer: beside
# the parallel run on 2 busy cores the checkpointer starves (28 MB once, 2.3 to 3.2 MB alone), so it runs alone too.
# DeadlineTests keeps every thread of the cooperative pool busy on purpose, so it runs alone as well.
SERIAL_SUITES = $(CHILD_PROCESS_SUITES)|SQLiteCheckpointTests|DeadlineTests

# docs_commands.py runs every sh and console block of README.md and docs/*.md, so no documented command rots (about a
# minute, most of it the conformance run it includes); docs_commands_test.py first shows it fails what it must.
test: test-deps
	bash scripts/test/postgres.sh run $(SWIFT) test --skip '$(SERIAL_SUITES)'
	bash scripts/test/postgres.sh run $(SWIFT) test --skip-build --no-parallel --filter '$(SERIAL_SUITES)'
	bash scripts/test/postgres.sh run sh -c '.build/venv-test/bin/python scripts/test/multi_instance.py --binary "$$0" && \
		python3 scripts/test/outage.py --binary "$$0" --state "$$SIGNIN_BRIDGE_POSTGRES_STATE" && \
		python3 scripts/test/crash_recovery.py --binary "$$0" --postgres && \
		python3 scripts/test/key_rotation.py --binary "$$0"' \
		"$$($(SWIFT) build --show-bin-path)/signin-bridge"
	python3 scripts/test/crash_recovery.py --binary "$$($(SWIFT) build --show-bin-path)/signin-bridge"
	.build/venv-test/bin/python scripts/test/hostile.py --binary "$$($(SWIFT) build --show-bin-path)/signin-bridge"
	python3 scripts/test/bench_thresholds.py
	python3 scripts/test/exchange_flow.py --binary "$$($(SWIFT) build --show-bin-path)/signin-bridge"
	python3 scripts/test/upstream_broker.py --binary "$$($(SWIFT) build --show-bin-path)/signin-bridge"
	bash scripts/test/lint-cli.sh
	python3 scripts/test/docs_commands_test.py --binary "$$($(SWIFT) build --show-bin-path)/signin-bridge"
	python3 scripts/test/docs_commands.py --binary "$$($(SWIFT) build --show-bin-path)/signin-bridge"
	.build/venv-test/bin/python scripts/test/conform/fixture_test.py --binary "$$($(SWIFT) build --show-bin-path)/signin-bridge"
	.build/venv-test/bin/python scripts/test/conform/serve_test.py --binary "$$($(SWIFT) build --show-bin-path)/signin-bridge"
	.build/venv-test/bin/python scripts/test/conform/third_party.py --binary "$$($(SWIFT) build --show-bin-path)/signin-bridge"
	.build/venv-test/bin/python scripts/test/conform/third_party.py --hardened --binary "$$($(SWIFT) build --show-bin-path)/signin-bridge"
	.build/venv-test/bin/python scripts/test/conform/external_host.py --binary "$$($(SWIFT) build --show-bin-path)/signin-bridge"
	bash scripts/test/openapi.sh
	.build/venv-test/bin/python scripts/test/oidc_client.py --binary "$$($(SWIFT) build --show-bin-path)/signin-bridge"
	.build/venv-test/bin/python scripts/test/oidc_idpyoidc.py --binary "$$($(SWIFT) build --show-bin-path)/signin-bridge"
	.build/venv-test/bin/python scripts/test/par_client.py --binary "$$($(SWIFT) build --show-bin-path)/signin-bridge"
	.build/venv-test/bin/python scripts/test/wopi_ecosystem.py --binary "$$($(SWIFT) build --show-bin-path)/signin-bridge"
	.build/venv-test/bin/python scripts/test/dpop_client.py --binary "$$($(SWIFT) build --show-bin-path)/signin-bridge"
	.build/venv-test/bin/python scripts/test/first_party_client.py --binary "$$($(SWIFT) build --show-bin-path)/signin-bridge"
	.build/venv-test/bin/python scripts/test/native_sso.py --binary "$$($(SWIFT) build --show-bin-path)/signin-bridge"
	.build/venv-test/bin/python scripts/test/simple_login_client.py --binary "$$($(SWIFT) build --show-bin-path)/signin-bridge"
	.build/venv-test/bin/python scripts/test/client_attestation.py --binary "$$($(SWIFT) build --show-bin-path)/signin-bridge"
	.build/venv-test/bin/python scripts/test/wopi_forward_auth.py --binary "$$($(SWIFT) build --show-bin-path)/signin-bridge"
	.build/venv-test/bin/python scripts/test/wopi_introspection.py --binary "$$($(SWIFT) build --show-bin-path)/signin-bridge"
	.build/venv-test/bin/python scripts/test/external_idp.py --binary "$$($(SWIFT) build --show-bin-path)/signin-bridge"
	@$(MAKE) --no-print-directory e2e

# Headless Chromium through the Office flow, the app-to-app provider flow and a first-party redirect_to_web;
# screenshots in artifacts/e2e/.
e2e: test-deps
	@bash scripts/e2e/office_flow.sh

# Five seconds of libFuzzer + AddressSanitizer on every decoder. Not part of `make test`: the sanitizer build is a
# second release build of every library (about 10 minutes on 2 cores), which CI's time budget does not allow.
fuzz-smoke:
	bash scripts/fuzz.sh all 5

# The sample's issuer is derived from the listening address, so PORT=9090 moves every advertised URL with it.
run: release
	@$(BIN) config check $(CONFIG) >/dev/null
	@echo ""
	@echo "SignInBridge is starting on http://127.0.0.1:$(PORT) with $(CONFIG) (data in ./data/, Ctrl-C stops it)"
	@echo "  bootstrap URL  http://127.0.0.1:$(PORT)/wopibootstrapper"
	@echo "  demo user      demo@example.com / demo-password (user id: demo)"
	@echo "  demo clients   office / office-demo-secret (confidential), partner-app (public)"
	@echo "  try            curl -i http://127.0.0.1:$(PORT)/wopibootstrapper"
	@echo "  sign in        http://127.0.0.1:$(PORT)/oauth2/authorize?client_id=office&redirect_uri=https%3A%2F%2Flocalhost&response_type=code&scope=wopi&state=s1&rs=en-US&build=16.0&platform=iOS"
	@echo "                 (in a browser; it ends on https://localhost?state=s1&code=...: redeem the code as docs/walkthrough.md shows)"
	@echo "  with a token   TOKEN=\$$(SIGNIN_BRIDGE_PORT=$(PORT) $(BIN) token issue --config $(CONFIG) --user demo --client office) && curl -s -H \"Authorization: Bearer \$$TOKEN\" http://127.0.0.1:$(PORT)/wopibootstrapper"
	@echo ""
	@exec $(BIN) serve --config $(CONFIG) --port $(PORT)

# The instruction-count gate first (a minute or two: fails on a case more than 10% above Benchmarks/thresholds.json),
# then every benchmark into BENCHMARKS.md. `make bench-check` runs the gate alone.
bench: bench-check
	@bash scripts/bench/all.sh

bench-check:
	@bash scripts/install-deps.sh bench
	@echo "== instruction-count regression check: scripts/bench/thresholds.py against Benchmarks/thresholds.json (callgrind)"
	@python3 scripts/bench/thresholds.py

clean:
	rm -rf .build
